"""Reference values for the quantization codec of burn-std, from NumPy.

Run: python3 crates/burn-std/tests/quantization/generate.py
Writes reference.json beside this file. The math is written out here
independently of the Rust code, following the layout and rules documented
in crates/burn-std/src/quantization/codec.rs: symmetric scales fitted to the
block's largest magnitude, round half to even, minifloats by nearest value
(ties to an even code), values packed lowest bits first, scales after the
values, each region padded to 4 bytes.
"""
import json
import os

import numpy as np

INT_RANGE = {"Q8F": (-128, 127), "Q8S": (-127, 127), "Q4F": (-8, 7), "Q4S": (-7, 7),
             "Q2F": (-2, 1), "Q2S": (-1, 1)}
BITS = {"Q8F": 8, "Q8S": 8, "E4M3": 8, "E5M2": 8, "Q4F": 4, "Q4S": 4, "E2M1": 4,
        "Q2F": 2, "Q2S": 2}


def minifloat_table(exp_bits, man_bits, bias, specials):
    """Values of all magnitude codes, None for NaN/inf codes."""
    out = []
    for code in range(1 << (exp_bits + man_bits)):
        e = code >> man_bits
        m = code & ((1 << man_bits) - 1)
        if specials == "ieee" and e == (1 << exp_bits) - 1:
            out.append(None)
            continue
        if specials == "fn" and e == (1 << exp_bits) - 1 and m == (1 << man_bits) - 1:
            out.append(None)
            continue
        if e == 0:
            v = m * 2.0 ** (1 - bias - man_bits)
        else:
            v = (1 + m / 2 ** man_bits) * 2.0 ** (e - bias)
        out.append(v)
    return out


FORMATS = {
    "E4M3": (4, 3, 7, "fn"),
    "E5M2": (5, 2, 15, "ieee"),
    "E2M1": (2, 1, 1, None),
}
TABLES = {k: minifloat_table(*v) for k, v in FORMATS.items()}
MAXES = {k: max(v for v in t if v is not None) for k, t in TABLES.items()}


def mf_encode(name, x):
    exp_bits, man_bits, _, _ = FORMATS[name]
    table = TABLES[name]
    sign = (1 << (exp_bits + man_bits)) if np.signbit(x) else 0
    a = abs(float(x))
    best, best_d = None, None
    for code, v in enumerate(table):
        if v is None:
            continue
        d = abs(v - a)
        if best is None or d < best_d or (d == best_d and code % 2 == 0 and best % 2 == 1):
            best, best_d = code, d
    if a >= MAXES[name]:
        best = table.index(MAXES[name])
    return sign | best


def mf_decode(name, code):
    exp_bits, man_bits, _, _ = FORMATS[name]
    sign = -1.0 if (code >> (exp_bits + man_bits)) & 1 else 1.0
    return sign * TABLES[name][code & ((1 << (exp_bits + man_bits)) - 1)]


def store_scale(dtype, s):
    """(bytes, value read back)."""
    if dtype == "F32":
        v = np.float32(s)
        return v.tobytes(), float(v)
    if dtype == "F16":
        v = np.float16(s)
        return v.tobytes(), float(v)
    if dtype == "UE8M0":
        s = float(np.float32(s))
        m, e = np.frexp(s)  # s = m * 2^e, m in [0.5, 1)
        k = e - 1 if m == 0.5 else e
        k = max(-127, min(127, k))
        return bytes([k + 127]), float(np.float32(2.0 ** k))
    if dtype == "UE4M3":
        table = TABLES["E4M3"]
        for code, v in enumerate(table):
            if v is not None and v >= s:
                return bytes([code]), v
        return bytes([0x7E]), 448.0
    raise ValueError(dtype)


def pad4(b):
    return b + bytes((-len(b)) % 4)


def block_ids(shape, block):
    shape = list(shape)
    ext = [1] * (len(shape) - len(block)) + list(block)
    grid = [-(-d // b) for d, b in zip(shape, ext)]
    ids = np.zeros(shape, dtype=np.int64)
    for idx in np.ndindex(*shape):
        g = [i // b for i, b in zip(idx, ext)]
        ids[idx] = np.ravel_multi_index(g, grid)
    return ids.reshape(-1), int(np.prod(grid))


def quantize(values, shape, value, store, block, block_dtype, tensor_dtype):
    x = np.asarray(values, dtype=np.float32)
    if block is None:
        ids, nb = np.zeros(x.size, dtype=np.int64), 1
    else:
        ids, nb = block_ids(shape, block)
    hi = INT_RANGE[value][1] if value in INT_RANGE else MAXES[value]
    amax = np.zeros(nb, dtype=np.float32)
    for i, b in enumerate(ids):
        amax[b] = max(amax[b], abs(x[i]))
    scales = (amax / np.float32(hi)).astype(np.float32)
    two_level = block is not None and tensor_dtype is not None
    scale_dtype = block_dtype if block is not None else (tensor_dtype or "F32")
    global_bytes, gval = b"", 1.0
    if two_level:
        headroom = {"UE4M3": 448.0, "F16": 65504.0}.get(block_dtype, 1.0)
        g = np.float32(scales.max() / np.float32(headroom))
        if not (np.isfinite(g) and g > 0):
            g = np.float32(1.0)
        scales = (scales / g).astype(np.float32)
        global_bytes, gval = store_scale(tensor_dtype, g)
    scale_bytes = b""
    eff = []
    for s in scales:
        sb, sv = store_scale(scale_dtype, float(s))
        scale_bytes += sb
        eff.append(np.float32(np.float32(sv) * np.float32(gval)))
    bits = BITS[value]
    codes = []
    for i, b in enumerate(ids):
        inv = np.float32(1.0) / eff[b] if eff[b] > 0 else np.float32(0.0)
        v = np.float32(x[i] * inv)
        if value in INT_RANGE:
            lo, hi_ = INT_RANGE[value]
            q = int(np.clip(np.rint(v), lo, hi_))
            # Native: the whole i8; packed: the low `bits`.
            codes.append(q & 0xFF if store == "Native" else q & ((1 << bits) - 1))
        else:
            codes.append(mf_encode(value, v))
    if store == "Native":
        vb = bytes(codes)
    else:
        per_byte = 8 // bits
        vb = bytearray(-(-len(codes) // per_byte))
        for i, c in enumerate(codes):
            vb[i // per_byte] |= c << ((i % per_byte) * bits)
        if store == "PackedU32":
            words = -(-len(codes) // (32 // bits))
            vb = bytes(vb) + bytes(words * 4 - len(vb))
        vb = bytes(vb)
    out = pad4(vb) + pad4(scale_bytes) + (pad4(global_bytes) if two_level else b"")
    deq = []
    for i, b in enumerate(ids):
        c = codes[i]
        if value in INT_RANGE:
            c &= (1 << bits) - 1
            q = c - (1 << bits) if c >= (1 << (bits - 1)) else c
            deq.append(float(np.float32(np.float32(q) * eff[b])))
        else:
            deq.append(float(np.float32(np.float32(mf_decode(value, c)) * eff[b])))
    return out.hex(), deq


def main():
    rng = np.random.default_rng(27)
    cases = []
    specs = [
        ("Q8S", "Native", None, None, "F32", [4, 8]),
        ("Q8F", "PackedU32", [8], "F32", None, [3, 16]),
        ("Q4S", "PackedU32", [32], "F16", None, [2, 64]),
        ("Q4F", "Native", [2, 4], "F32", None, [4, 8]),
        ("Q2S", "PackedU32", [16], "F32", None, [2, 32]),
        ("Q2F", "Native", None, None, "F32", [5, 7]),
        ("E4M3", "Native", [16], "F32", None, [2, 32]),
        ("E5M2", "Native", None, None, "F32", [3, 10]),
        ("E2M1", "PackedNative", [16], "UE4M3", "F32", [2, 32]),
        ("E2M1", "PackedU32", [32], "UE8M0", None, [1, 64]),
        ("Q8S", "Native", [8], "UE8M0", "F32", [2, 16]),
    ]
    for value, store, block, block_dtype, tensor_dtype, shape in specs:
        n = int(np.prod(shape))
        x = (rng.standard_normal(n) * rng.choice([0.01, 1.0, 30.0], n)).astype(np.float32)
        x[0] = 0.0
        hexbytes, deq = quantize(x, shape, value, store, block, block_dtype, tensor_dtype)
        cases.append({
            "value": value, "store": store, "block": block, "block_dtype": block_dtype,
            "tensor_dtype": tensor_dtype, "shape": shape,
            "input": [float(v) for v in x], "bytes": hexbytes, "dequantized": deq,
        })
    path = os.path.join(os.path.dirname(__file__), "reference.json")
    with open(path, "w") as f:
        json.dump({"generator": "generate.py", "cases": cases}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
