#!/usr/bin/env python3
"""Reference gradients of the shape ops: reshape, permute, swap_dims, flip,
expand, slice, slice_assign, narrow, cat, repeat_dim.

Run: ~/torch/bin/python tests/autodiff/reference/shape_ops.py
(PyTorch, float64; loss = weighted_sum, see weighted_loss.py).
"""
from weighted_loss import case, leaf, show, weighted_sum
import torch

X23 = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
X234 = [[[float(i * 12 + j * 4 + k) for k in range(4)] for j in range(3)] for i in range(2)]
X34 = [[0.5, -1.0, 2.0, 3.5], [4.0, -5.5, 6.0, 7.0], [-8.0, 9.0, 10.5, -11.0]]

case("reshape [2, 3] -> [3, 1, 2]")
x = leaf(X23)
weighted_sum(x.reshape(3, 1, 2)).backward()
show("x.grad", x.grad)

case("permute [2, 3, 4] by [2, 0, 1]")
x = leaf(X234)
weighted_sum(x.permute(2, 0, 1)).backward()
show("x.grad", x.grad)

case("swap_dims(0, 2) on [2, 3, 4]")
x = leaf(X234)
weighted_sum(x.transpose(0, 2)).backward()
show("x.grad", x.grad)

case("swap_dims(-1, 1) on [2, 3, 4]")
x = leaf(X234)
weighted_sum(x.transpose(-1, 1)).backward()
show("x.grad", x.grad)

case("flip [0, 1] on [2, 3]")
x = leaf(X23)
weighted_sum(x.flip(0, 1)).backward()
show("x.grad", x.grad)

case("flip [1] on [3, 4]")
x = leaf(X34)
weighted_sum(x.flip(1)).backward()
show("x.grad", x.grad)

case("expand [3, 1] -> [2, 3, 4]")
x = leaf([[1.0], [2.0], [3.0]])
weighted_sum(x.expand(2, 3, 4)).backward()
show("x.grad", x.grad)

case("expand [1, 3] -> [2, 3]")
x = leaf([[1.0, 2.0, 3.0]])
weighted_sum(x.expand(2, 3)).backward()
show("x.grad", x.grad)

case("slice [0..2, 1..3] of [3, 4]")
x = leaf(X34)
weighted_sum(x[0:2, 1:3]).backward()
show("x.grad", x.grad)

case("slice s![1.., ..;-2] of [3, 4] (rows 1, 2; columns 3, 1)")
x = leaf(X34)
weighted_sum(x[1:, [3, 1]]).backward()
show("x.grad", x.grad)

case("slice_assign [1..3, 0..2] of [3, 4] with a [2, 2] value")
x = leaf(X34)
v = leaf([[10.0, 20.0], [30.0, 40.0]])
y = x.clone()
y[1:3, 0:2] = v
show("y", y)
weighted_sum(y).backward()
show("x.grad", x.grad)
show("v.grad", v.grad)

case("narrow(1, 1, 2) of [3, 4]")
x = leaf(X34)
weighted_sum(x.narrow(1, 1, 2)).backward()
show("x.grad", x.grad)

case("narrow(0, 2, 1) of [3, 4]")
x = leaf(X34)
weighted_sum(x.narrow(0, 2, 1)).backward()
show("x.grad", x.grad)

case("cat dim 0: a [2, 2], b [1, 2] (untracked), c [3, 2]")
a = leaf([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[5.0, 6.0]])
c = leaf([[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]])
weighted_sum(torch.cat([a, b, c], 0)).backward()
show("a.grad", a.grad)
show("c.grad", c.grad)

case("cat dim 1: a [2, 1], b [2, 3]")
a = leaf([[1.0], [2.0]])
b = leaf([[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
weighted_sum(torch.cat([a, b], 1)).backward()
show("a.grad", a.grad)
show("b.grad", b.grad)

case("repeat_dim(0, 3) of [2, 3]")
x = leaf(X23)
weighted_sum(x.repeat(3, 1)).backward()
show("x.grad", x.grad)

case("repeat_dim(1, 2) of [2, 3]")
x = leaf(X23)
weighted_sum(x.repeat(1, 2)).backward()
show("x.grad", x.grad)
