#!/usr/bin/env python3
"""Reference gradients of matmul: 2-D, batched, broadcast batch dims,
an untracked operand.

Run: ~/torch/bin/python tests/autodiff/reference/matmul.py
(PyTorch, float64). Each block is pasted into the test of the same title.
"""
import torch

from common import case

A = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
B = [[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]]
G = [[1.0, -2.0], [0.5, 3.0]]
case("matmul.rs matmul_2d", torch.matmul, {"x": A, "y": B}, G)
case("matmul.rs matmul_untracked_rhs", torch.matmul, {"x": A, "y": B}, G, untracked=("y",))
case("matmul.rs matmul_untracked_lhs", torch.matmul, {"x": A, "y": B}, G, untracked=("x",))

A2 = [A, [[0.5, 1.0, -1.5], [2.0, -0.5, 0.25]]]
B2 = [B, [[1.0, -1.0], [0.5, 2.0], [-0.25, 1.5]]]
G2 = [G, [[-1.0, 0.5], [2.0, 1.5]]]
case("matmul.rs matmul_batched", torch.matmul, {"x": A2, "y": B2}, G2)

# [1, 2, 3] @ [2, 3, 2]: the lhs batch broadcasts, its gradient sums over it.
case("matmul.rs matmul_broadcast_lhs_batch", torch.matmul, {"x": [A], "y": B2}, G2)
# [2, 2, 3] @ [1, 3, 2]: the rhs batch broadcasts.
case("matmul.rs matmul_broadcast_rhs_batch", torch.matmul, {"x": A2, "y": [B]}, G2)
# [2, 1, 2, 3] @ [1, 2, 3, 2] -> [2, 2, 2, 2]: each side broadcasts a different batch dim.
G4 = [G2, [[[0.5, 0.5], [-1.0, 2.0]], [[1.5, -0.5], [0.25, 1.0]]]]
case("matmul.rs matmul_broadcast_both_batches", torch.matmul, {"x": [[A], [A2[1]]], "y": [B2]}, G4)
