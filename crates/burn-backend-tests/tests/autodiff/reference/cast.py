#!/usr/bin/env python3
"""Reference gradients through casts: f32 -> f64 -> f32 and f64 -> f32 -> f64.

Run: ~/torch/bin/python tests/autodiff/reference/cast.py
(PyTorch). A cast is the identity on values, so the gradient of
`cast(2 * exp(cast(x)))` is `2 * exp(x) * upstream`, in x's dtype.
"""
import warnings

warnings.filterwarnings("ignore")

import torch  # noqa: E402

from common import rust  # noqa: E402

X = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
G = [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]

for title, outer, inner in [
    ("cast.rs f32_through_f64", torch.float32, torch.float64),
    ("cast.rs f64_through_f32", torch.float64, torch.float32),
]:
    x = torch.tensor(X, dtype=outer, requires_grad=True)
    y = (x.to(inner).exp() * 2.0).to(outer)
    y.backward(torch.tensor(G, dtype=outer))
    print(f"// {title}")
    print(f"x.grad ({x.grad.dtype}): {rust(x.grad)}")
    print()
