"""Reference values for tests/attention.rs: multi-head attention (masks,
per-head weights, every gradient), and transformer encoder / decoder stacks
(post- and pre-norm) with every parameter gradient.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/attention.py
"""

import torch
import torch.nn as nn

from common import Writer, attention_entries, attention_grads, record, rounded

w = Writer("attention_data.rs", "attention.py")
D, H, FF = 8, 2, 16


def set_params(module, seed):
    torch.manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.round(torch.randn_like(p) * 0.4 * 1e4) / 1e4)


# ---- attention: self-attention with a padding mask.
mha = nn.MultiheadAttention(D, H, batch_first=True, dropout=0.0)
set_params(mha, 50)
record(w, "mha_record", attention_entries("", mha))
x = rounded(2, 4, D, seed=51).requires_grad_(True)
g = rounded(2, 4, D, seed=52)
pad = torch.tensor([[False, False, False, False], [False, False, True, True]])
w.tensor("mha_x", x)
w.tensor("mha_g", g)
y, weights = mha(x, x, x, key_padding_mask=pad, average_attn_weights=False)
y.backward(g)
w.tensor("mha_y", y)
w.tensor("mha_weights", weights)
w.tensor("mha_dx", x.grad)
record(w, "mha_grads", attention_grads("", mha))

# ---- cross-attention with a causal-like attention mask (seq_q 3, seq_k 4).
mha.zero_grad()
q = rounded(2, 3, D, seed=53).requires_grad_(True)
kv = rounded(2, 4, D, seed=54).requires_grad_(True)
attn_mask = torch.triu(torch.ones(3, 4, dtype=torch.bool), diagonal=1)
gq = rounded(2, 3, D, seed=55)
y, _ = mha(q, kv, kv, attn_mask=attn_mask)
y.backward(gq)
w.tensor("cross_q", q)
w.tensor("cross_kv", kv)
w.tensor("cross_g", gq)
w.tensor("cross_y", y)
w.tensor("cross_dq", q.grad)
w.tensor("cross_dkv", kv.grad)

# ---- causal self-attention, for the key/value cache test.
causal = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
with torch.no_grad():
    y, _ = mha(x, x, x, attn_mask=causal)
w.tensor("causal_y", y)


def encoder_entries(enc):
    out = {}
    for i, layer in enumerate(enc.layers):
        p = f"layers.{i}."
        out.update(attention_entries(p + "mha.", layer.self_attn))
        out[p + "pwff.linear_inner.weight"] = layer.linear1.weight.t()
        out[p + "pwff.linear_inner.bias"] = layer.linear1.bias
        out[p + "pwff.linear_outer.weight"] = layer.linear2.weight.t()
        out[p + "pwff.linear_outer.bias"] = layer.linear2.bias
        for k, norm in [("norm_1", layer.norm1), ("norm_2", layer.norm2)]:
            out[p + k + ".gamma"] = norm.weight
            out[p + k + ".beta"] = norm.bias
    return out


def encoder_grads(enc):
    out = {}
    for i, layer in enumerate(enc.layers):
        p = f"layers.{i}."
        out.update(attention_grads(p + "mha.", layer.self_attn))
        out[p + "pwff.linear_inner.weight"] = layer.linear1.weight.grad.t()
        out[p + "pwff.linear_inner.bias"] = layer.linear1.bias.grad
        out[p + "pwff.linear_outer.weight"] = layer.linear2.weight.grad.t()
        out[p + "pwff.linear_outer.bias"] = layer.linear2.bias.grad
        for k, norm in [("norm_1", layer.norm1), ("norm_2", layer.norm2)]:
            out[p + k + ".gamma"] = norm.weight.grad
            out[p + k + ".beta"] = norm.bias.grad
    return out


for norm_first in [False, True]:
    tag = "enc_pre" if norm_first else "enc_post"
    layer = nn.TransformerEncoderLayer(
        D, H, FF, dropout=0.0, activation="gelu", batch_first=True, norm_first=norm_first
    )
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    set_params(enc, 56)
    enc.train()
    xi = x.detach().clone().requires_grad_(True)
    y = enc(xi, src_key_padding_mask=pad)
    y.backward(g)
    record(w, f"{tag}_record", encoder_entries(enc))
    w.tensor(f"{tag}_y", y)
    w.tensor(f"{tag}_dx", xi.grad)
    record(w, f"{tag}_grads", encoder_grads(enc))


def decoder_entries(dec, grads=False):
    get = (lambda t: t.grad) if grads else (lambda t: t)
    attn = attention_grads if grads else attention_entries
    out = {}
    for i, layer in enumerate(dec.layers):
        p = f"layers.{i}."
        out.update(attn(p + "self_attn.", layer.self_attn))
        out.update(attn(p + "cross_attn.", layer.multihead_attn))
        out[p + "pwff.linear_inner.weight"] = get(layer.linear1.weight).t()
        out[p + "pwff.linear_inner.bias"] = get(layer.linear1.bias)
        out[p + "pwff.linear_outer.weight"] = get(layer.linear2.weight).t()
        out[p + "pwff.linear_outer.bias"] = get(layer.linear2.bias)
        for k, norm in [("norm_1", layer.norm1), ("norm_2", layer.norm2), ("norm_3", layer.norm3)]:
            out[p + k + ".gamma"] = get(norm.weight)
            out[p + k + ".beta"] = get(norm.bias)
    return out


target = rounded(2, 3, D, seed=57)
memory = rounded(2, 4, D, seed=58)
gt = rounded(2, 3, D, seed=59)
w.tensor("dec_target", target)
w.tensor("dec_memory", memory)
w.tensor("dec_g", gt)
tgt_mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
for norm_first in [False, True]:
    tag = "dec_pre" if norm_first else "dec_post"
    layer = nn.TransformerDecoderLayer(
        D, H, FF, dropout=0.0, activation="gelu", batch_first=True, norm_first=norm_first
    )
    dec = nn.TransformerDecoder(layer, 2)
    set_params(dec, 60)
    dec.train()
    t = target.clone().requires_grad_(True)
    m = memory.clone().requires_grad_(True)
    y = dec(t, m, tgt_mask=tgt_mask, memory_key_padding_mask=pad)
    y.backward(gt)
    record(w, f"{tag}_record", decoder_entries(dec))
    w.tensor(f"{tag}_y", y)
    w.tensor(f"{tag}_dtarget", t.grad)
    w.tensor(f"{tag}_dmemory", m.grad)
    record(w, f"{tag}_grads", decoder_entries(dec, grads=True))

w.save()
