"""Reference values for the shape and indexing tests of burn-flex.

Covers tests/{shape,slice,cat,gather_scatter,select,mask,tril}.rs. Plain
Python (no numpy/torch needed): each op is written naively over nested lists
with the PyTorch / Burn semantics, and `python3 shape_index.py` prints the
expected values used by the fixed-value tests, test by test.

Slice semantics follow burn_std::Slice: a negative step walks the resolved
range start..end backwards from end - 1 (so 0..5 step -2 gives 4, 2, 0).
"""

import itertools
import struct


# ------------------------------------------------------------ nested lists

def shape_of(x):
    s = []
    while isinstance(x, list):
        s.append(len(x))
        x = x[0] if x else None
    return s


def flat(x):
    if not isinstance(x, list):
        return [x]
    return [v for e in x for v in flat(e)]


def build(shape, f, prefix=()):
    if not shape:
        return f(prefix)
    return [build(shape[1:], f, prefix + (i,)) for i in range(shape[0])]


def at(x, idx):
    for i in idx:
        x = x[i]
    return x


def arange(shape, start=0):
    n = 1
    for d in shape:
        n *= d
    vals = list(range(start, start + n))
    return build(shape, lambda p: vals[sum(i * s for i, s in zip(p, strides(shape)))])


def strides(shape):
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return list(reversed(out))


# --------------------------------------------------------------- shape ops

def permute(x, axes):
    s = shape_of(x)
    out_shape = [s[a] for a in axes]

    def f(p):
        src = [0] * len(s)
        for o, a in enumerate(axes):
            src[a] = p[o]
        return at(x, src)
    return build(out_shape, f)


def flip(x, axes):
    s = shape_of(x)
    return build(s, lambda p: at(x, [s[d] - 1 - i if d in axes else i for d, i in enumerate(p)]))


def expand(x, shape):
    s = shape_of(x)
    extra = len(shape) - len(s)
    return build(shape, lambda p: at(x, [0 if s[d] == 1 else p[d + extra] for d in range(len(s))]))


def slice_indices(size, start, end, step):
    start = start + size if start < 0 else start
    end = size if end is None else (end + size if end < 0 else end)
    n = -(-(end - start) // abs(step))
    return [start + i * step if step > 0 else end - 1 - i * abs(step) for i in range(n)]


def slice_(x, slices):
    s = shape_of(x)
    picks = [slice_indices(s[d], *slices[d]) if d < len(slices) else list(range(s[d])) for d in range(len(s))]
    return build([len(p) for p in picks], lambda p: at(x, [picks[d][i] for d, i in enumerate(p)]))


def slice_assign(x, slices, value):
    s = shape_of(x)
    picks = [slice_indices(s[d], *slices[d]) if d < len(slices) else list(range(s[d])) for d in range(len(s))]
    out = [v for v in flat(x)]
    st = strides(s)
    for p in itertools.product(*[range(len(k)) for k in picks]):
        dst = sum(picks[d][i] * st[d] for d, i in enumerate(p))
        out[dst] = at(value, p)
    return out


def reshape(x, shape):
    vals = flat(x)
    return build(shape, lambda p: vals[sum(i * s for i, s in zip(p, strides(shape)))])


def cat(xs, dim):
    shapes = [shape_of(x) for x in xs]
    out_shape = list(shapes[0])
    out_shape[dim] = sum(s[dim] for s in shapes)

    def f(p):
        i = p[dim]
        for x, s in zip(xs, shapes):
            if i < s[dim]:
                return at(x, p[:dim] + (i,) + p[dim + 1:])
            i -= s[dim]
    return build(out_shape, f)


def repeat_dim(x, dim, times):
    return cat([x] * times, dim) if times else build([0 if d == dim else n for d, n in enumerate(shape_of(x))], None)


# --------------------------------------------------------------- indexing

def gather(dim, x, idx):
    return build(shape_of(idx), lambda p: at(x, p[:dim] + (at(idx, p),) + p[dim + 1:]))


def scatter_add(dim, x, idx, value, wrap=None):
    out = [v for v in flat(x)]
    st = strides(shape_of(x))
    for p in itertools.product(*[range(n) for n in shape_of(idx)]):
        dst = list(p)
        dst[dim] = at(idx, p)
        k = sum(i * s for i, s in zip(dst, st))
        out[k] = out[k] + at(value, p)
        if wrap:
            out[k] = wrap(out[k])
    return out


def index_select(x, dim, idx):
    s = list(shape_of(x))
    s[dim] = len(idx)
    return build(s, lambda p: at(x, p[:dim] + (idx[p[dim]],) + p[dim + 1:]))


def index_add(x, dim, idx, value, wrap=None):
    out = [v for v in flat(x)]
    st = strides(shape_of(x))
    for p in itertools.product(*[range(n) for n in shape_of(value)]):
        dst = list(p)
        dst[dim] = idx[p[dim]]
        k = sum(i * s for i, s in zip(dst, st))
        out[k] = out[k] + at(value, p)
        if wrap:
            out[k] = wrap(out[k])
    return out


def broadcast_shapes(*shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for d in range(rank):
        sizes = {s[d - rank + len(s)] if d - rank + len(s) >= 0 else 1 for s in shapes}
        sizes.discard(1)
        assert len(sizes) <= 1, shapes
        out.append(sizes.pop() if sizes else 1)
    return out


def where(mask, value, x):
    shape = broadcast_shapes(shape_of(mask), shape_of(value), shape_of(x))
    m, v, t = (expand(a, shape) for a in (mask, value, x))
    return build(shape, lambda p: at(v, p) if at(m, p) else at(t, p))


def argwhere(x):
    s = shape_of(x)
    return [list(p) for p in itertools.product(*[range(n) for n in s]) if at(x, p)]


def tril(x, diagonal, lower=True):
    s = shape_of(x)
    keep = (lambda r, c: c - r <= diagonal) if lower else (lambda r, c: c - r >= diagonal)
    return build(s, lambda p: at(x, p) if keep(p[-2], p[-1]) else 0)


def wrap_int(bits, signed):
    def f(v):
        v &= (1 << bits) - 1
        return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v
    return f


def f16_round(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


def bf16_round(v):
    # Round-to-nearest-even on the top 16 bits of the f32 pattern.
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# ------------------------------------------------------------------ values

def show(name, value):
    print(f"{name}: {flat(value) if isinstance(value, list) else value}")


T, F = True, False

# shape.rs
show("reshape_contiguous_then_permute", permute(reshape(arange([2, 3]), [3, 2]), [1, 0]))
show("reshape_of_permuted", reshape(permute(arange([2, 3]), [1, 0]), [6]))
show("reshape_of_flipped_step_slice", flip(slice_(arange([8]), [(0, None, 3)]), [0]))
show("flip [1]", flip(arange([2, 3]), [1]))
show("flip [0, 1]", flip(arange([2, 3]), [0, 1]))
show("flip_of_step_slice_of_permuted", flip(slice_(permute(arange([3, 4]), [1, 0]), [(0, None, 2)]), [0, 1]))
show("expand_new_leading_dim", expand([[1.0], [2.0]], [2, 2, 3]))
show("expand_then_slice", slice_(expand(arange([3]), [4, 3]), [(1, None, 2), (0, None, -1)]))
show("repeat dim 0", repeat_dim(arange([2, 3]), 0, 2))
show("repeat dim 1", repeat_dim(arange([2, 3]), 1, 2))
show("repeat_dim_of_permuted_middle_dim", repeat_dim(reshape(permute(arange([2, 3]), [1, 0]), [3, 1, 2]), 1, 3))
src = reshape([5, 0, 7, 9, 0, 2], [2, 3])
show("every dtype: permute+flip+reshape", flip(permute(src, [1, 0]), [0]))
show("every dtype: expand+repeat", repeat_dim(expand(slice_(src, [(0, None, 1), (2, 3, 1)]), [2, 2]), 0, 2))

# slice.rs
show("slice ranges", slice_(arange([3, 4]), [(1, 3, 1), (0, 2, 1)]))
show("slice negative bounds", slice_(arange([3, 4]), [(-1, None, 1), (-3, -1, 1)]))
show("slice 1.. step 2", slice_(arange([7]), [(1, None, 2)]))
show("slice 0..5 step -2", slice_(arange([7]), [(0, 5, -2)]))
show("slice 1..6 step -3", slice_(arange([7]), [(1, 6, -3)]))
show("slice 2d steps", slice_(arange([4, 5]), [(0, None, -2), (0, None, 3)]))
show("slice_of_permuted", slice_(permute(arange([3, 4]), [1, 0]), [(1, 3, 1), (1, None, 1)]))
show("slice_of_slice", slice_(slice_(arange([10]), [(0, None, 2)]), [(1, None, -2)]))
show("slice_assign_rows_with_step", slice_assign(arange([3, 4]), [(0, None, 2), (1, 3, 1)], [[100, 101], [102, 103]]))
show("slice_assign_negative_step", slice_assign(arange([5]), [(0, None, -2)], [10, 20, 30]))
show("slice_assign_into_permuted", slice_assign(permute(arange([2, 3]), [1, 0]), [(1, 3, 1), (0, 1, 1)], [[7], [8]]))
value = permute(flip([[1, 2], [3, 4]], [1]), [1, 0])
show("slice_assign_strided_value", slice_assign(build([2, 3], lambda p: 0), [(0, None, 1), (0, 3, -2)], value))
show("slice_assign every dtype", slice_assign(reshape([1, 0, 3, 4, 0, 6], [2, 3]), [(0, None, -1), (1, 2, 1)], [[9], [0]]))

# cat.rs
show("cat dim 1", cat([[[1, 2], [3, 4]], [[7, 8, 9], [10, 11, 12]]], 1))
show("cat three parts", cat([arange([2, 1, 2]), arange([2, 2, 2], 10), arange([2, 1, 2], 20)], 1))
show("cat_strided_parts", cat([permute(arange([2, 3]), [1, 0]), flip(arange([2, 2], 6), [0]), [[1, 1]],
                               slice_(arange([3, 2], 10), [(0, None, 2)])], 0))
show("cat_strided_parts_along_last_dim", cat([flip(arange([2, 3], 4), [1]), permute(arange([2, 2]), [1, 0])], 1))
a = reshape([1, 0, 3, 4], [2, 2])
show("cat every dtype", cat([a, [[0], [6]], permute(a, [1, 0])], 1))

# gather_scatter.rs
show("gather dim 0", gather(0, [[1, 2], [3, 4]], [[0, 0], [1, 0]]))
show("gather dim 1", gather(1, [[1, 2], [3, 4]], [[0, 0], [1, 0]]))
show("gather smaller indices", gather(1, arange([3, 4]), [[3, 0], [1, 1]]))
show("gather_strided", gather(1, permute(arange([3, 4]), [1, 0]), permute([[2, 0, 1, 1], [0, 2, 2, 0]], [1, 0])))
show("gather_expanded_indices", gather(1, arange([2, 3, 2]), expand([[[2, 0]]], [2, 1, 2])))
show("gather every dtype", gather(1, reshape([1, 0, 3, 4, 0, 6], [2, 3]), [[2, 2, 1, 0], [0, 0, 1, 2]]))
show("scatter_add dim 0", scatter_add(0, build([3, 2], lambda p: 1), [[0, 2], [0, 0]], [[10, 20], [30, 40]]))
show("scatter_add dim 1", scatter_add(1, build([2, 3], lambda p: 0), [[0, 0, 2], [1, 1, 1]], [[1, 2, 3], [4, 5, 6]]))
show("scatter_add value larger", scatter_add(0, build([2, 2], lambda p: 0), [[1]], [[5, 6], [7, 8]]))
show("scatter_add strided", scatter_add(0, permute(arange([2, 3]), [1, 0]), [[2, 0], [2, 1]], flip([[1, 2], [3, 4]], [0])))
show("scatter_add i8 wraps", scatter_add(0, [127, 0], [0, 0, 1], [1, 1, -5], wrap_int(8, True)))
show("scatter_add u8 wraps", scatter_add(0, [250], [0], [10], wrap_int(8, False)))
show("scatter_add f16 round once", f16_round(2048.0 + 1 + 1 + 1 + 1))
per_add = 2048.0
for _ in range(4):
    per_add = f16_round(per_add + 1)
show("  (f16 rounding after each add would give)", per_add)
show("scatter_add bf16 round once", bf16_round(256.0 + 4))

# select.rs
show("select rows", index_select(arange([3, 2]), 0, [2, 0, 2]))
show("select last dim", index_select(arange([2, 3]), 1, [2, 2, 0, 1]))
show("select from flipped step slice", index_select(flip(slice_(arange([6]), [(0, None, 2)]), [0]), 0, [1, 2, 0]))
show("select strided indices", index_select(arange([3, 2]), 0, slice_([2, 0, 1, 0], [(0, None, 2)])))
t = reshape([1, 0, 3, 4, 0, 6], [2, 3])
show("select every dtype dim 1", index_select(t, 1, [2, 1, 2]))
show("select every dtype dim 0", index_select(t, 0, [1, 1, 0]))
show("select_add rows", index_add(build([3, 2], lambda p: 1), 0, [0, 2, 0], [[1, 2], [3, 4], [5, 6]]))
show("select_add last dim", index_add(build([2, 3], lambda p: 0), 1, [2, 2], [[1, 2], [3, 4]]))
show("select_add strided", index_add(permute(arange([2, 3]), [1, 0]), 1, [1, 0], permute([[1, 2, 3], [4, 5, 6]], [1, 0])))
show("select_add i16 wraps", index_add([32767, 5], 0, [0, 1], [1, 2], wrap_int(16, True)))

# mask.rs
show("mask_where same shape", where([[T, F], [F, T]], [[10, 20], [30, 40]], [[1, 2], [3, 4]]))
show("mask_where broadcast", where([[T], [F]], [7, 8, 9], [[1, 2, 3]]))
show("mask_where broadcast mask only", where([[F, T], [T, F]], [5, 6], [1]))
show("mask_where strided", where(flip([[T, F], [F, F], [T, T]], [0]), expand([-1, -2], [3, 2]), permute(arange([2, 3]), [1, 0])))
show("mask_where every dtype", where([[T, T, F], [F, T, T]], [0, 9, 0], [[1, 0, 3], [4, 0, 6]]))
x = [[1, 2, 3], [4, 5, 6]]
show("mask_fill [1, 3] mask", where([[T, F, T]], [-1], x))
show("mask_fill [3] mask", where([F, T, F], [0.5], x))
show("mask_fill [2, 1] mask", where([[F], [T]], [7], x))
show("mask_fill strided", where(permute([[F, T, T], [T, F, F]], [1, 0]), [9], permute(arange([2, 3]), [1, 0])))
show("mask_fill every dtype", where([F, T], [5], [[1, 0], [3, 4]]))
show("argwhere 2d", argwhere([[T, F, T], [F, T, F]]))
show("argwhere transposed", argwhere(permute([[T, F, T], [F, T, F]], [1, 0])))
m3 = reshape([F, T, F, F, F, F, T, T], [2, 2, 2])
show("argwhere rank 3", argwhere(m3))
show("argwhere rank 3 flipped", argwhere(flip(m3, [0])))

# tril.rs
for d in (0, 1, -1):
    show(f"tril {d}", tril(arange([3, 3]), d))
for d in (0, -1, 2):
    show(f"triu {d}", tril(arange([3, 3]), d, lower=False))
show("tril batched", [tril(m, 0) for m in arange([2, 2, 3])])
show("tril transposed", tril(permute(arange([3, 3]), [1, 0]), 0))
show("int tril 0 [3, 4]", tril(arange([3, 4]), 0))
show("int triu 1 [3, 4]", tril(arange([3, 4]), 1, lower=False))
