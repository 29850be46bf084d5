#!/usr/bin/env python3
"""Reference gradients of the running ops: cumsum, cumprod (with zeros
inside), cummin and cummax (with ties: PyTorch credits a tie to the latest
position, and so does Burn).

Run: ~/torch/bin/python tests/autodiff/reference/cumulative.py
(PyTorch, float64; loss = weighted_sum, see weighted_loss.py).
"""
from weighted_loss import case, leaf, show, weighted_sum

X23 = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]

for dim in [1, 0]:
    case(f"cumsum dim {dim} of [2, 3]")
    x = leaf(X23)
    weighted_sum(x.cumsum(dim)).backward()
    show("x.grad", x.grad)

case("cumprod dim 1 of [3, 4]: no zero, one zero, two zeros")
x = leaf([[2.0, -0.5, 3.0, 1.5], [2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 0.0, 3.0]])
y = x.cumprod(1)
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)

case("cumprod dim 0 of [3, 2] with a zero in the last row")
x = leaf([[1.5, -2.0], [2.0, 0.5], [0.0, 3.0]])
weighted_sum(x.cumprod(0)).backward()
show("x.grad", x.grad)

XT = [[3.0, 1.0, 4.0, 1.0, 5.0], [2.0, 7.0, 1.0, 8.0, 2.0]]
case("cummax dim 1 of [2, 5] (ties: 4, 4 and 8, 8)")
x = leaf([[3.0, 1.0, 4.0, 4.0, 5.0], [2.0, 7.0, 1.0, 8.0, 8.0]])
y, i = x.cummax(1)
show("y", y)
print(f"  indices: {i.tolist()}")
weighted_sum(y).backward()
show("x.grad", x.grad)

case("cummax dim 0 of [3, 2]")
x = leaf([[1.0, 5.0], [3.0, 2.0], [2.0, 6.0]])
weighted_sum(x.cummax(0)[0]).backward()
show("x.grad", x.grad)

case("cummin dim 1 of [2, 5] (ties)")
x = leaf([[3.0, 1.0, 4.0, 1.0, 0.5], [2.0, 7.0, 1.0, 8.0, 1.0]])
y, i = x.cummin(1)
show("y", y)
print(f"  indices: {i.tolist()}")
weighted_sum(y).backward()
show("x.grad", x.grad)

case("cummin dim 0 of [3, 2]")
x = leaf([[1.0, 5.0], [3.0, 2.0], [0.0, 6.0]])
weighted_sum(x.cummin(0)[0]).backward()
show("x.grad", x.grad)
