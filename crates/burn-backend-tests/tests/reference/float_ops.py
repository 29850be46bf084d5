#!/usr/bin/env python3
"""Reference values of the float tests that need transcendental functions.

Run: python3 tests/reference/float_ops.py
Uses only Python's `math` module (f64); the Rust tests compare with the
default tolerance of the executable's float type. Each block prints the
values pasted into the named test file.
"""
import math


def show(name, values):
    print(f"{name}: [{', '.join(repr(float(v)) for v in values)}]")


def rows(name, matrix):
    print(f"{name}: [")
    for row in matrix:
        print(f"    [{', '.join(repr(float(v)) for v in row)}],")
    print("]")


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def softmax(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = sum(e)
    return [v / s for v in e]


def log_softmax(row):
    m = max(row)
    lse = m + math.log(sum(math.exp(v - m) for v in row))
    return [v - lse for v in row]


# exp.rs
rows("exp", [[math.exp(v) for v in r] for r in [[0.0, 1.0, 2.0], [-1.0, 0.5, -2.5]]])
show("exp_transposed", [math.exp(v) for v in [0.0, -1.0, 1.0, 0.5, 2.0, -2.5]])
# log.rs
rows("log", [[math.log(v) for v in r] for r in [[1.0, 2.0, 0.5], [10.0, 0.1, 3.0]]])
show("log1p", [math.log1p(v) for v in [0.0, 1e-4, 1.0, -0.5]])
# erf.rs
show("erf", [math.erf(v) for v in [-2.0, -0.5, 0.0, 0.3, 1.0, 2.5]])
# tanh.rs
show("tanh", [math.tanh(v) for v in [-3.0, -0.5, 0.0, 0.5, 1.0, 20.0]])
# sin_cos.rs
xs = [0.0, 0.5, 1.0, 2.0, -3.0, math.pi]
show("sin", [math.sin(v) for v in xs])
show("cos", [math.cos(v) for v in xs])
show("sin_flipped", [math.sin(v) for v in reversed(xs)])
# powf.rs
base = [[1.0, 2.0, 3.0], [4.0, 0.5, 9.0]]
expo = [[2.0, 0.5, -1.0], [1.5, 3.0, 0.5]]
rows("powf", [[math.pow(b, e) for b, e in zip(rb, re)] for rb, re in zip(base, expo)])
rows("powf_broadcast_row", [[math.pow(b, e) for b, e in zip(rb, [0.5, 2.0, -0.5])] for rb in base])
show("powf_scalar_1_5", [math.pow(v, 1.5) for v in [0.0, 1.0, 2.0, 4.0, 0.25]])
# gelu.rs (exact erf form)
gx = [-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]
show("gelu", [x * 0.5 * (1.0 + math.erf(x / math.sqrt(2.0))) for x in gx])
# sigmoid.rs and silu.rs
sx = [-100.0, -2.0, 0.0, 1.0, 3.0, 100.0]
show("sigmoid", [sigmoid(v) for v in sx])
lx = [-4.0, -1.0, 0.0, 0.5, 2.0, 10.0]
show("silu", [v * sigmoid(v) for v in lx])
# softmax.rs
rows("softmax_dim1", [softmax(r) for r in [[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]])
show("softmax_large", softmax([1000.0, 1001.0, 1002.0]))
cols = softmax([1.0, 4.0]), softmax([2.0, 0.0]), softmax([3.0, 3.0])
rows("softmax_dim0", [[c[0] for c in cols], [c[1] for c in cols]])
# log_softmax.rs
rows("log_softmax_dim1", [log_softmax(r) for r in [[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]]])
show("log_softmax_large", log_softmax([-1000.0, 0.0, 1000.0]))
