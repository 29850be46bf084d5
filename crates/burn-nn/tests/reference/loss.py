"""Reference values for tests/loss.rs: each loss's value and the gradient
of its input(s), for the options the layer supports.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/loss.py
"""

import torch
import torch.nn.functional as F

from common import Writer, rounded

w = Writer("loss_data.rs", "loss.py")


def emit(name, loss, *inputs):
    loss.backward()
    w.tensor(f"{name}_loss", loss.reshape(1))
    for i, t in enumerate(inputs):
        w.tensor(f"{name}_d{i}", t.grad)
        t.grad = None


# ---- cross entropy: logits [5, 4], targets with a pad class 3 and a pad 0.
logits = rounded(5, 4, scale=2.0, seed=20)
targets = torch.tensor([1, 0, 3, 2, 1])
weights = torch.tensor([0.5, 2.0, 1.0, 1.5])
w.tensor("ce_logits", logits)
w.ints("ce_targets", targets)
w.tensor("ce_weights", weights)
x = logits.clone().requires_grad_(True)

emit("ce_plain", F.cross_entropy(x, targets), x)
emit("ce_weighted", F.cross_entropy(x, targets, weight=weights), x)
emit("ce_smooth", F.cross_entropy(x, targets, label_smoothing=0.2), x)
emit("ce_pad", F.cross_entropy(x, targets, ignore_index=3), x)
emit(
    "ce_all",
    F.cross_entropy(x, targets, weight=weights, label_smoothing=0.1, ignore_index=3),
    x,
)
# Two pad classes (Burn's pad_tokens): mask by hand, mean over the rest.
keep = (targets != 3) & (targets != 0)
emit("ce_two_pads", F.cross_entropy(x[keep], targets[keep]), x)
# Probabilities instead of logits.
probs = torch.softmax(logits, 1)
w.tensor("ce_probs", probs)
p = probs.clone().requires_grad_(True)
emit("ce_probs", F.nll_loss(torch.log(p), targets), p)

# ---- nll on log-probabilities, weighted, one ignored class.
logp = torch.log_softmax(logits, 1)
w.tensor("nll_logp", logp)
lp = logp.clone().requires_grad_(True)
emit("nll", F.nll_loss(lp, targets, weight=weights, ignore_index=0), lp)

# ---- binary cross entropy: [3, 4] multi-label.
bx = rounded(3, 4, scale=2.0, seed=21)
by = torch.tensor([[1, 0, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0]])
bw = torch.tensor([1.0, 0.5, 2.0, 1.5])
w.tensor("bce_logits", bx)
w.ints("bce_targets", by)
w.tensor("bce_weights", bw)
bp = torch.sigmoid(bx)
w.tensor("bce_probs", bp)
yf = by.to(torch.float64)
x = bx.clone().requires_grad_(True)
emit("bce_logits_plain", F.binary_cross_entropy_with_logits(x, yf), x)
emit("bce_logits_weighted", F.binary_cross_entropy_with_logits(x, yf, weight=bw), x)
emit("bce_logits_smooth", F.binary_cross_entropy_with_logits(x, yf * 0.8 + 0.1), x)
p = bp.clone().requires_grad_(True)
emit("bce_probs_plain", F.binary_cross_entropy(p, yf), p)
emit("bce_probs_weighted", F.binary_cross_entropy(p, yf, weight=bw), p)

# ---- regression: predictions and targets [2, 5].
pred = rounded(2, 5, scale=2.0, seed=22)
tgt = rounded(2, 5, scale=2.0, seed=23)
w.tensor("reg_pred", pred)
w.tensor("reg_target", tgt)
x = pred.clone().requires_grad_(True)
emit("mse_mean", F.mse_loss(x, tgt), x)
emit("mse_sum", F.mse_loss(x, tgt, reduction="sum"), x)
emit("huber", F.huber_loss(x, tgt, delta=1.3), x)
emit("huber_sum", F.huber_loss(x, tgt, delta=0.5, reduction="sum"), x)
emit("smooth_l1", F.smooth_l1_loss(x, tgt, beta=0.8), x)
emit("smooth_l1_zero", F.smooth_l1_loss(x, tgt, beta=0.0), x)

# ---- KL divergence: log-predictions [3, 4], targets a distribution with a zero.
kx = torch.log_softmax(rounded(3, 4, seed=24), 1)
kt = torch.softmax(rounded(3, 4, scale=2.0, seed=25), 1)
kt[1, 2] = 0.0
kt = kt / kt.sum(1, keepdim=True)
w.tensor("kl_logp", kx)
w.tensor("kl_target", kt)
w.tensor("kl_log_target", torch.log(kt.clamp_min(1e-30)))
x = kx.clone().requires_grad_(True)
emit("kl_batchmean", F.kl_div(x, kt, reduction="batchmean"), x)
emit("kl_mean", F.kl_div(x, kt, reduction="mean"), x)
klt = torch.log_softmax(rounded(3, 4, seed=26), 1)
w.tensor("kl_log_target2", klt)
emit("kl_log_target", F.kl_div(x, klt, reduction="sum", log_target=True), x)

# ---- cosine embedding: [4, 3] pairs, labels ±1.
c1 = rounded(4, 3, seed=27)
c2 = rounded(4, 3, seed=28)
cy = torch.tensor([1, -1, -1, 1])
w.tensor("cos_x1", c1)
w.tensor("cos_x2", c2)
w.ints("cos_y", cy)
a = c1.clone().requires_grad_(True)
b = c2.clone().requires_grad_(True)
emit("cos_mean", F.cosine_embedding_loss(a, b, cy, margin=-0.2), a, b)
emit("cos_sum", F.cosine_embedding_loss(a, b, cy, margin=0.1, reduction="sum"), a, b)

# ---- triplet margin: [4, 3].
ta = rounded(4, 3, seed=29)
tp = rounded(4, 3, seed=30)
tn = rounded(4, 3, seed=31)
w.tensor("tri_a", ta)
w.tensor("tri_p", tp)
w.tensor("tri_n", tn)
a, p_, n = (t.clone().requires_grad_(True) for t in (ta, tp, tn))
emit("tri_p2", F.triplet_margin_loss(a, p_, n, margin=1.5), a, p_, n)
emit("tri_p1_swap", F.triplet_margin_loss(a, p_, n, margin=1.0, p=1, swap=True, reduction="sum"), a, p_, n)
emit("tri_p3", F.triplet_margin_loss(a, p_, n, margin=2.0, p=3), a, p_, n)

w.save()
