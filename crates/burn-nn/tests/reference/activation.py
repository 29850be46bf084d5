"""Reference values for tests/activation.rs: forward and input gradient of
each activation, and the parameter gradients of PRelu and SwiGlu.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/activation.py
"""

import torch
import torch.nn.functional as F

from common import Writer, rounded

w = Writer("activation_data.rs", "activation.py")

x = rounded(2, 3, 4, scale=2.0, seed=0)  # [2, 3, 4]
g = rounded(2, 3, 4, seed=1)  # upstream gradient
w.tensor("x", x)
w.tensor("g", g)

cases = {
    "relu": F.relu,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.1),
    "gelu": F.gelu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "silu": F.silu,
    "mish": F.mish,
    "softplus": lambda t: F.softplus(t, beta=2.0),
    "elu": lambda t: F.elu(t, alpha=0.7),
    "selu": F.selu,
    "hard_sigmoid": lambda t: torch.clamp(0.2 * t + 0.5, 0.0, 1.0),
    "hard_swish": F.hardswish,
    "glu_last": lambda t: F.glu(t, dim=-1),
    "glu_dim1": lambda t: F.glu(t[:, :2, :], dim=1),
}
for name, f in cases.items():
    xi = x.clone().requires_grad_(True)
    y = f(xi)
    y.backward(g[tuple(slice(0, s) for s in y.shape)])
    w.tensor(f"{name}_y", y)
    w.tensor(f"{name}_dx", xi.grad)

# PRelu with one slope per channel (dim 1 of size 3).
alpha = torch.tensor([0.1, 0.25, -0.3], requires_grad=True)
xi = x.clone().requires_grad_(True)
y = F.prelu(xi, alpha)
y.backward(g)
w.tensor("prelu_alpha", alpha)
w.tensor("prelu_y", y)
w.tensor("prelu_dx", xi.grad)
w.tensor("prelu_dalpha", alpha.grad)

# SwiGlu 4 -> 5 with bias; weights in Burn's [d_input, d_output] layout.
w_inner = rounded(4, 5, scale=0.5, seed=2).requires_grad_(True)
b_inner = rounded(5, scale=0.5, seed=3).requires_grad_(True)
w_outer = rounded(4, 5, scale=0.5, seed=4).requires_grad_(True)
b_outer = rounded(5, scale=0.5, seed=5).requires_grad_(True)
gs = rounded(2, 3, 5, seed=6)
xi = x.clone().requires_grad_(True)
y = F.silu(xi @ w_inner + b_inner) * (xi @ w_outer + b_outer)
y.backward(gs)
for name, t in [("w_inner", w_inner), ("b_inner", b_inner), ("w_outer", w_outer), ("b_outer", b_outer)]:
    w.tensor(f"swiglu_{name}", t)
    w.tensor(f"swiglu_d{name}", t.grad)
w.tensor("swiglu_g", gs)
w.tensor("swiglu_y", y)
w.tensor("swiglu_dx", xi.grad)

w.save()
