#!/usr/bin/env python3
"""Reference gradients of the element-wise unary ops: neg, recip, abs, exp,
log, log1p, sqrt, the trigonometric and hyperbolic functions and their
inverses, erf, and the piecewise-constant round, floor, ceil, trunc, sign.

Run: ~/torch/bin/python tests/autodiff/reference/unary.py
(PyTorch, float64). Each block is pasted into the test of the same title.
"""
import torch

from common import case

G = [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]
# Inputs by domain.
ANY = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
POSITIVE = [[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]]
UNIT = [[0.25, -0.6, 0.45], [-0.15, 0.8, -0.35]]  # inside (-1, 1)
ABOVE_ONE = [[1.5, 1.1, 2.0], [3.0, 1.25, 4.5]]  # acosh
ABOVE_MINUS_ONE = [[1.5, -0.5, 0.5], [3.0, 0.25, -0.75]]  # log1p

for name, op, x in [
    ("neg", torch.neg, ANY),
    ("recip", torch.reciprocal, ANY),
    ("exp", torch.exp, ANY),
    ("log", torch.log, POSITIVE),
    ("log1p", torch.log1p, ABOVE_MINUS_ONE),
    ("sqrt", torch.sqrt, POSITIVE),
    ("sin", torch.sin, ANY),
    ("cos", torch.cos, ANY),
    ("tan", torch.tan, ANY),  # no element near an odd multiple of pi/2
    ("sinh", torch.sinh, ANY),
    ("cosh", torch.cosh, ANY),
    ("tanh", torch.tanh, ANY),
    ("asin", torch.asin, UNIT),
    ("acos", torch.acos, UNIT),
    ("atan", torch.atan, ANY),
    ("asinh", torch.asinh, ANY),
    ("acosh", torch.acosh, ABOVE_ONE),
    ("atanh", torch.atanh, UNIT),
    ("erf", torch.erf, ANY),
]:
    case(f"{name}.rs {name}", op, {"x": x}, G)

# abs: PyTorch's derivative at 0 is sign(0) = 0.
case("abs.rs abs", torch.abs, {"x": [[1.5, -2.0, 0.0], [3.0, -0.25, -1.25]]}, G)

# Piecewise constant: x * f(x) has derivative f(x) (f' = 0 away from the
# jumps), so a zero derivative shows as the gradient f(x) exactly. Half
# values check round-half-to-even; PyTorch's derivative is 0 there as well.
P = [[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]]
for name in ["round", "floor", "ceil", "trunc", "sign"]:
    f = getattr(torch, name)
    case(f"piecewise_constant.rs {name}", lambda x, f=f: x * f(x), {"x": P}, G)
