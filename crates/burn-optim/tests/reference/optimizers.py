"""Reference trajectories for the optimizer tests (tests/optimizers.rs).

Run with PyTorch (CPU): `python optimizers.py`. It prints, for each case, the
parameter after each of STEPS updates, as Rust arrays to paste into the
tests. Parameter and gradients are fixed data: the gradient of step k is
    g_k[i] = sin(0.7 * i + 1.3 * k) * (1 + 0.25 * k)     (i: flat index)
computed in float64 and rounded to float32, as the Rust test does.

SGD, Adam, AdamW, Adagrad and RMSprop use torch.optim. Lion, Adan and Muon
have no torch.optim class: their update rules below are written here (torch
code by the authors of this crate) from the papers' published algorithms,
cited at each function. Burn's `MomentumConfig` allows a dampening with
Nesterov momentum and in Muon, which torch.optim refuses (SGD) or lacks
(Muon): those cases apply torch.optim.SGD's momentum buffer rule by hand.
"""

import math

import torch

torch.set_default_dtype(torch.float32)

STEPS = 5
LR = 0.1
P0 = [[0.5, -1.0, 1.5], [2.0, -0.3, 0.8]]


def grad(k, shape):
    n = shape[0] * shape[1]
    values = [math.sin(0.7 * i + 1.3 * k) * (1 + 0.25 * k) for i in range(n)]
    return torch.tensor(values, dtype=torch.float64).to(torch.float32).reshape(shape)


def run_torch(make):
    p = torch.tensor(P0, requires_grad=True)
    opt = make([p])
    out = []
    for k in range(STEPS):
        opt.zero_grad()
        p.grad = grad(k, p.shape)
        opt.step()
        out.append(p.detach().clone())
    return out


def run_manual(update):
    """`update(p, g, state, k)` returns the new p (float32 tensors)."""
    p = torch.tensor(P0)
    state = {}
    out = []
    for k in range(STEPS):
        p = update(p, grad(k, p.shape), state, k)
        out.append(p.clone())
    return out


def lion(lr, beta1=0.9, beta2=0.99, wd=0.0):
    """Lion, Chen et al. 2023, "Symbolic Discovery of Optimization
    Algorithms", Algorithm 2 (decoupled weight decay)."""

    def update(p, g, state, k):
        m = state.get("m", torch.zeros_like(p))
        c = beta1 * m + (1 - beta1) * g
        p = p * (1 - lr * wd) - lr * torch.sign(c)
        state["m"] = beta2 * m + (1 - beta2) * g
        return p

    return update


def adan(lr, beta1=0.02, beta2=0.08, beta3=0.01, eps=1e-8, wd=0.0):
    """Adan, Xie et al. 2022, "Adan: Adaptive Nesterov Momentum Algorithm",
    Algorithm 1, betas in the paper's convention (weights of the new term),
    initialised as the paper says: m0 = g0, v0 = 0, n0 = g0^2 (the first
    step has no previous gradient, so its difference term is zero)."""

    def update(p, g, state, k):
        if k == 0:
            m, v, n = g.clone(), torch.zeros_like(g), g * g
        else:
            diff = g - state["g"]
            m = (1 - beta1) * state["m"] + beta1 * g
            v = (1 - beta2) * state["v"] + beta2 * diff
            n = (1 - beta3) * state["n"] + beta3 * (g + (1 - beta2) * diff) ** 2
        state.update(m=m, v=v, n=n, g=g)
        eta = lr / (torch.sqrt(n) + eps)
        return (p - eta * (m + (1 - beta2) * v)) / (1 + wd * lr)

    return update


def newton_schulz(g, steps=5, eps=1e-7):
    """The quintic Newton-Schulz iteration of Muon (Jordan et al. 2024,
    "Muon: An optimizer for hidden layers in neural networks"), in float32."""
    a, b, c = 3.4445, -4.7750, 2.0315
    x = g / (torch.linalg.norm(g) + eps)
    transposed = x.shape[0] > x.shape[1]
    if transposed:
        x = x.T
    for _ in range(steps):
        s = x @ x.T
        bb = b * s + c * s @ s
        x = a * x + bb @ x
    if transposed:
        x = x.T
    return x


def momentum_buffer(state, g, momentum, dampening):
    """torch.optim.SGD's buffer: g on the first step, then
    momentum * buf + (1 - dampening) * g."""
    buf = state.get("buf")
    buf = g.clone() if buf is None else momentum * buf + (1 - dampening) * g
    state["buf"] = buf
    return buf


def sgd_dampened_nesterov(lr, momentum, dampening, wd):
    """SGD with Nesterov momentum and a dampening (torch.optim.SGD's rule,
    which it only accepts with zero dampening)."""

    def update(p, g, state, k):
        g = g + wd * p
        buf = momentum_buffer(state, g, momentum, dampening)
        return p - lr * (g + momentum * buf)

    return update


def muon(lr, momentum=0.95, nesterov=True, wd=0.0, dampening=0.0):
    """Muon as published by Jordan et al. 2024: SGD momentum (Nesterov),
    orthogonalised by Newton-Schulz, scaled by sqrt(max(1, rows/cols)),
    with decoupled weight decay; the momentum buffer may be dampened as in
    torch.optim.SGD (zero in the paper)."""

    def update(p, g, state, k):
        buf = momentum_buffer(state, g, momentum, dampening)
        d = g + momentum * buf if nesterov else buf
        o = newton_schulz(d)
        scale = max(1.0, p.shape[0] / p.shape[1]) ** 0.5
        return p * (1 - lr * wd) - lr * scale * o

    return update


CASES = {
    "SGD_PLAIN": lambda: run_torch(lambda ps: torch.optim.SGD(ps, lr=LR)),
    "SGD_MOMENTUM": lambda: run_torch(
        lambda ps: torch.optim.SGD(ps, lr=LR, momentum=0.9, dampening=0.1, weight_decay=0.05)
    ),
    "SGD_NESTEROV": lambda: run_torch(
        lambda ps: torch.optim.SGD(ps, lr=LR, momentum=0.8, nesterov=True, weight_decay=0.01)
    ),
    "ADAM": lambda: run_torch(lambda ps: torch.optim.Adam(ps, lr=LR, betas=(0.9, 0.99), eps=1e-3)),
    "ADAM_WD": lambda: run_torch(lambda ps: torch.optim.Adam(ps, lr=LR, weight_decay=0.1)),
    "ADAMW": lambda: run_torch(
        lambda ps: torch.optim.AdamW(ps, lr=LR, betas=(0.8, 0.95), eps=1e-3, weight_decay=0.2)
    ),
    "ADAGRAD": lambda: run_torch(
        lambda ps: torch.optim.Adagrad(ps, lr=LR, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.2)
    ),
    "RMSPROP": lambda: run_torch(lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, weight_decay=0.05)),
    "RMSPROP_CENTERED": lambda: run_torch(
        lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, centered=True, momentum=0.5)
    ),
    "LION": lambda: run_manual(lion(LR, wd=0.1)),
    "ADAN": lambda: run_manual(adan(LR, wd=0.05)),
    "MUON": lambda: run_manual(muon(LR, wd=0.1)),
    "MUON_DAMPENED": lambda: run_manual(muon(LR, momentum=0.9, nesterov=False, dampening=0.3)),
    "SGD_NESTEROV_DAMPENED": lambda: run_manual(sgd_dampened_nesterov(LR, 0.8, 0.1, 0.01)),
}


def rust(name, traj):
    print(f"const {name}: [[[f32; 3]; 2]; {len(traj)}] = [")
    for p in traj:
        rows = ", ".join("[" + ", ".join(f"{v:.8e}" for v in row) + "]" for row in p.tolist())
        print(f"    [{rows}],")
    print("];")


if __name__ == "__main__":
    import sys

    # `python optimizers.py NAME...` prints only those cases.
    wanted = sys.argv[1:] or list(CASES)
    print(f"// torch {torch.__version__}")
    for name in wanted:
        rust(name, CASES[name]())
