//! Reductions and cumulative ops.
//!
//! Every reduction is written once, generic over the element type `E` (its
//! accumulator `E::A`: `f32` for f16/bf16/f32, `f64` for f64, the integer
//! itself, wrapping, for ints) and over the combining op ([`Fold`]).
//!
//! Accuracy and determinism:
//! - a contiguous run is folded in blocks of [`BLOCK`] elements by [`LANES`]
//!   independent accumulators (each adds `BLOCK / LANES` = 16 elements in
//!   sequence), and blocks are combined pairwise, so a float sum of `n`
//!   elements has an error growing like `log n`, not `n`;
//! - reductions over a non-last dim add whole rows into an accumulator row
//!   (vectorized, no strided gathers), again pairwise over blocks of
//!   [`ROW_BLOCK`] rows;
//! - the combination tree of every output element depends only on the shape,
//!   never on how many threads run, so results are bit-identical whatever
//!   the thread count.

use alloc::vec;
use alloc::vec::Vec;
use core::any::TypeId;

use burn_backend::kernels::ReduceKernels;
use burn_backend::{ArgReduceOp, CumOp, ReduceOp, check};
use burn_std::{DType, Shape};
use bytemuck::Pod;
use half::{bf16, f16};

use crate::engine::{PARALLEL_THRESHOLD, VECTORIZE_MIN, vectorized, vectorized_len};
use crate::layout::{Layout, contiguous_strides, simplify_many};
use crate::{Flex, FlexTensor};

// ------------------------------------------------------------------ elements

/// A numeric element and the type it accumulates in.
pub(crate) trait Num: Pod + Send + Sync + 'static {
    /// The accumulator type.
    type A: Acc;
    /// Widens to the accumulator.
    fn load(self) -> Self::A;
    /// Rounds back from the accumulator (once per output element).
    fn store(a: Self::A) -> Self;
    /// Widens a run (`dst` as long as `src`); f16 overrides it with the
    /// slice conversion, which uses F16C when the CPU has it.
    #[inline]
    fn load_slice(src: &[Self], dst: &mut [Self::A]) {
        for (d, &x) in dst.iter_mut().zip(src) {
            *d = x.load();
        }
    }
}

/// `x` seen as its accumulator type, when that is its own type.
#[inline(always)]
fn as_acc<E: Num>(x: &[E]) -> Option<&[E::A]> {
    (TypeId::of::<E>() == TypeId::of::<E::A>()).then(|| bytemuck::cast_slice(x))
}

/// `x` seen as its accumulator type, when that is its own type.
#[inline(always)]
fn as_acc_mut<E: Num>(x: &mut [E]) -> Option<&mut [E::A]> {
    (TypeId::of::<E>() == TypeId::of::<E::A>()).then(|| bytemuck::cast_slice_mut(x))
}

/// An accumulator: arithmetic (wrapping for ints) and NaN awareness.
pub(crate) trait Acc: Num<A = Self> + PartialOrd {
    const ZERO: Self;
    const ONE: Self;
    /// The identity of `max` (`-inf` for floats).
    const LOWEST: Self;
    /// The identity of `min` (`+inf` for floats).
    const HIGHEST: Self;
    fn add(self, other: Self) -> Self;
    fn mul(self, other: Self) -> Self;
    fn is_nan(self) -> bool;
}

macro_rules! float_acc {
    ($($t:ty),*) => {$(
        impl Num for $t {
            type A = $t;
            #[inline(always)]
            fn load(self) -> $t { self }
            #[inline(always)]
            fn store(a: $t) -> $t { a }
        }
        impl Acc for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const LOWEST: $t = <$t>::NEG_INFINITY;
            const HIGHEST: $t = <$t>::INFINITY;
            #[inline(always)]
            fn add(self, other: $t) -> $t { self + other }
            #[inline(always)]
            fn mul(self, other: $t) -> $t { self * other }
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn is_nan(self) -> bool { self != self }
        }
    )*};
}
float_acc!(f32, f64);

macro_rules! int_acc {
    ($($t:ty),*) => {$(
        impl Num for $t {
            type A = $t;
            #[inline(always)]
            fn load(self) -> $t { self }
            #[inline(always)]
            fn store(a: $t) -> $t { a }
        }
        impl Acc for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const LOWEST: $t = <$t>::MIN;
            const HIGHEST: $t = <$t>::MAX;
            #[inline(always)]
            fn add(self, other: $t) -> $t { self.wrapping_add(other) }
            #[inline(always)]
            fn mul(self, other: $t) -> $t { self.wrapping_mul(other) }
            #[inline(always)]
            fn is_nan(self) -> bool { false }
        }
    )*};
}
int_acc!(i64, i32, i16, i8, u64, u32, u16, u8);

impl Num for f16 {
    type A = f32;
    #[inline(always)]
    fn load(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn store(a: f32) -> f16 {
        f16::from_f32(a)
    }
    #[inline]
    fn load_slice(src: &[f16], dst: &mut [f32]) {
        use half::slice::HalfFloatSliceExt;
        src.convert_to_f32_slice(dst);
    }
}

impl Num for bf16 {
    type A = f32;
    #[inline(always)]
    fn load(self) -> f32 {
        // bf16 is the top half of an f32: widening is a shift.
        f32::from_bits((self.to_bits() as u32) << 16)
    }
    #[inline(always)]
    fn store(a: f32) -> bf16 {
        bf16::from_f32(a)
    }
}

// ----------------------------------------------------------------------- ops

/// A combining op: an identity and an associative (up to rounding) step.
pub(crate) trait Fold: Send + Sync + 'static {
    fn init<A: Acc>() -> A;
    fn apply<A: Acc>(a: A, b: A) -> A;
}

struct SumOp;
struct ProdOp;
struct MaxOp;
struct MinOp;

impl Fold for SumOp {
    #[inline(always)]
    fn init<A: Acc>() -> A {
        A::ZERO
    }
    #[inline(always)]
    fn apply<A: Acc>(a: A, b: A) -> A {
        a.add(b)
    }
}
impl Fold for ProdOp {
    #[inline(always)]
    fn init<A: Acc>() -> A {
        A::ONE
    }
    #[inline(always)]
    fn apply<A: Acc>(a: A, b: A) -> A {
        a.mul(b)
    }
}
impl Fold for MaxOp {
    #[inline(always)]
    fn init<A: Acc>() -> A {
        A::LOWEST
    }
    /// NaN propagates: once either side is NaN the result is NaN.
    #[inline(always)]
    fn apply<A: Acc>(a: A, b: A) -> A {
        // `|` rather than `||`: no branch, so the lane loop vectorizes.
        if (b > a) | b.is_nan() { b } else { a }
    }
}
impl Fold for MinOp {
    #[inline(always)]
    fn init<A: Acc>() -> A {
        A::HIGHEST
    }
    #[inline(always)]
    fn apply<A: Acc>(a: A, b: A) -> A {
        if (b < a) | b.is_nan() { b } else { a }
    }
}

// ----------------------------------------------------------- folding kernels

/// Independent accumulators per block: four AVX-512 registers of f32, so
/// the adds of a row overlap their latency. They are kept as [`GROUPS`]
/// arrays of [`GROUP`] lanes: LLVM keeps a 16-element array in registers,
/// but leaves a 64-element one in memory (a load and a store per add).
const LANES: usize = GROUPS * GROUP;
const GROUPS: usize = 4;
const GROUP: usize = 16;
/// Elements folded lane-wise before blocks are combined pairwise.
const BLOCK: usize = 1024;
/// Rows added sequentially into an accumulator row before row blocks are
/// combined pairwise.
const ROW_BLOCK: usize = 32;
/// Below this length a pairwise split runs on the calling thread.
const JOIN_MIN: usize = 1 << 17;
/// Input elements per parallel task.
const GRAIN: usize = 1 << 16;
/// Least output columns per task when whole rows are accumulated.
const MIN_ROW_TILE: usize = 1024;
/// How far ahead of the fold (in bytes) a run read in place is prefetched.
/// The hardware prefetcher alone (it does not cross 4 KiB pages) kept too
/// few lines in flight: folding the rows of a 4096x4096 f32 tensor on two
/// threads took 1.32 ms without, and 1.21 / 1.18 / 1.18 / 1.27 ms with lines
/// requested 4 / 8 / 16 / 32 KiB ahead (best of 200 runs, 2-core Xeon VM;
/// a plain two-thread read of the 64 MiB took 1.25 ms).
const PREFETCH: usize = 8 << 10;
/// Bytes per cache line: one prefetch per line.
const LINE: usize = 64;

/// Asks for the cache line holding `p` (a hint: it never faults).
#[inline(always)]
fn prefetch(p: *const u8) {
    // SAFETY: SSE, which the intrinsic needs, is part of baseline x86-64;
    // a prefetch reads nothing and never faults, whatever the address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`fold_block`] compiled for the widest instruction set of the CPU.
///
/// Never inlined, on purpose: inlined into a loop over blocks or rows, the
/// SLP vectorizer pairs the accumulator lanes two by two (64-bit loads),
/// while as its own function it keeps them in four full registers.
#[inline(never)]
fn fold_block_any<A: Acc, O: Fold>(span: &[A], len: usize) -> A {
    vectorized(
        #[inline(always)]
        || fold_block::<A, O, true>(span, len),
    )
}

/// Folds one block, `span[..len]`, with [`LANES`] accumulators combined in
/// a fixed tree. With `AHEAD`, the lines of `span` (the rest of it is what
/// the caller reads next) are prefetched [`PREFETCH`] bytes ahead of the
/// fold.
#[inline(always)]
fn fold_block<A: Acc, O: Fold, const AHEAD: bool>(span: &[A], len: usize) -> A {
    let x = &span[..len];
    let base = span.as_ptr().cast::<u8>();
    let reach = size_of_val(span);
    let step = size_of::<[A; LANES]>();
    let mut acc = [[O::init::<A>(); GROUP]; GROUPS];
    let mut chunks = x.chunks_exact(LANES);
    for (k, c) in (&mut chunks).enumerate() {
        for line in 0..step.div_ceil(LINE) {
            let at = k * step + PREFETCH + line * LINE;
            if AHEAD && at < reach {
                prefetch(base.wrapping_add(at));
            }
        }
        fold_step::<A, O>(&mut acc, c);
    }
    // The tail, padded with the identity, as one more full step: every
    // index stays a constant, so the accumulators live in registers. (A
    // sum lane is never -0.0, so adding the +0.0 padding changes no bit.)
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut pad = [O::init::<A>(); LANES];
        pad[..rest.len()].copy_from_slice(rest);
        fold_step::<A, O>(&mut acc, &pad);
    }
    // Lane `g * GROUP + j` is `acc[g][j]`: the tree of halving widths.
    let mut lanes = [O::init::<A>(); LANES];
    for (l, a) in lanes.chunks_exact_mut(GROUP).zip(&acc) {
        l.copy_from_slice(a);
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for j in 0..width {
            lanes[j] = O::apply(lanes[j], lanes[j + width]);
        }
    }
    lanes[0]
}

/// Folds `LANES` values into the lanes.
///
/// The groups are spelled out rather than looped over: given a loop over
/// groups, LLVM vectorizes it (the ops of one lane of the four groups in
/// one vector) whenever the step is a select, as for max/min, which strides
/// the accumulators and the input by a group: gathers and scatters, 3-4x
/// slower than the sum. One group at a time, each is one vector op.
#[inline(always)]
fn fold_step<A: Acc, O: Fold>(acc: &mut [[A; GROUP]; GROUPS], c: &[A]) {
    let c: &[A; LANES] = c.try_into().expect("a full step");
    let [a0, a1, a2, a3] = acc;
    let (c0, c) = c.split_first_chunk::<GROUP>().unwrap();
    let (c1, c) = c.split_first_chunk::<GROUP>().unwrap();
    let (c2, c3) = c.split_first_chunk::<GROUP>().unwrap();
    let c3: &[A; GROUP] = c3.try_into().unwrap();
    fold_group::<A, O>(a0, c0);
    fold_group::<A, O>(a1, c1);
    fold_group::<A, O>(a2, c2);
    fold_group::<A, O>(a3, c3);
}

/// Folds [`GROUP`] values into one group of lanes.
#[inline(always)]
fn fold_group<A: Acc, O: Fold>(acc: &mut [A; GROUP], c: &[A; GROUP]) {
    for (a, &x) in acc.iter_mut().zip(c) {
        *a = O::apply(*a, x);
    }
}

/// Folds a contiguous run: blocks lane-wise, blocks pairwise. The tree
/// depends only on the length, so the result does too.
pub(crate) fn fold_slice<E: Num, O: Fold>(x: &[E]) -> E::A {
    fold_span::<E, O>(x, x.len())
}

/// Folds a contiguous run with `op`: the value `reduce_dim` gives for a
/// row-major row of the same elements (what fused row blocks reduce).
#[cfg(feature = "fusion")]
pub(crate) fn fold_row<E: Num>(op: ReduceOp, x: &[E]) -> E::A {
    match op {
        ReduceOp::Sum => fold_slice::<E, SumOp>(x),
        ReduceOp::Prod => fold_slice::<E, ProdOp>(x),
        ReduceOp::Max => fold_slice::<E, MaxOp>(x),
        ReduceOp::Min => fold_slice::<E, MinOp>(x),
    }
}

/// Folds the run `span[..len]` as [`fold_slice`] does, prefetching into the
/// rest of `span` (what the caller reads next). Runs above [`JOIN_MIN`] are
/// halved (at a block boundary) until the pieces are shorter; the pieces are
/// folded in parallel, each prefetching only within its parent's span, and
/// their partials combined in the same binary tree.
fn fold_span<E: Num, O: Fold>(span: &[E], len: usize) -> E::A {
    if len < JOIN_MIN {
        return fold_run::<E, O>(span, len);
    }
    /// The pieces of `start..start + len`: `(start, len, end of prefetch)`.
    fn pieces(start: usize, len: usize, end: usize, out: &mut Vec<(usize, usize, usize)>) {
        if len >= JOIN_MIN {
            let mid = len.div_ceil(BLOCK) / 2 * BLOCK;
            pieces(start, mid, start + mid, out);
            pieces(start + mid, len - mid, end, out);
        } else {
            out.push((start, len, end));
        }
    }
    /// Combines the partials of `len` elements' pieces, taken in order.
    fn combine<A: Acc, O: Fold>(len: usize, partials: &mut impl Iterator<Item = A>) -> A {
        if len >= JOIN_MIN {
            let mid = len.div_ceil(BLOCK) / 2 * BLOCK;
            let a = combine::<A, O>(mid, partials);
            let b = combine::<A, O>(len - mid, partials);
            O::apply(a, b)
        } else {
            partials.next().expect("one partial per piece")
        }
    }
    let mut list = Vec::new();
    pieces(0, len, span.len(), &mut list);
    let mut partials = vec![O::init::<E::A>(); list.len()];
    crate::threads::chunks_mut(&mut partials, 1, |i, p| {
        let (start, n, end) = list[i];
        p[0] = fold_run::<E, O>(&span[start..end], n);
    });
    combine::<E::A, O>(len, &mut partials.into_iter())
}

/// Folds the blocks of a run one after another and combines their partials
/// pairwise through a stack: block `i` merges once per trailing one bit of
/// `i`, which builds complete power-of-two subtrees left to right (depth
/// `log2` of the block count), then the leftover subtrees are combined.
/// The run is `span[..len]`; the rest of `span` is only prefetched.
#[inline]
fn fold_run<E: Num, O: Fold>(span: &[E], len: usize) -> E::A {
    // One entry per level of the tree: room for 2^24 blocks, far more than
    // the `JOIN_MIN` elements a caller passes.
    let mut stack = [O::init::<E::A>(); 24];
    let mut depth = 0;
    for i in 0..len.div_ceil(BLOCK) {
        let rest = &span[i * BLOCK..];
        let n = (len - i * BLOCK).min(BLOCK);
        // Short runs (small rows) stay at baseline width, and unprefetched:
        // entering the wide variant costs more than it saves on them, and
        // the prefetches cost a 64x64 `sum_dim` 3% for nothing.
        let fold = |a: &[E::A], n: usize| {
            if n >= VECTORIZE_MIN {
                fold_block_any::<E::A, O>(a, n)
            } else {
                fold_block::<E::A, O, false>(a, n)
            }
        };
        let mut v = match as_acc::<E>(rest) {
            Some(a) => fold(a, n),
            // Widened through a buffer, which is all there is to prefetch.
            None => {
                let mut buf = [<E::A as Acc>::ZERO; BLOCK];
                let buf = &mut buf[..n];
                E::load_slice(&rest[..n], buf);
                fold(buf, n)
            }
        };
        let mut k = i;
        while k & 1 == 1 {
            depth -= 1;
            v = O::apply(stack[depth], v);
            k >>= 1;
        }
        stack[depth] = v;
        depth += 1;
    }
    let Some(mut acc) = depth.checked_sub(1).map(|top| stack[top]) else {
        return O::init();
    };
    for d in (0..depth - 1).rev() {
        acc = O::apply(stack[d], acc);
    }
    acc
}

/// Folds `n` elements spaced by `stride` from `start`, through a gather
/// buffer so the fold is the same as for contiguous data.
fn fold_strided<E: Num, O: Fold>(
    storage: &[E],
    start: isize,
    n: usize,
    stride: isize,
    buf: &mut Vec<E>,
) -> E::A {
    buf.clear();
    buf.extend((0..n as isize).map(|i| storage[(start + i * stride) as usize]));
    fold_slice::<E, O>(buf)
}

/// Scratch values [`fold_rows`] needs per accumulator column for `rows` rows:
/// one row per level of recursion plus one conversion row.
fn row_scratch(rows: usize) -> usize {
    let blocks = rows.div_ceil(ROW_BLOCK).max(1);
    blocks.next_power_of_two().trailing_zeros() as usize + 1
}

#[inline(always)]
fn add_row<A: Acc, O: Fold>(acc: &mut [A], row: &[A]) {
    for (a, &x) in acc.iter_mut().zip(row) {
        *a = O::apply(*a, x);
    }
}

/// `acc[i] = fold over r of storage[start + r * stride + i]`: whole rows added
/// into an accumulator row, sequentially within blocks of [`ROW_BLOCK`] rows
/// and pairwise across blocks. `scratch` holds `row_scratch(rows) * acc.len()`.
fn fold_rows<E: Num, O: Fold>(
    storage: &[E],
    start: isize,
    stride: isize,
    rows: usize,
    acc: &mut [E::A],
    scratch: &mut [E::A],
) {
    let w = acc.len();
    if rows <= ROW_BLOCK {
        vectorized_len(
            w * rows,
            #[inline(always)]
            || {
                acc.fill(O::init());
                for r in 0..rows {
                    let s = (start + r as isize * stride) as usize;
                    let row = &storage[s..s + w];
                    match as_acc::<E>(row) {
                        Some(row) => add_row::<E::A, O>(acc, row),
                        None => {
                            let buf = &mut scratch[..w];
                            E::load_slice(row, buf);
                            add_row::<E::A, O>(acc, buf);
                        }
                    }
                }
            },
        );
        return;
    }
    let mid = rows.div_ceil(ROW_BLOCK) / 2 * ROW_BLOCK;
    let (tmp, rest) = scratch.split_at_mut(w);
    fold_rows::<E, O>(storage, start, stride, mid, acc, rest);
    fold_rows::<E, O>(
        storage,
        start + mid as isize * stride,
        stride,
        rows - mid,
        tmp,
        rest,
    );
    vectorized_len(
        w,
        #[inline(always)]
        || add_row::<E::A, O>(acc, tmp),
    );
}

// -------------------------------------------------------------- line layouts

/// The lines of a tensor along one dim: one line per position of the other
/// dims (in row-major order), each `len` elements spaced by `stride`.
///
/// The other dims are merged where possible; consecutive lines of one
/// merged row start `col_stride` apart.
pub(crate) struct Lines {
    dims: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
    /// Elements per line.
    pub len: usize,
    /// Distance between consecutive elements of a line.
    pub stride: isize,
}

impl Lines {
    /// The lines of `layout` along `dim`.
    pub fn new(layout: &Layout, dim: usize) -> Self {
        let mut other = layout.shape().dims.clone();
        let len = other.remove(dim);
        let mut in_strides = layout.strides().to_vec();
        let stride = in_strides.remove(dim);
        let out_strides = contiguous_strides(&other);
        let (dims, [strides, _]) = simplify_many(&other, [&in_strides, &out_strides]);
        Self {
            dims,
            strides,
            offset: layout.offset() as isize,
            len,
            stride,
        }
    }

    /// Lines from already merged outer dims (at least one).
    fn from_parts(
        dims: Vec<usize>,
        strides: Vec<isize>,
        offset: isize,
        len: usize,
        stride: isize,
    ) -> Self {
        Self {
            dims,
            strides,
            offset,
            len,
            stride,
        }
    }

    /// Lines per merged row.
    pub fn row_len(&self) -> usize {
        *self.dims.last().unwrap()
    }

    /// Distance between the starts of consecutive lines of a row.
    pub fn col_stride(&self) -> isize {
        *self.strides.last().unwrap()
    }

    /// Number of lines.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }

    /// Start of the first line of merged row `row`.
    pub fn row_offset(&self, mut row: usize) -> isize {
        let mut off = self.offset;
        for d in (0..self.dims.len() - 1).rev() {
            let n = self.dims[d];
            off += (row % n) as isize * self.strides[d];
            row /= n;
        }
        off
    }

    /// Start of line `line`.
    pub fn line_offset(&self, line: usize) -> isize {
        let n = self.row_len();
        self.row_offset(line / n) + (line % n) as isize * self.col_stride()
    }
}

/// Runs `f(state, first_line_start, out_segment)` over `out` (one element per
/// line, in line order) in tasks of `task` elements, each segment lying
/// within one merged row, so line `k` of a segment starts at
/// `first_line_start + k * lines.col_stride()`. Tasks run on the worker
/// threads when `parallel`; `init` makes each thread's scratch state.
fn drive<O: Send, S>(
    out: &mut [O],
    lines: &Lines,
    task: usize,
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, isize, &mut [O]) + Sync + Send,
) {
    let n = lines.row_len();
    let cs = lines.col_stride();
    let run = |state: &mut S, t: usize, chunk: &mut [O]| {
        let mut e = t * task;
        let mut pos = 0;
        while pos < chunk.len() {
            let (row, col) = (e / n, e % n);
            let seg = (n - col).min(chunk.len() - pos);
            f(
                state,
                lines.row_offset(row) + col as isize * cs,
                &mut chunk[pos..pos + seg],
            );
            pos += seg;
            e += seg;
        }
    };
    if parallel && out.len() > task {
        crate::threads::chunks_mut_init(out, task, &init, |state, t, chunk| run(state, t, chunk));
        return;
    }
    let _ = parallel;
    let mut state = init();
    for (t, chunk) in out.chunks_mut(task).enumerate() {
        run(&mut state, t, chunk);
    }
}

/// Folds every line of `lines` into `out` (one accumulator per line).
fn fold_lines<E: Num, O: Fold>(storage: &[E], lines: &Lines, out: &mut [E::A]) {
    let (len, stride, cs) = (lines.len, lines.stride, lines.col_stride());
    let parallel = len.saturating_mul(out.len()) >= PARALLEL_THRESHOLD;
    if len == 0 {
        out.fill(O::init());
    } else if stride == 1 || len == 1 {
        // Each line is a contiguous run: tasks of whole lines, four times
        // the usual grain, as a task streams its input at memory speed and
        // the cost of handing out a task is then a few percent of it.
        let task = (4 * GRAIN / len).max(1);
        // Back-to-back lines (a row-major tensor): each fold prefetches on
        // into the segment's next lines. Otherwise only within its own line,
        // as the gaps between lines are not read at all.
        let adjacent = cs == len as isize;
        drive(
            out,
            lines,
            task,
            parallel,
            || (),
            |_, start, seg| {
                let end = start as usize + seg.len() * len;
                for (k, o) in seg.iter_mut().enumerate() {
                    let s = (start + k as isize * cs) as usize;
                    let span = &storage[s..if adjacent { end } else { s + len }];
                    *o = fold_span::<E, O>(span, len);
                }
            },
        );
    } else if cs == 1 {
        // Neighbouring lines are neighbours in memory: add whole rows.
        let task = (GRAIN / len).max(MIN_ROW_TILE);
        let depth = row_scratch(len);
        drive(
            out,
            lines,
            task,
            parallel,
            || vec![O::init::<E::A>(); depth * task],
            |scratch, start, seg| {
                let w = seg.len();
                fold_rows::<E, O>(storage, start, stride, len, seg, &mut scratch[..depth * w]);
            },
        );
    } else {
        let task = (GRAIN / len).max(1);
        drive(out, lines, task, parallel, Vec::new, |buf, start, seg| {
            for (k, o) in seg.iter_mut().enumerate() {
                *o = fold_strided::<E, O>(storage, start + k as isize * cs, len, stride, buf);
            }
        });
    }
}

// ---------------------------------------------------------------- reductions

fn all_typed<E: Num, O: Fold>(tensor: &FlexTensor, dtype: DType) -> FlexTensor {
    let acc = fold_all::<E, O>(tensor);
    FlexTensor::from_vec(vec![E::store(acc)], Shape::from([1]), dtype)
}

/// The layout's elements as merged `(offset, dims, strides)` in an order
/// chosen for memory locality (a reduction over all elements may visit them
/// in any order): strides made non-negative, sorted from largest to smallest
/// (broadcast dims outermost), then merged.
fn memory_order(layout: &Layout) -> (isize, Vec<usize>, Vec<isize>) {
    let mut offset = layout.offset() as isize;
    let mut pairs: Vec<(usize, isize)> = layout
        .shape()
        .dims
        .iter()
        .zip(layout.strides())
        .filter(|(n, _)| **n != 1)
        .map(|(&n, &s)| {
            if s < 0 {
                offset += (n as isize - 1) * s;
                (n, -s)
            } else {
                (n, s)
            }
        })
        .collect();
    pairs.sort_by_key(|&(_, s)| core::cmp::Reverse(if s == 0 { usize::MAX } else { s as usize }));
    let dims: Vec<usize> = pairs.iter().map(|p| p.0).collect();
    let strides: Vec<isize> = pairs.iter().map(|p| p.1).collect();
    let (dims, [strides]) = simplify_many(&dims, [&strides]);
    (offset, dims, strides)
}

fn fold_all<E: Num, O: Fold>(tensor: &FlexTensor) -> E::A {
    if tensor.layout().num_elements() == 0 {
        return O::init();
    }
    if let Some(slice) = tensor.contiguous_slice::<E>() {
        return fold_slice::<E, O>(slice);
    }
    let storage = tensor.storage::<E>();
    let (offset, mut dims, mut strides) = memory_order(tensor.layout());
    let inner = dims.pop().unwrap();
    let stride = strides.pop().unwrap();
    if dims.is_empty() && stride == 1 {
        let start = offset as usize;
        return fold_slice::<E, O>(&storage[start..start + inner]);
    }
    if dims.is_empty() {
        dims.push(1);
        strides.push(1);
    }
    // One partial per inner run, then the partials folded pairwise.
    let lines = Lines::from_parts(dims, strides, offset, inner, stride);
    let mut partials = vec![O::init::<E::A>(); lines.count()];
    fold_lines::<E, O>(storage, &lines, &mut partials);
    fold_slice::<E::A, O>(&partials)
}

fn dim_typed<E: Num, O: Fold>(tensor: &FlexTensor, dim: usize, dtype: DType) -> FlexTensor {
    let mut out_shape = tensor.shape_ref().clone();
    out_shape.dims[dim] = 1;
    let n_out = out_shape.num_elements();
    if n_out == 0 {
        return FlexTensor::from_vec(Vec::<E>::new(), out_shape, dtype);
    }
    let lines = Lines::new(tensor.layout(), dim);
    let storage = tensor.storage::<E>();
    FlexTensor::build_overwrite::<E>(out_shape, dtype, |out| match as_acc_mut::<E>(out) {
        Some(acc) => fold_lines::<E, O>(storage, &lines, acc),
        None => {
            let mut acc = vec![O::init::<E::A>(); n_out];
            fold_lines::<E, O>(storage, &lines, &mut acc);
            for (o, a) in out.iter_mut().zip(acc) {
                *o = E::store(a);
            }
        }
    })
}

// ------------------------------------------------------------------- argmax

/// Whether `v` replaces `best` (neither NaN).
#[inline(always)]
fn better<A: Acc, const MAX: bool>(v: A, best: A) -> bool {
    if MAX { v > best } else { v < best }
}

/// First index of the extreme of the run `span[..len]`: the extreme is
/// found by the vectorized fold (NaN-propagating, prefetching into the rest
/// of `span` as [`fold_span`] does), then located. The first element equal
/// to it is the first extreme, as `-0.0 == 0.0` too.
fn arg_slice<E: Num, const MAX: bool>(span: &[E], len: usize) -> i64 {
    let m = if MAX {
        fold_span::<E, MaxOp>(span, len)
    } else {
        fold_span::<E, MinOp>(span, len)
    };
    let x = &span[..len];
    let found = if m.is_nan() {
        first_hit(x, |v| v.is_nan())
    } else {
        first_hit(x, |v| v == m)
    };
    found.expect("the extreme of a run is one of its elements") as i64
}

/// Index of the first element of `x` that `hit` accepts. Steps of
/// [`LANES`] elements are tested without a branch (an early exit per
/// element keeps a search scalar), then the step holding one is searched.
fn first_hit<E: Num>(x: &[E], hit: impl Fn(E::A) -> bool) -> Option<usize> {
    let skip = vectorized_len(
        x.len(),
        #[inline(always)]
        || {
            x.chunks_exact(LANES)
                .take_while(|c| !c.iter().fold(false, |any, &v| any | hit(v.load())))
                .count()
                * LANES
        },
    );
    x[skip..]
        .iter()
        .position(|&v| hit(v.load()))
        .map(|i| skip + i)
}

fn arg_typed<E: Num, const MAX: bool>(tensor: &FlexTensor, dim: usize) -> FlexTensor {
    let mut out_shape = tensor.shape_ref().clone();
    out_shape.dims[dim] = 1;
    let n_out = out_shape.num_elements();
    if n_out == 0 {
        return FlexTensor::from_vec(Vec::<i64>::new(), out_shape, DType::I64);
    }
    let lines = Lines::new(tensor.layout(), dim);
    let storage = tensor.storage::<E>();
    let (len, stride, cs) = (lines.len, lines.stride, lines.col_stride());
    let parallel = len.saturating_mul(n_out) >= PARALLEL_THRESHOLD;
    FlexTensor::build_overwrite::<i64>(out_shape, DType::I64, |out| {
        if stride == 1 || len == 1 {
            // As in `fold_lines`: larger tasks, and prefetching on into the
            // next lines when they are back to back.
            let task = (4 * GRAIN / len).max(1);
            let adjacent = cs == len as isize;
            drive(
                out,
                &lines,
                task,
                parallel,
                || (),
                |_, start, seg| {
                    let end = start as usize + seg.len() * len;
                    for (k, o) in seg.iter_mut().enumerate() {
                        let s = (start + k as isize * cs) as usize;
                        let span = &storage[s..if adjacent { end } else { s + len }];
                        *o = arg_slice::<E, MAX>(span, len);
                    }
                },
            );
        } else if cs == 1 && len <= u32::MAX as usize {
            // Row by row: a running best and its row index per column,
            // updated with selects (u32 indices keep the lanes as wide as
            // f32 ones, so the update vectorizes).
            let task = (GRAIN / len).max(MIN_ROW_TILE);
            let init = || (Vec::<E::A>::new(), Vec::<u32>::new(), Vec::<E::A>::new());
            drive(
                out,
                &lines,
                task,
                parallel,
                init,
                |(best, index, buf), start, seg| {
                    let w = seg.len();
                    best.resize(w, <E::A as Acc>::ZERO);
                    index.clear();
                    index.resize(w, 0);
                    buf.resize(w, <E::A as Acc>::ZERO);
                    let s0 = start as usize;
                    E::load_slice(&storage[s0..s0 + w], best);
                    for r in 1..len {
                        let s = (start + r as isize * stride) as usize;
                        E::load_slice(&storage[s..s + w], buf);
                        let r = r as u32;
                        for ((b, i), &v) in best.iter_mut().zip(index.iter_mut()).zip(buf.iter()) {
                            let take = !b.is_nan() & (v.is_nan() | better::<_, MAX>(v, *b));
                            *b = if take { v } else { *b };
                            *i = if take { r } else { *i };
                        }
                    }
                    for (o, &i) in seg.iter_mut().zip(index.iter()) {
                        *o = i as i64;
                    }
                },
            );
        } else {
            let task = (GRAIN / len).max(1);
            drive(
                out,
                &lines,
                task,
                parallel,
                Vec::new,
                |buf: &mut Vec<E>, start, seg| {
                    for (k, o) in seg.iter_mut().enumerate() {
                        let s = start + k as isize * cs;
                        buf.clear();
                        buf.extend((0..len as isize).map(|i| storage[(s + i * stride) as usize]));
                        *o = arg_slice::<E, MAX>(buf, len);
                    }
                },
            );
        }
    })
}

// ---------------------------------------------------------------- cumulative

fn cum_typed<E: Num, O: Fold>(mut tensor: FlexTensor, dim: usize) -> FlexTensor {
    let dims = tensor.shape_ref().dims.clone();
    let n = tensor.layout().num_elements();
    let len = dims[dim];
    let inner: usize = dims[dim + 1..].iter().product();
    if n == 0 || len <= 1 {
        return tensor.to_contiguous();
    }
    // Scan in place: in the input's own buffer when it is uniquely owned and
    // row-major, otherwise in a fresh row-major copy.
    if let Some(data) = tensor.unique_contiguous_mut::<E>() {
        scan::<E, O>(data, len, inner);
        return tensor;
    }
    let dtype = tensor.dtype_of();
    let shape = tensor.shape_ref().clone();
    let contiguous = tensor.to_contiguous();
    let src = contiguous
        .contiguous_slice::<E>()
        .expect("a row-major copy is contiguous");
    FlexTensor::build_overwrite::<E>(shape, dtype, |out| {
        out.copy_from_slice(src);
        scan::<E, O>(out, len, inner);
    })
}

/// Lines scanned together along the last dim, so their dependency chains
/// overlap.
const SCAN_LANES: usize = 8;

/// Scans every `[len, inner]` block of `data` along its first axis in place.
fn scan<E: Num, O: Fold>(data: &mut [E], len: usize, inner: usize) {
    let block = len * inner;
    let outer = data.len() / block;
    let parallel = cfg!(feature = "threads") && data.len() >= PARALLEL_THRESHOLD;
    if inner == 1 {
        let per_task = (GRAIN / len).max(1).next_multiple_of(SCAN_LANES) * len;
        run_chunks(data, per_task, parallel, |chunk| {
            let mut groups = chunk.chunks_exact_mut(SCAN_LANES * len);
            for group in &mut groups {
                scan_lines::<E, O>(group, len);
            }
            for line in groups.into_remainder().chunks_exact_mut(len) {
                scan_line::<E, O>(line);
            }
        });
        return;
    }
    if parallel && outer < 4 && inner >= 2 * MIN_ROW_TILE {
        // Few blocks: split the columns instead. Each column is scanned the
        // same way whatever the split, so results do not change.
        {
            let tile = MIN_ROW_TILE.max(inner.div_ceil(16));
            let mut tasks: Vec<Vec<&mut [E]>> = Vec::new();
            for blk in data.chunks_mut(block) {
                let first = tasks.len();
                tasks.extend((0..inner.div_ceil(tile)).map(|_| Vec::with_capacity(len)));
                for row in blk.chunks_mut(inner) {
                    for (t, seg) in row.chunks_mut(tile).enumerate() {
                        tasks[first + t].push(seg);
                    }
                }
            }
            crate::threads::chunks_mut(&mut tasks, 1, |_, rows| {
                scan_rows::<E, O>(&mut rows[0]);
            });
            return;
        }
    }
    let per_task = (GRAIN / block).max(1) * block;
    run_chunks(data, per_task, parallel, |chunk| {
        for blk in chunk.chunks_exact_mut(block) {
            let mut rows: Vec<&mut [E]> = blk.chunks_mut(inner).collect();
            scan_rows::<E, O>(&mut rows);
        }
    });
}

fn run_chunks<E: Send>(
    data: &mut [E],
    per_task: usize,
    parallel: bool,
    f: impl Fn(&mut [E]) + Sync + Send,
) {
    if parallel {
        crate::threads::chunks_mut(data, per_task, |_, chunk| f(chunk));
        return;
    }
    let _ = parallel;
    data.chunks_mut(per_task).for_each(f);
}

fn scan_line<E: Num, O: Fold>(line: &mut [E]) {
    let mut acc = line[0].load();
    for x in &mut line[1..] {
        acc = O::apply(acc, x.load());
        *x = E::store(acc);
    }
}

/// Scans [`SCAN_LANES`] consecutive lines of `len` elements at once.
fn scan_lines<E: Num, O: Fold>(group: &mut [E], len: usize) {
    let mut it = group.chunks_exact_mut(len);
    let lines: [&mut [E]; SCAN_LANES] = core::array::from_fn(|_| it.next().expect("a full group"));
    let mut acc: [E::A; SCAN_LANES] = core::array::from_fn(|k| lines[k][0].load());
    // `j` walks every lane in lockstep, which an iterator over one line cannot express.
    #[allow(clippy::needless_range_loop)]
    for j in 1..len {
        for k in 0..SCAN_LANES {
            let x = &mut lines[k][j];
            acc[k] = O::apply(acc[k], x.load());
            *x = E::store(acc[k]);
        }
    }
}

/// Running op down equal-length rows: `row[r] = op(acc, row[r])`.
fn scan_rows<E: Num, O: Fold>(rows: &mut [&mut [E]]) {
    let Some((first, rest)) = rows.split_first_mut() else {
        return;
    };
    let mut acc: Vec<E::A> = first.iter().map(|x| x.load()).collect();
    for row in rest {
        for (a, x) in acc.iter_mut().zip(row.iter_mut()) {
            *a = O::apply(*a, x.load());
            *x = E::store(*a);
        }
    }
}

/// Small helper so kernels read the dtype without importing the trait.
trait DtypeOf {
    fn dtype_of(&self) -> DType;
}
impl DtypeOf for FlexTensor {
    fn dtype_of(&self) -> DType {
        burn_backend::TensorMetadata::dtype(self)
    }
}

// ----------------------------------------------------------- ReduceKernels

impl ReduceKernels for Flex {
    /// Reduces every element to a tensor of shape `[1]`.
    fn reduce_all(op: ReduceOp, tensor: FlexTensor) -> FlexTensor {
        let name = op.name();
        let dtype = tensor.dtype_of();
        if op.of_empty().is_none() && tensor.layout().num_elements() == 0 {
            panic!(
                "{name}: cannot reduce an empty tensor of shape {}",
                tensor.shape_ref()
            );
        }
        crate::with_numeric!(name, dtype, |E| match op {
            ReduceOp::Sum => all_typed::<E, SumOp>(&tensor, dtype),
            ReduceOp::Prod => all_typed::<E, ProdOp>(&tensor, dtype),
            ReduceOp::Max => all_typed::<E, MaxOp>(&tensor, dtype),
            ReduceOp::Min => all_typed::<E, MinOp>(&tensor, dtype),
        })
    }

    /// Reduces along `dim`, keeping it with size 1.
    fn reduce_dim(op: ReduceOp, tensor: FlexTensor, dim: usize) -> FlexTensor {
        let name = op.dim_name();
        let shape = tensor.shape_ref().clone();
        check::dim(name, dim, &shape);
        if op.of_empty().is_none() && shape.dims[dim] == 0 {
            panic!("{name}: cannot reduce dim {dim} of size 0 of a tensor of shape {shape}");
        }
        let dtype = tensor.dtype_of();
        crate::with_numeric!(name, dtype, |E| match op {
            ReduceOp::Sum => dim_typed::<E, SumOp>(&tensor, dim, dtype),
            ReduceOp::Prod => dim_typed::<E, ProdOp>(&tensor, dim, dtype),
            ReduceOp::Max => dim_typed::<E, MaxOp>(&tensor, dim, dtype),
            ReduceOp::Min => dim_typed::<E, MinOp>(&tensor, dim, dtype),
        })
    }

    /// Index (I64) of the max or min along `dim`, first on ties. NaN counts as
    /// the extreme either way: the first NaN wins, as in PyTorch.
    fn arg_reduce(op: ArgReduceOp, tensor: FlexTensor, dim: usize) -> FlexTensor {
        let name = op.name();
        let shape = tensor.shape_ref().clone();
        check::dim(name, dim, &shape);
        if shape.dims[dim] == 0 {
            panic!("{name}: cannot reduce dim {dim} of size 0 of a tensor of shape {shape}");
        }
        let dtype = tensor.dtype_of();
        crate::with_numeric!(name, dtype, |E| match op {
            ArgReduceOp::ArgMax => arg_typed::<E, true>(&tensor, dim),
            ArgReduceOp::ArgMin => arg_typed::<E, false>(&tensor, dim),
        })
    }

    /// Running op along `dim`. Float sums and products run in the accumulator
    /// type (f32 for f16/bf16) and round once per output element; int ops wrap;
    /// a NaN makes every later running max/min NaN.
    fn cumulative(op: CumOp, tensor: FlexTensor, dim: usize) -> FlexTensor {
        let name = op.name();
        check::dim(name, dim, tensor.shape_ref());
        let dtype = tensor.dtype_of();
        crate::with_numeric!(name, dtype, |E| match op {
            CumOp::Sum => cum_typed::<E, SumOp>(tensor, dim),
            CumOp::Prod => cum_typed::<E, ProdOp>(tensor, dim),
            CumOp::Max => cum_typed::<E, MaxOp>(tensor, dim),
            CumOp::Min => cum_typed::<E, MinOp>(tensor, dim),
        })
    }
}
