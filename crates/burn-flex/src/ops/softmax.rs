//! Fused softmax and log-softmax along one dim.
//!
//! The composition of the backend contract (max_dim, sub, exp, sum_dim,
//! div) makes five passes over the tensor and four temporaries; here each
//! line along `dim` is read from memory once and stays in cache for three
//! passes:
//!
//! 1. `m = max(x)` (NaN-propagating);
//! 2. `e = exp(x - m)`, summed (softmax also stores `e` in the output);
//! 3. softmax: `out = e * (1 / sum)`; log-softmax: `out = (x - m) - ln(sum)`.
//!
//! Numerics follow PyTorch's CPU kernels: the max is subtracted first, so
//! `exp` never overflows; a line that is all `-inf` gives NaN (`-inf - -inf`),
//! as does a line holding `+inf` or NaN; `-inf` entries give 0 (softmax) and
//! `-inf` (log-softmax). f16 and bf16 compute in f32 and round once per
//! output element.
//!
//! Lines along the last dim are contiguous rows, split across threads in
//! whole rows. Along another dim the input is seen as `[outer, len, inner]`
//! and a task takes a tile of up to [`TILE`] columns of one outer block, so
//! every pass walks rows of the tile (vectorized along the columns). Each
//! output element is computed the same way whatever the split, so results
//! do not depend on the thread count.

use alloc::vec::Vec;
use core::any::TypeId;

use burn_backend::{TensorMetadata, check};

use crate::FlexTensor;
use crate::engine::{PARALLEL_THRESHOLD, vectorized_len};
use crate::ops::elem::{FloatElem, Real};
use crate::with_float;

/// Input elements per parallel task along the last dim (whole rows).
const GRAIN: usize = 1 << 15;
/// Columns per task along another dim.
const TILE: usize = 128;
/// Independent accumulators of a row reduction (vector lanes).
const LANES: usize = 16;
/// Elements summed lane-wise before the lanes are added to the row total,
/// which bounds the length of every sequential chain of additions.
const BLOCK: usize = 256;

/// Softmax (`log = false`) or log-softmax (`log = true`) of a float tensor
/// along `dim`.
pub fn softmax(tensor: FlexTensor, dim: usize, log: bool) -> FlexTensor {
    let name = if log { "log_softmax" } else { "softmax" };
    check::dim(name, dim, tensor.shape_ref());
    let dtype = tensor.dtype();
    with_float!(name, dtype, |E| softmax_typed::<E>(tensor, dim, log))
}

fn softmax_typed<E: FloatElem>(tensor: FlexTensor, dim: usize, log: bool) -> FlexTensor {
    let tensor = if tensor.contiguous_slice::<E>().is_some() {
        tensor
    } else {
        tensor.to_contiguous()
    };
    let src = tensor
        .contiguous_slice::<E>()
        .expect("a row-major copy is contiguous");
    let shape = tensor.shape_ref().clone();
    let dims = &shape.dims;
    let len = dims[dim];
    let inner: usize = dims[dim + 1..].iter().product();
    let parallel = src.len() >= PARALLEL_THRESHOLD;
    FlexTensor::build_overwrite::<E>(shape.clone(), tensor.dtype(), |out| {
        if src.is_empty() {
            return;
        }
        if inner == 1 {
            last_dim::<E>(src, out, len, log, parallel);
        } else {
            other_dim::<E>(src, out, len, inner, log, parallel);
        }
    })
}

// ------------------------------------------------------------ the last dim

/// `x` as its compute type, when that is its own type (f32, f64).
#[inline(always)]
fn as_compute<E: FloatElem>(x: &[E]) -> Option<&[E::C]> {
    (TypeId::of::<E>() == TypeId::of::<E::C>()).then(|| bytemuck::cast_slice(x))
}

#[inline(always)]
fn as_compute_mut<E: FloatElem>(x: &mut [E]) -> Option<&mut [E::C]> {
    (TypeId::of::<E>() == TypeId::of::<E::C>()).then(|| bytemuck::cast_slice_mut(x))
}

/// Rows of `len` elements: `src` and `out` hold the same number of rows.
fn last_dim<E: FloatElem>(src: &[E], out: &mut [E], len: usize, log: bool, parallel: bool) {
    let task = (GRAIN / len).max(1) * len;
    // Scratch rows in f32 for f16/bf16 (input and output).
    let scratch = || (Vec::<E::C>::new(), Vec::<E::C>::new());
    let run = |(x, y): &mut (Vec<E::C>, Vec<E::C>), src: &[E], out: &mut [E]| {
        vectorized_len(
            src.len(),
            #[inline(always)]
            || {
                for (s, o) in src.chunks_exact(len).zip(out.chunks_exact_mut(len)) {
                    match (as_compute::<E>(s), as_compute_mut::<E>(o)) {
                        (Some(s), Some(o)) => row::<E::C>(s, o, log),
                        _ => {
                            x.clear();
                            x.extend(s.iter().map(|v| v.up()));
                            y.resize(len, <E::C as num_traits::Zero>::zero());
                            row::<E::C>(x, y, log);
                            for (o, &v) in o.iter_mut().zip(y.iter()) {
                                *o = E::down(v);
                            }
                        }
                    }
                }
            },
        )
    };
    if parallel && src.len() > task {
        crate::threads::chunks_mut_init(out, task, scratch, |state, i, o| {
            run(state, &src[i * task..i * task + o.len()], o)
        });
        return;
    }
    let _ = parallel;
    let mut state = scratch();
    for (s, o) in src.chunks(task).zip(out.chunks_mut(task)) {
        run(&mut state, s, o);
    }
}

/// One row: `out = softmax(x)` or `log_softmax(x)`.
#[inline(always)]
pub(crate) fn row<C: Real>(x: &[C], out: &mut [C], log: bool) {
    let m = row_max(x);
    if log {
        let lse = row_sum_exp(x, m, None).ln();
        for (o, &v) in out.iter_mut().zip(x) {
            *o = (v - m) - lse;
        }
    } else {
        let r = C::one() / row_sum_exp(x, m, Some(out));
        for o in out.iter_mut() {
            *o = *o * r;
        }
    }
}

/// The maximum of a row; NaN if any element is NaN.
#[inline(always)]
fn row_max<C: Real>(x: &[C]) -> C {
    let mut acc = [C::neg_infinity(); LANES];
    let mut chunks = x.chunks_exact(LANES);
    for c in &mut chunks {
        for j in 0..LANES {
            acc[j] = max_nan(acc[j], c[j]);
        }
    }
    // The tail padded with -inf, so every index is a constant and the
    // accumulators stay in registers.
    let mut pad = [C::neg_infinity(); LANES];
    let rest = chunks.remainder();
    pad[..rest.len()].copy_from_slice(rest);
    for j in 0..LANES {
        acc[j] = max_nan(acc[j], pad[j]);
    }
    acc.iter().fold(C::neg_infinity(), |a, &b| max_nan(a, b))
}

/// `max(a, b)` that keeps a NaN `b` (and, once there, a NaN `a`), written
/// as a select so it vectorizes.
#[inline(always)]
fn max_nan<C: Real>(a: C, b: C) -> C {
    if (b > a) | b.is_nan() { b } else { a }
}

/// `sum(exp(x - m))`, storing each `exp(x - m)` in `out` when given.
///
/// [`LANES`] accumulators sum [`BLOCK`] elements; each block's lanes are
/// then added to the running lane totals, so no chain of additions is
/// longer than `BLOCK / LANES + len / BLOCK`.
#[inline(always)]
fn row_sum_exp<C: Real>(x: &[C], m: C, mut out: Option<&mut [C]>) -> C {
    let zero = C::zero();
    let mut total = [zero; LANES];
    for (b, xb) in x.chunks(BLOCK).enumerate() {
        let mut acc = [zero; LANES];
        let mut chunks = xb.chunks_exact(LANES);
        match out.as_deref_mut() {
            Some(out) => {
                let ob = &mut out[b * BLOCK..b * BLOCK + xb.len()];
                let mut ochunks = ob.chunks_exact_mut(LANES);
                for (c, o) in (&mut chunks).zip(&mut ochunks) {
                    for j in 0..LANES {
                        let e = (c[j] - m).exp_();
                        o[j] = e;
                        acc[j] = acc[j] + e;
                    }
                }
                let rest = chunks.remainder();
                if !rest.is_empty() {
                    let e = tail_exp(&mut acc, rest, m);
                    ochunks.into_remainder().copy_from_slice(&e[..rest.len()]);
                }
            }
            None => {
                for c in &mut chunks {
                    for j in 0..LANES {
                        acc[j] = acc[j] + (c[j] - m).exp_();
                    }
                }
                if !chunks.remainder().is_empty() {
                    tail_exp(&mut acc, chunks.remainder(), m);
                }
            }
        }
        for j in 0..LANES {
            total[j] = total[j] + acc[j];
        }
    }
    // A fixed tree over the lanes.
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for j in 0..width {
            total[j] = total[j] + total[j + width];
        }
    }
    total[0]
}

/// Adds `exp(x - m)` of a tail shorter than [`LANES`] to the lanes and
/// returns the exps. The tail is padded with -inf (exp 0, which changes no
/// lane: a sum of exps is never -0.0), so every index is a constant and the
/// accumulators stay in registers.
#[inline(always)]
fn tail_exp<C: Real>(acc: &mut [C; LANES], rest: &[C], m: C) -> [C; LANES] {
    let mut e = [C::neg_infinity(); LANES];
    e[..rest.len()].copy_from_slice(rest);
    for j in 0..LANES {
        e[j] = (e[j] - m).exp_();
        acc[j] = acc[j] + e[j];
    }
    e
}

// ------------------------------------------------------------ another dim

/// `[outer, len, inner]` blocks, reduced along `len`.
fn other_dim<E: FloatElem>(
    src: &[E],
    out: &mut [E],
    len: usize,
    inner: usize,
    log: bool,
    parallel: bool,
) {
    let block = len * inner;
    let tile = TILE.min(inner);
    let tiles = inner.div_ceil(tile);
    let run = |state: &mut Columns<E::C>, b: usize, t: usize, rows: &mut [&mut [E]]| {
        let c0 = t * tile;
        let w = tile.min(inner - c0);
        let start = b * block + c0;
        let lines = |r: usize| &src[start + r * inner..start + r * inner + w];
        vectorized_len(
            w * rows.len(),
            #[inline(always)]
            || columns::<E>(state, lines, rows, w, log),
        );
    };
    if parallel {
        // One task per (outer block, column tile), holding the tile's
        // segment of each of the block's rows.
        let mut tasks: Vec<(usize, usize, Vec<&mut [E]>)> = Vec::new();
        for (b, blk) in out.chunks_mut(block).enumerate() {
            let first = tasks.len();
            tasks.extend((0..tiles).map(|t| (b, t, Vec::with_capacity(len))));
            for row in blk.chunks_mut(inner) {
                for (t, seg) in row.chunks_mut(tile).enumerate() {
                    tasks[first + t].2.push(seg);
                }
            }
        }
        crate::threads::chunks_mut_init(&mut tasks, 1, Columns::default, |state, _, task| {
            let (b, t, rows) = &mut task[0];
            run(state, *b, *t, rows)
        });
        return;
    }
    let _ = parallel;
    let mut state = Columns::default();
    for (b, blk) in out.chunks_mut(block).enumerate() {
        for t in 0..tiles {
            let c0 = t * tile;
            let w = tile.min(inner - c0);
            let mut rows: Vec<&mut [E]> =
                blk.chunks_mut(inner).map(|r| &mut r[c0..c0 + w]).collect();
            run(&mut state, b, t, &mut rows);
        }
    }
}

/// Per-column scratch of a tile: running max, sum, and one row in the
/// compute type.
struct Columns<C> {
    max: Vec<C>,
    sum: Vec<C>,
    buf: Vec<C>,
}

impl<C> Default for Columns<C> {
    fn default() -> Self {
        Self {
            max: Vec::new(),
            sum: Vec::new(),
            buf: Vec::new(),
        }
    }
}

/// Softmax down the columns of a tile: `line(r)` is row `r` of the input
/// tile (`w` columns), `rows[r]` the same row of the output.
#[inline(always)]
fn columns<'a, E: FloatElem>(
    state: &mut Columns<E::C>,
    line: impl Fn(usize) -> &'a [E],
    rows: &mut [&mut [E]],
    w: usize,
    log: bool,
) {
    let Columns { max, sum, buf } = state;
    let zero = <E::C as num_traits::Zero>::zero();
    max.clear();
    max.resize(w, <E::C as num_traits::Float>::neg_infinity());
    sum.clear();
    sum.resize(w, zero);
    buf.resize(w, zero);
    let buf = &mut buf[..w];
    let n = rows.len();
    // The rows of one line of a tile, loaded into the compute type.
    let load = |r: usize, buf: &mut [E::C]| {
        for (d, v) in buf.iter_mut().zip(line(r)) {
            *d = v.up();
        }
    };
    for r in 0..n {
        match as_compute::<E>(line(r)) {
            Some(x) => max_into(max, x),
            None => {
                load(r, buf);
                max_into(max, buf);
            }
        }
    }
    // f32/f64 keep each exp in the output for the scaling pass; f16/bf16
    // recompute it in f32 (the same bits) so the output rounds only once.
    for (r, out) in rows.iter_mut().enumerate() {
        let stored = if log { None } else { as_compute_mut::<E>(out) };
        match (as_compute::<E>(line(r)), stored) {
            (Some(x), Some(o)) => {
                for (((s, o), &x), &m) in sum.iter_mut().zip(o).zip(x).zip(max.iter()) {
                    let e = (x - m).exp_();
                    *o = e;
                    *s = *s + e;
                }
            }
            _ => {
                load(r, buf);
                for ((s, &x), &m) in sum.iter_mut().zip(buf.iter()).zip(max.iter()) {
                    *s = *s + (x - m).exp_();
                }
            }
        }
    }
    if log {
        for s in sum.iter_mut() {
            *s = num_traits::Float::ln(*s);
        }
    } else {
        for s in sum.iter_mut() {
            *s = <E::C as num_traits::One>::one() / *s;
        }
    }
    for (r, out) in rows.iter_mut().enumerate() {
        match (as_compute::<E>(line(r)), as_compute_mut::<E>(out)) {
            (Some(_), Some(o)) if !log => {
                for (o, &s) in o.iter_mut().zip(sum.iter()) {
                    *o = *o * s;
                }
            }
            (Some(x), Some(o)) => {
                for (((o, &x), &m), &s) in o.iter_mut().zip(x).zip(max.iter()).zip(sum.iter()) {
                    *o = (x - m) - s;
                }
            }
            _ => {
                load(r, buf);
                let it = out
                    .iter_mut()
                    .zip(buf.iter())
                    .zip(max.iter())
                    .zip(sum.iter());
                for (((o, &x), &m), &s) in it {
                    let v = if log { (x - m) - s } else { (x - m).exp_() * s };
                    *o = E::down(v);
                }
            }
        }
    }
}

#[inline(always)]
fn max_into<C: Real>(acc: &mut [C], x: &[C]) {
    for (a, &v) in acc.iter_mut().zip(x) {
        *a = max_nan(*a, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use burn_std::{DType, Shape};

    fn tensor(values: &[f32], dims: &[usize]) -> FlexTensor {
        FlexTensor::from_vec(values.to_vec(), Shape::from(dims.to_vec()), DType::F32)
    }

    /// Softmax and log-softmax of every line along `dim`, in f64.
    fn reference(x: &[f32], dims: &[usize], dim: usize, log: bool) -> Vec<f64> {
        let len = dims[dim];
        let inner: usize = dims[dim + 1..].iter().product();
        let mut out = vec![0.0; x.len()];
        for b in 0..x.len() / (len * inner) {
            for c in 0..inner {
                let at = |r: usize| b * len * inner + r * inner + c;
                let m = (0..len).map(|r| x[at(r)] as f64).fold(f64::MIN, f64::max);
                let s: f64 = (0..len).map(|r| (x[at(r)] as f64 - m).exp()).sum();
                for r in 0..len {
                    let d = x[at(r)] as f64 - m;
                    out[at(r)] = if log { d - s.ln() } else { d.exp() / s };
                }
            }
        }
        out
    }

    #[test]
    fn matches_f64_reference_along_every_dim() {
        // Long enough along each dim for the blocked sums, the lane
        // remainders and the parallel paths to run.
        let dims = [3, 700, 67];
        let n: usize = dims.iter().product();
        let x: Vec<f32> = (0..n)
            .map(|i| ((i * 7919 % 1000) as f32 - 500.0) / 37.0)
            .collect();
        for dim in 0..3 {
            for log in [false, true] {
                let got = softmax(tensor(&x, &dims), dim, log).to_vec::<f32>();
                let want = reference(&x, &dims, dim, log);
                for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                    let tol = 1e-6 + 2e-6 * w.abs();
                    assert!(
                        (g as f64 - w).abs() <= tol,
                        "dim {dim} log {log} at {i}: {g} vs {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn transposed_input_matches_its_row_major_copy() {
        let x: Vec<f32> = (0..40 * 33).map(|i| (i % 13) as f32 * 0.7 - 3.0).collect();
        let t = tensor(&x, &[40, 33]);
        let transposed = t.with_layout(t.layout().permute(&[1, 0]));
        let copy = transposed.to_contiguous();
        for (dim, log) in [(0, false), (1, false), (0, true), (1, true)] {
            assert_eq!(
                softmax(transposed.clone(), dim, log).to_vec::<f32>(),
                softmax(copy.clone(), dim, log).to_vec::<f32>()
            );
        }
    }

    #[cfg(feature = "threads")]
    #[test]
    fn bits_do_not_depend_on_the_thread_count() {
        let dims = [2, 300, 200];
        let n: usize = dims.iter().product();
        let x: Vec<f32> = (0..n).map(|i| ((i * 31) % 97) as f32 * 0.1).collect();
        for dim in 0..3 {
            for log in [false, true] {
                let run = || softmax(tensor(&x, &dims), dim, log).to_vec::<f32>();
                let one = crate::threads::with_threads(1, run);
                assert_eq!(
                    one,
                    crate::threads::with_threads(3, run),
                    "dim {dim} log {log}"
                );
                assert_eq!(
                    one,
                    crate::threads::with_threads(2, run),
                    "dim {dim} log {log}"
                );
            }
        }
    }
}
