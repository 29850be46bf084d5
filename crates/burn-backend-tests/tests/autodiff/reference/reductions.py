#!/usr/bin/env python3
"""Reference gradients of the reductions: sum, sum_dim, mean, mean_dim,
prod, prod_dim (with zeros), max, min (with ties), max_dim, min_dim.

Run: ~/torch/bin/python tests/autodiff/reference/reductions.py
(PyTorch, float64). Each block is pasted into the test of the same title.
Full reductions return shape [1] in Burn, so the upstream gradient is a
one-element list here too; `*_dim` reductions keep the dim (keepdim=True).
"""
import torch

from common import case

X = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
X3 = [[[1.5, -2.0], [0.5, 3.0]], [[0.25, -1.25], [2.0, -0.5]]]

case("sum.rs sum", lambda x: x.sum().reshape(1), {"x": X}, [2.5])
case("sum.rs sum_3d", lambda x: x.sum().reshape(1), {"x": X3}, [-1.5])
case("sum_dim.rs sum_dim_0", lambda x: x.sum(0, keepdim=True), {"x": X}, [[1.0, -2.0, 0.5]])
case("sum_dim.rs sum_dim_1", lambda x: x.sum(1, keepdim=True), {"x": X}, [[1.5], [-3.0]])
case("sum_dim.rs sum_dim_middle_3d", lambda x: x.sum(1, keepdim=True), {"x": X3}, [[[1.0, -2.0]], [[0.5, 3.0]]])
case("mean.rs mean", lambda x: x.mean().reshape(1), {"x": X}, [3.0])
case("mean.rs mean_3d", lambda x: x.mean().reshape(1), {"x": X3}, [-2.0])
case("mean_dim.rs mean_dim_0", lambda x: x.mean(0, keepdim=True), {"x": X}, [[1.0, -2.0, 0.5]])
case("mean_dim.rs mean_dim_1", lambda x: x.mean(1, keepdim=True), {"x": X}, [[1.5], [-3.0]])
case("mean_dim.rs mean_dim_last_3d", lambda x: x.mean(2, keepdim=True), {"x": X3}, [[[1.0], [-2.0]], [[0.5], [3.0]]])

case("prod.rs prod", lambda x: x.prod().reshape(1), {"x": X}, [1.5])
case("prod.rs prod_one_zero", lambda x: x.prod().reshape(1), {"x": [[1.5, -2.0, 0.0], [3.0, 0.25, -1.25]]}, [1.5])
case("prod.rs prod_two_zeros", lambda x: x.prod().reshape(1), {"x": [[1.5, 0.0, 0.5], [3.0, 0.0, -1.25]]}, [1.5])
# Row 0: no zero; row 1: one zero; row 2: two zeros.
PZ = [[1.5, -2.0, 0.5], [3.0, 0.0, -1.25], [0.0, 2.0, 0.0]]
case("prod_dim.rs prod_dim_1_with_zeros", lambda x: x.prod(1, keepdim=True), {"x": PZ}, [[1.0], [-2.0], [0.5]])
case("prod_dim.rs prod_dim_0", lambda x: x.prod(0, keepdim=True), {"x": X}, [[1.0, -2.0, 0.5]])

case("max.rs max", lambda x: x.max().reshape(1), {"x": X}, [2.0])
case("min.rs min", lambda x: x.min().reshape(1), {"x": X}, [2.0])
# Ties: PyTorch splits the gradient evenly among the tied elements.
T = [[3.0, -2.0, 3.0], [-2.0, 3.0, 0.5]]
case("max.rs max_three_way_tie", lambda x: x.max().reshape(1), {"x": T}, [1.5])
case("min.rs min_two_way_tie", lambda x: x.min().reshape(1), {"x": T}, [1.0])

# max(dim) / min(dim): the gradient goes to the index returned, the first
# one on ties (PyTorch's CPU kernel, and Burn's contract).
D = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
case("max_dim.rs max_dim_1", lambda x: x.max(1, keepdim=True).values, {"x": D}, [[1.5], [-3.0]])
case("max_dim.rs max_dim_0", lambda x: x.max(0, keepdim=True).values, {"x": D}, [[1.0, -2.0, 0.5]])
case("max_dim.rs max_dim_ties", lambda x: x.max(1, keepdim=True).values, {"x": [[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]]}, [[1.5], [-3.0]])
case("min_dim.rs min_dim_1", lambda x: x.min(1, keepdim=True).values, {"x": D}, [[1.5], [-3.0]])
case("min_dim.rs min_dim_0", lambda x: x.min(0, keepdim=True).values, {"x": D}, [[1.0, -2.0, 0.5]])
case("min_dim.rs min_dim_ties", lambda x: x.min(1, keepdim=True).values, {"x": [[1.0, 3.0, 1.0], [2.0, 2.0, 2.0]]}, [[1.5], [-3.0]])

# A reduction broadcast back against its input: the gradient reaches x
# along both paths.
case("sum_dim.rs sum_dim_broadcast_back", lambda x: x * x.sum(0, keepdim=True), {"x": X}, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]])
case("mean_dim.rs mean_dim_centered", lambda x: x - x.mean(1, keepdim=True), {"x": X}, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]])
case("max_dim.rs max_dim_shifted", lambda x: x - x.max(1, keepdim=True).values, {"x": X}, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]])
