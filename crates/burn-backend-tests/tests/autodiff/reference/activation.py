#!/usr/bin/env python3
"""Reference gradients of the activations of burn::tensor::activation:
relu, leaky_relu, gelu, sigmoid, silu, softmax, log_softmax, log_sigmoid,
hard_sigmoid. The inputs include 0 (the kink of relu and leaky_relu, where
PyTorch's convention is relu'(0) = 0 and leaky_relu'(0) = slope) and large
|x|, where a naive formula overflows.

Run: ~/torch/bin/python tests/autodiff/reference/activation.py
(PyTorch, float64; loss = weighted_sum, see weighted_loss.py).
"""
from weighted_loss import case, leaf, show, weighted_sum
import torch
import torch.nn.functional as F

X = [[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]]
XL = [[-40.0, -20.0, 0.0, 20.0, 40.0]]


def run(title, f, data=X):
    case(title)
    x = leaf(data)
    y = f(x)
    show("y", y)
    weighted_sum(y).backward()
    show("x.grad", x.grad)


run("relu", F.relu)
run("leaky_relu(0.1)", lambda x: F.leaky_relu(x, 0.1))
run("gelu (exact erf form)", F.gelu)
run("sigmoid", torch.sigmoid)
run("sigmoid at large |x|", torch.sigmoid, XL)
run("silu", F.silu)
run("log_sigmoid", F.logsigmoid)
run("log_sigmoid at large |x|", F.logsigmoid, XL)
# Burn's hard_sigmoid(x, alpha, beta) = clamp(alpha * x + beta, 0, 1); PyTorch's
# F.hardsigmoid is alpha = 1/6, beta = 1/2 (its kernel rounds 1/6 to f32, so
# the float64 clamp form is the reference). The inputs avoid the corners
# (x = +-3 for 1/6), where the clamp passes the gradient and F.hardsigmoid
# does not.
run("hard_sigmoid(1/6, 1/2)", lambda x: torch.clamp(x / 6.0 + 0.5, 0.0, 1.0),
    [[-4.0, -2.5, -1.0, 0.0], [0.5, 1.0, 2.5, 5.0]])
run("hard_sigmoid(0.2, 0.5) (as clamp(0.2 x + 0.5, 0, 1))",
    lambda x: torch.clamp(0.2 * x + 0.5, 0.0, 1.0),
    [[-4.0, -2.0, -1.0, 0.0], [0.5, 1.0, 2.0, 3.0]])
run("softmax dim 1", lambda x: F.softmax(x, 1))
run("softmax dim 0", lambda x: F.softmax(x, 0))
run("softmax dim 1 at large values", lambda x: F.softmax(x, 1), [[1000.0, 1001.0, 1002.0]])
run("log_softmax dim 1", lambda x: F.log_softmax(x, 1))
run("log_softmax dim 0", lambda x: F.log_softmax(x, 0))
