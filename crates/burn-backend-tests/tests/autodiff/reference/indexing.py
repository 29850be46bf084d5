#!/usr/bin/env python3
"""Reference gradients of the indexing and masking ops: gather, scatter
(scatter_add), select, select_assign (select_add), mask_where, mask_fill,
tril, triu, to_device.

Run: ~/torch/bin/python tests/autodiff/reference/indexing.py
(PyTorch, float64; loss = weighted_sum, see weighted_loss.py).
"""
from weighted_loss import case, leaf, show, weighted_sum
import torch

X33 = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [7.0, 8.0, 9.0]]
X34 = [[0.5, -1.0, 2.0, 3.5], [4.0, -5.5, 6.0, 7.0], [-8.0, 9.0, 10.5, -11.0]]

case("gather dim 1 of [3, 3], indices [3, 2] with repeats")
x = leaf(X33)
idx = torch.tensor([[0, 0], [2, 1], [1, 1]])
y = x.gather(1, idx)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)

case("gather dim 0 of [3, 3], indices [2, 3]")
x = leaf(X33)
idx = torch.tensor([[2, 0, 2], [2, 1, 0]])
weighted_sum(x.gather(0, idx)).backward()
show("x.grad", x.grad)

case("scatter (add) dim 1 into [3, 4], indices [3, 2] with repeats")
x = leaf(X34)
v = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
idx = torch.tensor([[0, 1], [3, 3], [2, 0]])
y = x.scatter_add(1, idx, v)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

case("select dim 0 of [4, 2], indices [3, 0, 3]")
x = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
y = x.index_select(0, torch.tensor([3, 0, 3]))
weighted_sum(y).backward()
show("x.grad", x.grad)

case("select dim 1 of [2, 3], indices [2, 2, 1, 0]")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
weighted_sum(x.index_select(1, torch.tensor([2, 2, 1, 0]))).backward()
show("x.grad", x.grad)

case("select_assign (index_add) dim 0 of [3, 2], indices [2, 0, 2], values [3, 2]")
x = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
v = leaf([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]])
y = x.index_add(0, torch.tensor([2, 0, 2]), v)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

M23 = [[True, False, True], [False, False, True]]
case("mask_where [2, 3], mask [2, 3], value [2, 3]")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
v = leaf([[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]])
y = torch.where(torch.tensor(M23), v, x)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

case("mask_where broadcast: x [1, 3], mask [2, 1], value [2, 3] -> [2, 3]")
x = leaf([[1.0, 2.0, 3.0]])
v = leaf([[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]])
y = torch.where(torch.tensor([[True], [False]]), v, x)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

case("mask_where broadcast: x [2, 3], mask [1, 3], value [2, 1] -> [2, 3]")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
v = leaf([[-1.0], [-2.0]])
y = torch.where(torch.tensor([[False, True, True]]), v, x)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

case("mask_fill [2, 3] with 9.0, mask [2, 3]")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = x.masked_fill(torch.tensor(M23), 9.0)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)

case("mask_fill [2, 3] with -1.0, broadcast mask [1, 3]")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = x.masked_fill(torch.tensor([[False, True, False]]), -1.0)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)

for k in [0, -1, 1]:
    case(f"tril({k}) of [3, 4]")
    x = leaf(X34)
    weighted_sum(x.tril(k)).backward()
    show("x.grad", x.grad)

case("tril(0) of [2, 2, 3] (batched)")
x = leaf([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]])
weighted_sum(x.tril(0)).backward()
show("x.grad", x.grad)

for k in [0, 1, -1]:
    case(f"triu({k}) of [3, 4]")
    x = leaf(X34)
    weighted_sum(x.triu(k)).backward()
    show("x.grad", x.grad)

case("to_device (same device) of [2, 3], then * x")
x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = x.to("cpu") * x
weighted_sum(y).backward()
show("x.grad", x.grad)
