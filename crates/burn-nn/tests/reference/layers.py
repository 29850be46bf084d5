"""Reference values for tests/layers.rs: Linear (both layouts, rank 3
input) and Embedding, forward and every gradient.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/layers.py
"""

import torch
import torch.nn.functional as F

from common import Writer, rounded

w = Writer("layers_data.rs", "layers.py")

# Linear 4 -> 3 on x [2, 2, 4]; weight written in Burn's [d_input, d_output] layout.
x = rounded(2, 2, 4, seed=10).requires_grad_(True)
weight = rounded(4, 3, scale=0.5, seed=11).requires_grad_(True)
bias = rounded(3, scale=0.5, seed=12).requires_grad_(True)
g = rounded(2, 2, 3, seed=13)
y = x @ weight + bias
y.backward(g)
for name, t in [("x", x), ("weight", weight), ("bias", bias), ("g", g), ("y", y)]:
    w.tensor(f"linear_{name}", t)
w.tensor("linear_dx", x.grad)
w.tensor("linear_dweight", weight.grad)
w.tensor("linear_dbias", bias.grad)
# PyTorch's own layout [d_output, d_input] for the Col layout test.
w.tensor("linear_weight_t", weight.detach().t().contiguous())

# Embedding 6 x 3 with repeated ids, so rows accumulate gradients.
table = rounded(6, 3, seed=14).requires_grad_(True)
ids = torch.tensor([[0, 2, 5], [2, 2, 1]])
ge = rounded(2, 3, 3, seed=15)
e = F.embedding(ids, table)
e.backward(ge)
w.tensor("embedding_weight", table)
w.ints("embedding_ids", ids)
w.tensor("embedding_g", ge)
w.tensor("embedding_y", e)
w.tensor("embedding_dweight", table.grad)

w.save()
