"""NumPy (OpenBLAS) timings on the sizes of examples/linalg_bench.rs.

Run:  OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 python benches/linalg_bench.py
(the thread limits are also set here, before NumPy loads). Medians of 11
runs after one warm-up; f64; solve with a vector right-hand side, reduced
QR (Q and R), lower Cholesky.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "2")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")

import time  # noqa: E402

import numpy as np  # noqa: E402

rng = np.random.default_rng(42)


def median_ms(f):
    f()
    ts = []
    for _ in range(11):
        s = time.perf_counter()
        f()
        ts.append((time.perf_counter() - s) * 1e3)
    return sorted(ts)[len(ts) // 2]


for batch, n in [(1, 512), (64, 64)]:
    a = rng.random((batch, n, n)) - 0.5
    b = rng.random((batch, n, 1)) - 0.5
    s = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    solve = median_ms(lambda: np.linalg.solve(a, b))
    qr = median_ms(lambda: np.linalg.qr(a))
    chol = median_ms(lambda: np.linalg.cholesky(s))
    print(f"{batch} x {n}x{n} f64: solve {solve:.3f} ms, qr {qr:.3f} ms, cholesky {chol:.3f} ms")
