"""Reference values for tests/norm.rs: normalization layers, the
feed-forward block, and the positional and rotary encodings;
forward values and gradients of the input and every parameter.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/norm.py
"""

import math

import torch
import torch.nn.functional as F

from common import Writer, rounded

w = Writer("norm_data.rs", "norm.py")

x = rounded(2, 4, 3, scale=2.0, seed=40) + 0.5  # [batch 2, channels 4, 3 positions]
g = rounded(2, 4, 3, seed=41)
gamma = rounded(4, scale=0.5, seed=42) + 1.0
beta = rounded(4, scale=0.5, seed=43)
w.tensor("x", x)
w.tensor("g", g)
w.tensor("gamma", gamma)
w.tensor("beta", beta)
# LayerNorm / RmsNorm normalize the last dim: use [2, 3, 4] (x transposed).
xl = x.transpose(1, 2).contiguous()
gl = g.transpose(1, 2).contiguous()
w.tensor("xl", xl)
w.tensor("gl", gl)


def run(name, f, inp, upstream, params):
    inp = inp.clone().requires_grad_(True)
    params = [p.clone().requires_grad_(True) for p in params]
    y = f(inp, *params)
    y.backward(upstream)
    w.tensor(f"{name}_y", y)
    w.tensor(f"{name}_dx", inp.grad)
    for i, p in enumerate(params):
        w.tensor(f"{name}_dp{i}", p.grad)


run("layer", lambda t, a, b: F.layer_norm(t, (4,), a, b, eps=1e-5), xl, gl, [gamma, beta])
run("layer_nobias", lambda t, a: F.layer_norm(t, (4,), a, None, eps=1e-3), xl, gl, [gamma])
run("rms", lambda t, a: F.rms_norm(t, (4,), a, eps=1e-5), xl, gl, [gamma])
run("group", lambda t, a, b: F.group_norm(t, 2, a, b, eps=1e-5), x, g, [gamma, beta])
run("group_plain", lambda t: F.group_norm(t, 4, None, None, eps=1e-5), x, g, [])
run("instance", lambda t, a, b: F.instance_norm(t, weight=a, bias=b, eps=1e-5), x, g, [gamma, beta])

# BatchNorm: one training step (batch statistics, running update), then
# evaluation with the updated running statistics.
rm = torch.zeros(4)
rv = torch.ones(4)
run(
    "batch_train",
    lambda t, a, b: F.batch_norm(t, rm, rv, a, b, training=True, momentum=0.2, eps=1e-5),
    x, g, [gamma, beta],
)
w.tensor("batch_running_mean", rm)
w.tensor("batch_running_var", rv)
x2 = rounded(2, 4, 3, seed=44)
w.tensor("x2", x2)
run(
    "batch_eval",
    lambda t, a, b: F.batch_norm(t, rm, rv, a, b, training=False, eps=1e-5),
    x2, g, [gamma, beta],
)

# Position-wise feed-forward 4 -> 6 -> 4, no dropout.
w1 = rounded(4, 6, scale=0.5, seed=45)
b1 = rounded(6, scale=0.5, seed=46)
w2 = rounded(6, 4, scale=0.5, seed=47)
b2 = rounded(4, scale=0.5, seed=48)
for name, t in [("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)]:
    w.tensor(f"ff_{name}", t)
run("ff", lambda t, a, b, c, d: F.gelu(t @ a + b) @ c + d, xl, gl, [w1, b1, w2, b2])

# Sinusoidal positional encoding, d_model 6, 5 positions, timescale 100.
pe = torch.zeros(5, 6)
for p in range(5):
    for i in range(0, 6, 2):
        angle = p / 100 ** (i / 6)
        pe[p, i] = math.sin(angle)
        pe[p, i + 1] = math.cos(angle)
w.tensor("pe", pe)

# Rotary encoding on [2, 3, 4] (seq 3, d_model 4), theta 10000, from position 0 and 2.
def rope(t, start):
    d = t.shape[-1]
    seq = t.shape[-2]
    out = torch.empty_like(t)
    for p in range(seq):
        for i in range(d // 2):
            angle = (start + p) * 10000.0 ** (-2 * i / d)
            c, s = math.cos(angle), math.sin(angle)
            a, b = t[..., p, 2 * i], t[..., p, 2 * i + 1]
            out[..., p, 2 * i] = a * c - b * s
            out[..., p, 2 * i + 1] = a * s + b * c
    return out


run("rope0", lambda t: rope(t, 0), xl, gl, [])
run("rope2", lambda t: rope(t, 2), xl, gl, [])

w.save()
