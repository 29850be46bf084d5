"""NumPy and PyTorch rfft on the lengths of examples/fft_bench.rs.

Run:  ~/torch/bin/python crates/burn-signal/benches/fft_bench.py
(PyTorch limited to 2 threads; NumPy's pocketfft is single-threaded.)
Medians of 11 runs after one warm-up, f32 input.
"""

import time

import numpy as np
import torch

torch.set_num_threads(2)


def median_ms(f):
    f()
    ts = []
    for _ in range(11):
        s = time.perf_counter()
        f()
        ts.append((time.perf_counter() - s) * 1e3)
    return sorted(ts)[len(ts) // 2]


for n in [1 << 20, 1_000_003]:
    x = np.sin(np.arange(n, dtype=np.float32) * np.float32(0.013))
    t = torch.from_numpy(x)
    print(f"numpy.fft.rfft f32 n = {n}: {median_ms(lambda: np.fft.rfft(x)):.2f} ms")
    print(f"torch.fft.rfft f32 n = {n}: {median_ms(lambda: torch.fft.rfft(t)):.2f} ms")
