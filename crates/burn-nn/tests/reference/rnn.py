"""Reference values for tests/rnn.rs: Rnn, Lstm, BiLstm and Gru against
PyTorch's RNN / LSTM / GRU (outputs, final states, gradients of the input,
the initial state and every parameter), and PixelShuffle.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/rnn.py
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import Writer, record, rounded

w = Writer("rnn_data.rs", "rnn.py")
IN, H = 3, 4


def set_params(module, seed):
    torch.manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.round(torch.randn_like(p) * 0.5 * 1e4) / 1e4)


def gates(module, names, suffix="", grads=False, prefix=""):
    """Burn's GateController entries for PyTorch's stacked gate weights."""
    get = (lambda t: t.grad) if grads else (lambda t: t)
    w_ih = get(getattr(module, "weight_ih_l0" + suffix))
    w_hh = get(getattr(module, "weight_hh_l0" + suffix))
    b_ih = get(getattr(module, "bias_ih_l0" + suffix))
    b_hh = get(getattr(module, "bias_hh_l0" + suffix))
    out = {}
    for i, name in enumerate(names):
        rows = slice(i * H, (i + 1) * H)
        p = f"{prefix}{name}."
        out[p + "input_transform.weight"] = w_ih[rows].t()
        out[p + "input_transform.bias"] = b_ih[rows]
        out[p + "hidden_transform.weight"] = w_hh[rows].t()
        out[p + "hidden_transform.bias"] = b_hh[rows]
    return out


x = rounded(2, 5, IN, seed=70)
g = rounded(2, 5, H, seed=71)
h0 = rounded(2, H, scale=0.5, seed=72)
c0 = rounded(2, H, scale=0.5, seed=73)
w.tensor("x", x)
w.tensor("g", g)
w.tensor("h0", h0)
w.tensor("c0", c0)

# PyTorch's gate orders: LSTM i, f, g, o; GRU r, z, n; RNN one gate.
LSTM_GATES = ["input_gate", "forget_gate", "cell_gate", "output_gate"]
GRU_GATES = ["reset_gate", "update_gate", "new_gate"]

# ---- Rnn (tanh) with an initial state.
rnn = nn.RNN(IN, H, batch_first=True)
set_params(rnn, 74)
xi, hi = x.clone().requires_grad_(True), h0.clone().requires_grad_(True)
y, _ = rnn(xi, hi.unsqueeze(0))
y.backward(g)
record(w, "rnn_record", gates(rnn, ["gate"]))
w.tensor("rnn_y", y)
w.tensor("rnn_dx", xi.grad)
w.tensor("rnn_dh0", hi.grad)
record(w, "rnn_grads", gates(rnn, ["gate"], grads=True))

# ---- Lstm with an initial state; the loss also reads the final cell state.
lstm = nn.LSTM(IN, H, batch_first=True)
set_params(lstm, 75)
gc = rounded(2, H, seed=76)
w.tensor("gc", gc)
xi = x.clone().requires_grad_(True)
hi, ci = h0.clone().requires_grad_(True), c0.clone().requires_grad_(True)
y, (hn, cn) = lstm(xi, (hi.unsqueeze(0), ci.unsqueeze(0)))
((y * g).sum() + (cn[0] * gc).sum()).backward()
record(w, "lstm_record", gates(lstm, LSTM_GATES))
w.tensor("lstm_y", y)
w.tensor("lstm_hn", hn)
w.tensor("lstm_cn", cn)
w.tensor("lstm_dx", xi.grad)
w.tensor("lstm_dh0", hi.grad)
w.tensor("lstm_dc0", ci.grad)
record(w, "lstm_grads", gates(lstm, LSTM_GATES, grads=True))

# ---- BiLstm from a zero state.
bi = nn.LSTM(IN, H, batch_first=True, bidirectional=True)
set_params(bi, 77)
g2 = rounded(2, 5, 2 * H, seed=78)
w.tensor("g2", g2)
xi = x.clone().requires_grad_(True)
y, (hn, cn) = bi(xi)
y.backward(g2)
entries = gates(bi, LSTM_GATES, prefix="forward.")
entries.update(gates(bi, LSTM_GATES, suffix="_reverse", prefix="reverse."))
record(w, "bilstm_record", entries)
w.tensor("bilstm_y", y)
w.tensor("bilstm_hn", hn)
w.tensor("bilstm_cn", cn)
w.tensor("bilstm_dx", xi.grad)
grads = gates(bi, LSTM_GATES, grads=True, prefix="forward.")
grads.update(gates(bi, LSTM_GATES, suffix="_reverse", grads=True, prefix="reverse."))
record(w, "bilstm_grads", grads)

# ---- Gru (reset after, PyTorch's form) with an initial state.
gru = nn.GRU(IN, H, batch_first=True)
set_params(gru, 79)
xi, hi = x.clone().requires_grad_(True), h0.clone().requires_grad_(True)
y, _ = gru(xi, hi.unsqueeze(0))
y.backward(g)
record(w, "gru_record", gates(gru, GRU_GATES))
w.tensor("gru_y", y)
w.tensor("gru_dx", xi.grad)
w.tensor("gru_dh0", hi.grad)
record(w, "gru_grads", gates(gru, GRU_GATES, grads=True))

# ---- Gru with the reset gate before the hidden projection, by hand.
def gru_reset_before(x, h, p):
    outs = []
    for t in range(x.shape[1]):
        xt = x[:, t]
        gate = lambda n, hh: xt @ p[n + ".input_transform.weight"] + p[n + ".input_transform.bias"] + hh @ p[n + ".hidden_transform.weight"] + p[n + ".hidden_transform.bias"]
        r = torch.sigmoid(gate("reset_gate", h))
        z = torch.sigmoid(gate("update_gate", h))
        n = torch.tanh(gate("new_gate", r * h))
        h = (1 - z) * n + z * h
        outs.append(h)
    return torch.stack(outs, 1)


with torch.no_grad():
    y = gru_reset_before(x, h0, gates(gru, GRU_GATES))
w.tensor("gru_before_y", y)

# ---- PixelShuffle r = 2 on [1, 8, 2, 3], gradient included.
ps = rounded(1, 8, 2, 3, seed=80).requires_grad_(True)
gp = rounded(1, 2, 4, 6, seed=81)
y = F.pixel_shuffle(ps, 2)
y.backward(gp)
w.tensor("ps_x", ps)
w.tensor("ps_g", gp)
w.tensor("ps_y", y)
w.tensor("ps_dx", ps.grad)

w.save()
