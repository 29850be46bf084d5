"""Writes linalg.json: NumPy/SciPy values and PyTorch gradients for the
burn-linalg tests.

Run with NumPy, SciPy and PyTorch installed:  python generate.py
The file is committed; the tests read it with include_str!, so no Python is
needed to run them. Inputs are recorded with the outputs. f32 cases store
inputs already rounded to f32 and references computed in f64 from them, so
the tests measure the f32 implementation's own error.

Gradients: every case is a scalar loss L = Σ W ∘ f(A, ...) with a recorded
weight W; losses through sign-ambiguous factors (Q, U, V, eigenvectors)
use their squares, which do not depend on the signs.
"""

import json
import os

import numpy as np
import scipy.linalg as sla
import torch

rng = np.random.default_rng(7)
torch.set_default_dtype(torch.float64)


def flat(a):
    return [float(v) for v in np.asarray(a, dtype=np.float64).ravel()]


def arr(a):
    a = np.asarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "data": flat(a)}


def values(shape, dtype="f64"):
    x = rng.standard_normal(shape)
    return x.astype(np.float32).astype(np.float64) if dtype == "f32" else x


def spd(batch, n, dtype="f64"):
    x = rng.standard_normal(batch + (n, n))
    a = x @ np.swapaxes(x, -1, -2) + n * np.eye(n)
    return a.astype(np.float32).astype(np.float64) if dtype == "f32" else a


def sym(batch, n):
    x = rng.standard_normal(batch + (n, n))
    return (x + np.swapaxes(x, -1, -2)) / 2


out = {}

# --- norms (NumPy) ---------------------------------------------------------
x = values((3, 5))
out["norms"] = {
    "x": arr(x),
    "l0": arr(np.count_nonzero(np.where(np.abs(x) > 1.0, x, 0.0), axis=1, keepdims=True)),
    "x0": arr(np.where(np.abs(x) > 1.0, x, 0.0)),
    "l1": arr(np.sum(np.abs(x), axis=1, keepdims=True)),
    "l2": arr(np.sqrt(np.sum(x * x, axis=1, keepdims=True))),
    "linf": arr(np.max(np.abs(x), axis=1, keepdims=True)),
    "lneginf": arr(np.min(np.abs(x), axis=1, keepdims=True)),
    "l3": arr(np.sum(np.abs(x) ** 3, axis=1, keepdims=True) ** (1 / 3)),
    "l2_dim0": arr(np.sqrt(np.sum(x * x, axis=0, keepdims=True))),
    "l2_all": arr(np.sqrt(np.sum(x * x, keepdims=True))),
}
y = values((3, 5))
out["norms"]["y"] = arr(y)
out["norms"]["cos"] = arr(
    np.sum(x * y, axis=1, keepdims=True)
    / (np.linalg.norm(x, axis=1, keepdims=True) * np.linalg.norm(y, axis=1, keepdims=True))
)
m = values((2, 3, 4))
out["matrix_norms"] = {
    "a": arr(m),
    "fro": arr(np.linalg.norm(m, "fro", axis=(-2, -1))),
    "nuc": arr(np.linalg.norm(m, "nuc", axis=(-2, -1))),
    "spectral": arr(np.linalg.norm(m, 2, axis=(-2, -1))),
    "one": arr(np.linalg.norm(m, 1, axis=(-2, -1))),
    "inf": arr(np.linalg.norm(m, np.inf, axis=(-2, -1))),
}

# --- values (NumPy / SciPy) -----------------------------------------------
cases = []
for dtype in ["f64", "f32"]:
    for batch, n in [((), 1), ((), 5), ((3,), 4), ((2, 2), 3)]:
        a = values(batch + (n, n), dtype) + 0.5 * np.eye(n)
        b = values(batch + (n, 2), dtype)
        bv = values(batch + (n,), dtype)
        c = {"dtype": dtype, "a": arr(a), "b": arr(b), "bv": arr(bv)}
        c["det"] = arr(np.linalg.det(a))
        c["inv"] = arr(np.linalg.inv(a))
        c["solve"] = arr(np.linalg.solve(a, b))
        c["solve_v"] = arr(np.linalg.solve(a, bv[..., None])[..., 0])
        s = spd(batch, n, dtype)
        c["spd"] = arr(s)
        c["chol"] = arr(np.linalg.cholesky(s))
        h = sym(batch, n)
        c["sym"] = arr(h)
        c["eigvals"] = arr(np.linalg.eigvalsh(h))
        if batch == ():
            p, l, u = sla.lu(a)
            c["lu"] = {"p": arr(p), "l": arr(l), "u": arr(u)}
        cases.append(c)
out["square"] = cases

rect = []
for dtype in ["f64", "f32"]:
    for batch, m_, n_ in [((), 6, 3), ((2,), 3, 5), ((), 4, 4)]:
        a = values(batch + (m_, n_), dtype)
        b = values(batch + (m_, 2), dtype)
        x = np.linalg.pinv(a) @ b
        rect.append(
            {
                "dtype": dtype,
                "a": arr(a),
                "b": arr(b),
                "lstsq": arr(x),
                "sv": arr(np.linalg.svd(a, compute_uv=False)),
            }
        )
out["rect"] = rect

# Broadcast solve: A [2, 1, 3, 3] against B [1, 4, 3, 2].
a = values((2, 1, 3, 3)) + np.eye(3)
b = values((1, 4, 3, 2))
out["broadcast"] = {"a": arr(a), "b": arr(b), "x": arr(np.linalg.solve(a, b))}

# --- kind-generic functions on int tensors (NumPy) -------------------------
# A separate generator, so the streams above (and their recorded values)
# do not move when cases are added here.
rng_k = np.random.default_rng(23)
xi = rng_k.integers(-2, 3, (3, 5))
lhs = rng_k.integers(-3, 4, (2, 3, 4))
rhs = rng_k.integers(-3, 4, (1, 5, 4))
mi = rng_k.integers(-3, 4, (2, 3, 4))
vi = rng_k.integers(-3, 4, (2, 4))
out["int"] = {
    "x": arr(xi),
    "l0": arr(np.count_nonzero(xi, axis=1, keepdims=True)),
    "l1": arr(np.sum(np.abs(xi), axis=1, keepdims=True)),
    "l1_all": arr(np.sum(np.abs(xi), axis=(0, 1), keepdims=True)),
    "linf": arr(np.max(np.abs(xi), axis=1, keepdims=True)),
    "lneginf": arr(np.min(np.abs(xi), axis=0, keepdims=True)),
    # outer_dim along dim 1 (also -2), rhs's batch dim 1 broadcast.
    "lhs": arr(lhs),
    "rhs": arr(rhs),
    "outer_dim1": arr(np.einsum("aib,ajb->aijb", lhs, np.broadcast_to(rhs, (2, 5, 4)))),
    # outer over the last dim of lhs[:, :, 0] [2, 3] and rhs[0, :, :2].T [2, 5].
    "outer_last": arr(np.einsum("ai,aj->aij", lhs[:, :, 0], rhs[0, :, :2].T)),
    "m": arr(mi),
    "v": arr(vi),
    "matvec": arr(np.einsum("aij,aj->ai", mi, vi)),
    "diag": arr(np.diagonal(mi, axis1=-2, axis2=-1)),
}

# --- solve with B of another rank (NumPy broadcasting) ---------------------
rng_s = np.random.default_rng(29)
a3 = rng_s.standard_normal((2, 3, 3)) + 2 * np.eye(3)
bm = rng_s.standard_normal((3, 2))
bv = rng_s.standard_normal((3,))
a2 = rng_s.standard_normal((3, 3)) + 2 * np.eye(3)
b4 = rng_s.standard_normal((2, 4, 3, 2))
sq = rng_s.standard_normal((3, 3, 3)) + 2 * np.eye(3)
sb = rng_s.standard_normal((3, 3))
out["solve_ranks"] = {
    "a3": arr(a3),
    "bm": arr(bm),
    "bv": arr(bv),
    # <3, 2, 3>: one matrix B for every A.
    "x_matrix": arr(np.linalg.solve(a3, bm)),
    # <3, 1, 2>: one vector B for every A.
    "x_vector": arr(np.linalg.solve(a3, np.broadcast_to(bv[:, None], (2, 3, 1)))[..., 0]),
    "a2": arr(a2),
    "b4": arr(b4),
    # <2, 4, 4>: B of higher rank than A.
    "x_high": arr(np.linalg.solve(a2, b4)),
    # A [3, 3, 3], B [3, 3]: both forms fit; DO picks.
    "sq": arr(sq),
    "sb": arr(sb),
    "x_batch_of_vectors": arr(np.stack([np.linalg.solve(sq[i], sb[i]) for i in range(3)])),
    "x_one_matrix": arr(np.linalg.solve(sq, sb)),
}

# --- gradients (PyTorch autograd, f64) ------------------------------------
grads = {}


def leaf(a):
    return torch.tensor(a, requires_grad=True)


def weight(shape):
    return rng.standard_normal(shape)


def record(name, inputs, outputs_fn):
    ts = [leaf(v) for v in inputs]
    outs = outputs_fn(*ts)
    ws = [weight(tuple(o.shape)) for o in outs]
    loss = sum((torch.tensor(w) * o).sum() for w, o in zip(ws, outs))
    loss.backward()
    grads[name] = {
        "inputs": [arr(v) for v in inputs],
        "weights": [arr(w) for w in ws],
        "loss": float(loss),
        "grads": [arr(t.grad.numpy()) for t in ts],
    }


n = 4
a = values((2, n, n)) + np.eye(n)
b = values((2, n, 3))
record("solve", [a, b], lambda a, b: [torch.linalg.solve(a, b)])
record("solve_vector", [a, b[..., 0]], lambda a, b: [torch.linalg.solve(a, b)])
record("inverse", [a], lambda a: [torch.linalg.inv(a)])
record("det", [a], lambda a: [torch.linalg.det(a)])
record("lu", [a], lambda a: list(torch.linalg.lu(a)[1:]))
record("cholesky", [spd((2,), n)], lambda a: [torch.linalg.cholesky(a)])
record("cholesky_upper", [spd((2,), n)], lambda a: [torch.linalg.cholesky(a, upper=True)])
record("qr_square", [a], lambda a: [torch.linalg.qr(a)[0] ** 2, torch.linalg.qr(a)[1] ** 2])
record(
    "qr_tall",
    [values((2, 5, 3))],
    lambda a: [torch.linalg.qr(a)[0] ** 2, torch.linalg.qr(a)[1] ** 2],
)


def svd_parts(a):
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    return [u**2, s, vh**2]


record("svd_tall", [values((2, 5, 3))], svd_parts)
record("svd_wide", [values((2, 3, 5))], svd_parts)
record("svdvals", [values((2, 4, 3))], lambda a: [torch.linalg.svdvals(a)])


def eigh_parts(a):
    l, v = torch.linalg.eigh(a)
    return [l, v**2]


record("eigh", [sym((2,), n)], eigh_parts)
record("lstsq_tall", [values((2, 6, 3)), values((2, 6, 2))], lambda a, b: [torch.linalg.pinv(a) @ b])
record("lstsq_wide", [values((2, 3, 5)), values((2, 3, 2))], lambda a, b: [torch.linalg.pinv(a) @ b])
record("nuclear", [values((2, 4, 3))], lambda a: [torch.linalg.matrix_norm(a, "nuc")])
record("spectral", [values((2, 4, 3))], lambda a: [torch.linalg.matrix_norm(a, 2)])
out["grads"] = grads

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linalg.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
print(path, os.path.getsize(path), "bytes")
