#!/usr/bin/env python3
"""Reference gradients of the binary element-wise ops: add, sub, div,
remainder (and its scalar forms), powf, atan2.

Run: ~/torch/bin/python tests/autodiff/reference/binary.py
(PyTorch, float64). Each block is pasted into the test of the same title.
"""
import torch

from common import case

X = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
Y = [[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]]
ROW = [[2.0, -0.5, 1.25]]
COLUMN = [[1.5], [-2.5]]
G = [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]


def standard(name, op, x=X, y=Y, row=ROW, column=COLUMN):
    case(f"{name}.rs same_shape", op, {"x": x, "y": y}, G)
    case(f"{name}.rs broadcast_row", op, {"x": x, "y": row}, G)
    case(f"{name}.rs broadcast_both", op, {"x": column, "y": row}, G)
    case(f"{name}.rs untracked_rhs", op, {"x": x, "y": y}, G, untracked=("y",))
    case(f"{name}.rs untracked_lhs", op, {"x": x, "y": y}, G, untracked=("x",))


standard("add", lambda x, y: x + y)
standard("sub", lambda x, y: x - y)
standard("div", lambda x, y: x / y)

# remainder: l / r never an integer, where the remainder jumps.
RX = [[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]]
RY = [[2.0, 0.5, -1.5], [-0.8, 4.0, 1.0]]
RROW = [[2.0, -0.7, 1.1]]
standard("remainder", torch.remainder, x=RX, y=RY, row=RROW)
case("remainder.rs scalar_rhs", lambda x: torch.remainder(x, 2.0), {"x": RX}, G)
SX = [[1.5, -2.25, 0.75], [3.0, 7.5, -1.5]]
# PyTorch has no derivative for remainder(Number, Tensor): a full tensor is
# the same function (and what the Rust scalar-on-the-left form builds).
case("remainder.rs scalar_lhs", lambda x: torch.remainder(torch.full_like(x, 5.0), x), {"x": SX}, G)

# powf: positive bases (d/dr reads ln(l)).
P = [[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]]
E = [[2.0, 0.5, -1.5], [-0.75, 3.0, 1.0]]
standard("powf", torch.pow, x=P, y=E, row=ROW, column=COLUMN[:1] + [[2.5]])
# Negative bases with integral exponents, exponent untracked.
case(
    "powf.rs negative_base_integral_exponent",
    torch.pow,
    {"x": [[-2.0, -0.5, 1.5], [-3.0, 0.25, -1.25]], "y": [[3.0, 2.0, -1.0], [2.0, 3.0, -2.0]]},
    G,
    untracked=("y",),
)

standard("atan2", torch.atan2)
