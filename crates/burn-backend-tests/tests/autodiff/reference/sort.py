#!/usr/bin/env python3
"""Reference gradients of sort, sort_with_indices, topk and
max_dim_with_indices: the output gradient goes back to where each value came
from.

Run: ~/torch/bin/python tests/autodiff/reference/sort.py
(PyTorch, float64; loss = weighted_sum, see weighted_loss.py).
"""
from weighted_loss import case, leaf, show, weighted_sum

X = [[3.0, -1.0, 4.5, 2.0], [0.5, 9.0, -2.0, 6.0]]

for descending in [False, True]:
    case(f"sort dim 1 of [2, 4], descending={descending}")
    x = leaf(X)
    y, i = x.sort(1, descending=descending)
    show("y", y)
    print(f"  indices: {i.tolist()}")
    weighted_sum(y).backward()
    show("x.grad", x.grad)

case("sort dim 0 of [2, 4]")
x = leaf(X)
weighted_sum(x.sort(0)[0]).backward()
show("x.grad", x.grad)

case("topk(2, dim 1) of [2, 4]")
x = leaf(X)
y, i = x.topk(2, 1)
show("y", y)
print(f"  indices: {i.tolist()}")
weighted_sum(y).backward()
show("x.grad", x.grad)

case("topk(1, dim 0) of [2, 4]")
x = leaf(X)
weighted_sum(x.topk(1, 0)[0]).backward()
show("x.grad", x.grad)

for dim in [1, 0]:
    case(f"max_dim_with_indices dim {dim} of [2, 4]")
    x = leaf(X)
    y, i = x.max(dim, keepdim=True)
    show("y", y)
    print(f"  indices: {i.tolist()}")
    weighted_sum(y).backward()
    show("x.grad", x.grad)

case("sort dim 1 of [1, 5] with ties (stable: equal values keep their order)")
x = leaf([[2.0, 1.0, 2.0, 1.0, 0.0]])
y, i = x.sort(stable=True, dim=1)
print(f"  indices: {i.tolist()}")
weighted_sum(y).backward()
show("x.grad", x.grad)

case("max_dim_with_indices dim 1 of [2, 3] with a tie (the first maximum is picked)")
x = leaf([[1.0, 3.0, 3.0], [5.0, 5.0, 2.0]])
y, i = x.max(1, keepdim=True)
print(f"  indices: {i.tolist()}")
weighted_sum(y).backward()
show("x.grad", x.grad)
