"""Writes fft.json: NumPy reference values for the burn-signal tests.

Run from anywhere (NumPy >= 2):  python generate.py
The file is committed; the tests read it with include_str!, so no Python is
needed to run them. Inputs are recorded with the outputs, so the Rust side
transforms exactly the values NumPy saw. f32 cases store inputs already
rounded to f32; their references are computed in f64 from those values, so
the tests measure the f32 implementation's own error.
"""

import json
import os

import numpy as np

rng = np.random.default_rng(31)


def values(shape, dtype):
    x = rng.standard_normal(shape)
    return x.astype(np.float32).astype(np.float64) if dtype == "f32" else x


def flat(a):
    return [float(v) for v in np.asarray(a).ravel()]


def case(op, dtype, shape, dim, n, inputs, outputs):
    return {
        "op": op,
        "dtype": dtype,
        "shape": list(shape),
        "dim": dim,
        "n": n,
        "inputs": [flat(a) for a in inputs],
        "out_shape": list(np.asarray(outputs[0]).shape),
        "outputs": [flat(a) for a in outputs],
    }


cases = []
# (shape, dim, n): 1-D lengths across the three algorithms, padding,
# truncation, and batches along the first, a middle and the last dim.
layouts = [
    ((1,), 0, None),
    ((2,), 0, None),
    ((7,), 0, None),
    ((12,), 0, None),
    ((97,), 0, None),
    ((1000,), 0, None),
    ((1024,), 0, None),
    ((10,), 0, 16),  # pad
    ((10,), 0, 7),  # truncate
    ((12,), 0, 97),  # pad to a prime
    ((5, 4), 0, None),  # batched, dim 0
    ((2, 3, 7), -1, None),  # batched, last dim
    ((2, 9, 3), 1, 12),  # batched, middle dim, padded
]

for dtype in ["f64", "f32"]:
    for shape, dim, n in layouts:
        x = values(shape, dtype)
        f = np.fft.rfft(x, n=n, axis=dim)
        cases.append(case("rfft", dtype, shape, dim, n, [x], [f.real, f.imag]))

        if shape[0] >= 1000 and (shape[0] == 1024 or dtype == "f32"):
            continue  # long complex cases only once (f64, n = 1000): file size
        re, im = values(shape, dtype), values(shape, dtype)
        f = np.fft.fft(re + 1j * im, n=n, axis=dim)
        cases.append(case("cfft", dtype, shape, dim, n, [re, im], [f.real, f.imag]))
        f = np.fft.ifft(re + 1j * im, n=n, axis=dim)
        cases.append(case("ifft", dtype, shape, dim, n, [re, im], [f.real, f.imag]))

    # irfft: (bins shape, dim, n). Random (not Hermitian-consistent) imaginary
    # parts at DC and Nyquist check that they are ignored as NumPy ignores them.
    for shape, dim, n in [
        ((5,), 0, None),  # default n = 8
        ((5,), 0, 9),  # odd length
        ((5,), 0, 4),  # truncated spectrum
        ((5,), 0, 20),  # padded spectrum
        ((49,), 0, 97),  # prime length
        ((501,), 0, 1000),
        ((3, 4), 0, 7),  # batched, dim 0
        ((2, 3, 7), -1, None),  # batched, last dim
    ]:
        re, im = values(shape, dtype), values(shape, dtype)
        y = np.fft.irfft(re + 1j * im, n=n, axis=dim)
        cases.append(case("irfft", dtype, shape, dim, n, [re, im], [y]))

windows = []
for name, fn in [("hann", np.hanning), ("hamming", np.hamming), ("blackman", np.blackman)]:
    for size in [0, 1, 2, 5, 8, 11]:
        for periodic in [False, True]:
            # NumPy's windows are symmetric; periodic is the symmetric window
            # of size + 1 without its last point (PyTorch's definition).
            w = fn(size + 1)[:-1] if periodic and size > 1 else fn(size)
            windows.append({"name": name, "size": size, "periodic": periodic, "values": flat(w)})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fft.json")
with open(out, "w") as fh:
    json.dump({"numpy": np.__version__, "fft": cases, "windows": windows}, fh)
    fh.write("\n")
print(f"wrote {len(cases)} fft cases and {len(windows)} windows to {out}")

# STFT references from PyTorch (NumPy has no STFT): written only when torch
# is importable, to stft.json beside fft.json.
try:
    import torch
except ImportError:
    torch = None

if torch is not None:
    stft_cases = []
    # (batch, length, n_fft, hop, win_length, center, onesided, window)
    for batch, length, n_fft, hop, win, center, onesided, window in [
        (1, 100, 16, 4, None, True, True, "hann"),
        (2, 301, 32, 8, None, True, True, "hann"),  # length not a multiple of hop
        (3, 50, 12, 5, 8, True, True, "hamming"),  # n_fft not a power of two, short window
        (1, 97, 13, 3, None, False, True, "hann"),  # prime n_fft, no centring
        (2, 40, 8, 2, None, True, False, "none"),  # two-sided, rectangular
    ]:
        for dtype in ["f64", "f32"]:
            x = values((batch, length), dtype)
            w = None
            if window == "hann":
                w = torch.hann_window(win or n_fft, periodic=True, dtype=torch.float64)
            elif window == "hamming":
                w = torch.hamming_window(win or n_fft, periodic=True, dtype=torch.float64)
            s = torch.stft(
                torch.from_numpy(x),
                n_fft,
                hop_length=hop,
                win_length=win,
                window=w,
                center=center,
                pad_mode="reflect",
                onesided=onesided,
                return_complex=True,
            )
            # torch: [batch, freqs, frames] complex -> [batch, frames, freqs, 2]
            s = torch.view_as_real(s).permute(0, 2, 1, 3).numpy()
            stft_cases.append(
                {
                    "dtype": dtype,
                    "shape": [batch, length],
                    "n_fft": n_fft,
                    "hop": hop,
                    "win_length": win,
                    "center": center,
                    "onesided": onesided,
                    "window": None if w is None else flat(w.numpy()),
                    "input": flat(x),
                    "out_shape": list(s.shape),
                    "output": flat(s),
                }
            )
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stft.json")
    with open(out, "w") as fh:
        json.dump({"torch": torch.__version__, "stft": stft_cases}, fh)
        fh.write("\n")
    print(f"wrote {len(stft_cases)} stft cases to {out}")
