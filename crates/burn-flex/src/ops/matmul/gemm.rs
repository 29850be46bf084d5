//! The blocked float GEMM (BLIS loop order) and its packing routines.
//!
//! ```text
//! for jc in n by NC:                 B block  kc×nc  -> packed, shared (L3)
//!   for pc in k by KC:
//!     pack B[pc.., jc..]             (parallel over NR panels)
//!     for each (row block, column group) task, in parallel:
//!       pack A[ic.., pc..]           A block  mc×kc  (L2), one per task
//!       for jr in NR panels:         B panel  kc×NR  (L1)
//!         for ir in MR panels:       micro-kernel on an MR×NR tile of C
//! ```
//!
//! A row-major left operand of the compute type skips the A packing where
//! the CPU has a kernel that reads it in place ([`gemm_rows`], f32 and f64
//! on AVX-512); everything else takes the nest above.
//!
//! Products with at least [`SPLIT_COLS`] columns a thread run this whole
//! nest once per thread, each thread over its own range of columns, with
//! its own packed blocks. Work is split only along M and N, never along K:
//! the `kc` blocks depend on `k` alone, so every output element is the same
//! chain of FMAs whatever the thread count or the tile that computes it.

use alloc::vec;
use alloc::vec::Vec;

use super::kernel::{GemmFloat, MAX_MR, MAX_TILE, RowsTiling, Tiling};
use super::{Load, MatRef, converted};

/// Splits `len` into `parts` near-equal contiguous ranges; part `i` is
/// `[bound(i), bound(i + 1))`.
#[inline]
fn bound(len: usize, parts: usize, i: usize) -> usize {
    len * i / parts
}

/// `k` in blocks of at most `kc`, all of near-equal size: `(start, len)`.
/// Depends on `k` and the tiling only, which keeps results independent of
/// threading.
fn k_blocks(k: usize, kc: usize) -> impl Iterator<Item = (usize, usize)> {
    let parts = k.div_ceil(kc);
    (0..parts).map(move |i| {
        (
            bound(k, parts, i),
            bound(k, parts, i + 1) - bound(k, parts, i),
        )
    })
}

/// The longest of the [`k_blocks`] of `k`.
fn max_kc(k: usize, kc: usize) -> usize {
    k.div_ceil(k.div_ceil(kc))
}

/// Packing buffers of at most this many bytes are kept by each thread and
/// reused, so batches of small products neither allocate nor zero them.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
const KEEP_BYTES: usize = 2 << 20;

#[cfg(feature = "std")]
std::thread_local! {
    /// Per-thread packing buffers: slot 0 for A blocks, slot 1 for B blocks.
    static KEPT: [core::cell::Cell<Vec<u64>>; 2] = const { [core::cell::Cell::new(Vec::new()), core::cell::Cell::new(Vec::new())] };
}

/// A packing buffer of `len` elements starting on a 64-byte boundary (so
/// the kernels' B loads never straddle a cache line). Contents are
/// unspecified (zeros or stale packed values): packing writes every element.
struct Scratch<T> {
    words: Vec<u64>,
    slot: usize,
    start: usize,
    len: usize,
    _elem: core::marker::PhantomData<T>,
}

impl<T: GemmFloat> Scratch<T> {
    fn new(slot: usize, len: usize) -> Self {
        let need = (len * size_of::<T>()).div_ceil(8) + 8;
        #[cfg(feature = "std")]
        let mut words = KEPT.with(|kept| kept[slot].take());
        #[cfg(not(feature = "std"))]
        let mut words = Vec::new();
        if words.len() < need {
            words = vec![0u64; need];
        }
        let start = words.as_ptr().align_offset(64).min(7) * 8 / size_of::<T>();
        Self {
            words,
            slot,
            start,
            len,
            _elem: core::marker::PhantomData,
        }
    }

    fn slice_mut(&mut self) -> &mut [T] {
        let all: &mut [T] = bytemuck::cast_slice_mut(&mut self.words[..]);
        &mut all[self.start..self.start + self.len]
    }
}

impl<T> Drop for Scratch<T> {
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if self.words.len() * 8 <= KEEP_BYTES {
            let words = core::mem::take(&mut self.words);
            // During thread teardown the slot may be gone: then just free.
            let _ = KEPT.try_with(|kept| kept[self.slot].set(words));
        }
        let _ = self.slot;
    }
}

/// `dst[..N] = src[..N]`, converted, with `N` known to the compiler.
#[inline(always)]
fn load_n<S: Load<T>, T: Copy, const N: usize>(src: &[S], dst: &mut [T]) {
    let src: &[S; N] = src[..N].try_into().expect("N values");
    let dst: &mut [T; N] = (&mut dst[..N]).try_into().expect("N slots");
    S::load_run(src, dst);
}

/// Writes `MR` rows of `kc` values as `kc` groups of `MR` (column `p` of
/// the rows): 8 columns at a time go through a register tile, so the reads
/// are vector loads of each row and the writes whole groups.
#[inline(always)]
fn transpose_rows<T: Copy + Default, const MR: usize>(src: &[&[T]], kc: usize, dst: &mut [T]) {
    const STEP: usize = 8;
    let src: &[&[T]; MR] = src.try_into().expect("MR rows");
    let dst = &mut dst[..kc * MR];
    let full = kc / STEP * STEP;
    let (body, tail) = dst.split_at_mut(full * MR);
    for (blk, out) in body.chunks_exact_mut(STEP * MR).enumerate() {
        let p = blk * STEP;
        let mut tile = [[T::default(); STEP]; MR];
        for (t, r) in tile.iter_mut().zip(src) {
            *t = r[p..p + STEP].try_into().expect("STEP values");
        }
        for (q, g) in out.chunks_exact_mut(MR).enumerate() {
            for (x, t) in g.iter_mut().zip(&tile) {
                *x = t[q];
            }
        }
    }
    for (q, g) in tail.chunks_exact_mut(MR).enumerate() {
        for (x, r) in g.iter_mut().zip(src) {
            *x = r[full + q];
        }
    }
}

/// Packs rows `i0..i0 + mc`, columns `p0..p0 + kc` of `a` into `MR`-row
/// panels (`kc` groups of `MR` values each), zero-padding the last panel.
fn pack_a<S: Load<T>, T: GemmFloat>(
    mr_: usize,
    a: MatRef<'_, S>,
    i0: usize,
    mc: usize,
    p0: usize,
    kc: usize,
    dst: &mut [T],
) {
    // Conversion space for a panel's source rows (empty when `S` is `T`).
    let mut tmp = if S::CONVERTS {
        vec![T::default(); mr_ * kc]
    } else {
        Vec::new()
    };
    for (panel, d) in dst
        .chunks_exact_mut(kc * mr_)
        .take(mc.div_ceil(mr_))
        .enumerate()
    {
        let r0 = i0 + panel * mr_;
        let rows = mr_.min(i0 + mc - r0);
        if rows < mr_ {
            d.fill(T::default());
        }
        if a.rs == 1 {
            // Column-major A (a transposed row-major tensor): each group is
            // a contiguous run of the source.
            for (p, g) in d.chunks_exact_mut(mr_).enumerate() {
                let s = a.idx(r0, p0 + p);
                S::load_run(&a.data[s..s + rows], &mut g[..rows]);
            }
        } else if a.cs == 1 && rows == mr_ {
            // Row-major A, full panel: gather one value of each row per
            // step, so the writes are contiguous.
            let mut bufs = tmp.chunks_exact_mut(kc);
            let mut src: [&[T]; MAX_MR] = [&[]; MAX_MR];
            for (i, r) in src[..mr_].iter_mut().enumerate() {
                let s = a.idx(r0 + i, p0);
                *r = converted(&a.data[s..s + kc], bufs.next().unwrap_or_default());
            }
            match mr_ {
                12 => {
                    let rows: &[&[T]; 12] = src[..12].try_into().expect("12 rows");
                    if !T::transpose_12_rows(rows, kc, d) {
                        transpose_rows::<T, 12>(rows, kc, d);
                    }
                }
                6 => transpose_rows::<T, 6>(&src[..6], kc, d),
                _ => {
                    for (p, g) in d.chunks_exact_mut(mr_).enumerate() {
                        for (x, r) in g.iter_mut().zip(&src[..mr_]) {
                            *x = r[p];
                        }
                    }
                }
            }
        } else if a.cs == 1 {
            // Row-major A, edge panel: read each row, write it strided.
            for i in 0..rows {
                let s = a.idx(r0 + i, p0);
                let row = converted(&a.data[s..s + kc], tmp.get_mut(..kc).unwrap_or_default());
                for (x, &v) in d[i..].iter_mut().step_by(mr_).zip(row) {
                    *x = v;
                }
            }
        } else {
            for (p, g) in d.chunks_exact_mut(mr_).enumerate() {
                for (i, x) in g[..rows].iter_mut().enumerate() {
                    *x = a.data[a.idx(r0 + i, p0 + p)].load();
                }
            }
        }
    }
}

/// Packs rows `p0..p0 + kc`, columns `j0..j0 + nc` of `b` into `NR`-column
/// panels (`kc` groups of `NR` values each), zero-padding the last panel.
/// `dst` may hold only some of the panels: it starts at panel `first`.
#[allow(clippy::too_many_arguments)]
fn pack_b<S: Load<T>, T: GemmFloat>(
    nr_: usize,
    b: MatRef<'_, S>,
    p0: usize,
    kc: usize,
    j0: usize,
    nc: usize,
    first: usize,
    dst: &mut [T],
) {
    let mut tmp = if S::CONVERTS && b.cs != 1 {
        vec![T::default(); kc]
    } else {
        Vec::new()
    };
    for (q, d) in dst.chunks_exact_mut(kc * nr_).enumerate() {
        let c0 = j0 + (first + q) * nr_;
        let cols = nr_.min(j0 + nc - c0);
        if cols < nr_ {
            d.fill(T::default());
        }
        if b.cs == 1 {
            // Row-major B: each group is a contiguous run of the source.
            for (p, g) in d.chunks_exact_mut(nr_).enumerate() {
                let s = b.idx(p0 + p, c0);
                if cols == nr_ {
                    // Constant length: inlined vector moves, not a memcpy call.
                    match nr_ {
                        32 => load_n::<S, T, 32>(&b.data[s..], g),
                        16 => load_n::<S, T, 16>(&b.data[s..], g),
                        8 => load_n::<S, T, 8>(&b.data[s..], g),
                        _ => S::load_run(&b.data[s..s + nr_], &mut g[..nr_]),
                    }
                } else {
                    S::load_run(&b.data[s..s + cols], &mut g[..cols]);
                }
            }
        } else if b.rs == 1 {
            // Column-major B (a transposed weight): read columns
            // contiguously, write them strided.
            for j in 0..cols {
                let s = b.idx(p0, c0 + j);
                let col = converted(&b.data[s..s + kc], &mut tmp);
                for (x, &v) in d[j..].iter_mut().step_by(nr_).zip(col) {
                    *x = v;
                }
            }
        } else {
            for (p, g) in d.chunks_exact_mut(nr_).enumerate() {
                for (j, x) in g[..cols].iter_mut().enumerate() {
                    *x = b.data[b.idx(p0 + p, c0 + j)].load();
                }
            }
        }
    }
}

/// The output matrix as a raw pointer, so that parallel tasks can each
/// write their own rectangle of it (pairwise disjoint rectangles: the
/// sharers' duty).
#[derive(Clone, Copy)]
pub(crate) struct Out<'a, T> {
    ptr: *mut T,
    len: usize,
    ldc: usize,
    _borrow: core::marker::PhantomData<&'a mut [T]>,
}

// SAFETY: `Out` is only shared between the tasks of one `gemm` call, which
// write pairwise disjoint rectangles of the matrix (distinct row blocks or
// column groups) while the `&mut` slice it came from stays borrowed.
unsafe impl<T: Send> Send for Out<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Out<'_, T> {}

impl<'a, T: GemmFloat> Out<'a, T> {
    /// The row-major matrix `out` with rows of `ldc` elements.
    pub(crate) fn new(out: &'a mut [T], ldc: usize) -> Self {
        Self {
            ptr: out.as_mut_ptr(),
            len: out.len(),
            ldc,
            _borrow: core::marker::PhantomData,
        }
    }

    /// Pointer to element `(i, j)`, checked so that `rows × cols` elements
    /// from there lie inside the matrix.
    #[inline]
    fn tile(&self, i: usize, j: usize, rows: usize, cols: usize) -> *mut T {
        assert!(
            rows > 0
                && cols > 0
                && j + cols <= self.ldc
                && (i + rows - 1) * self.ldc + j + cols <= self.len,
            "matmul: tile out of bounds"
        );
        // SAFETY: in bounds by the assertion above.
        unsafe { self.ptr.add(i * self.ldc + j) }
    }

    /// Writes (or with `accumulate`, adds) the top-left `rows × cols` of
    /// the edge tile `tmp` (row stride `stride`) at `(i, j)`: the part of
    /// a whole kernel tile that lies inside the output.
    fn put_part(
        &self,
        tmp: &[T],
        stride: usize,
        (i, j): (usize, usize),
        (rows, cols): (usize, usize),
        accumulate: bool,
    ) {
        for (r, row) in tmp.chunks_exact(stride).take(rows).enumerate() {
            let c = self.tile(i + r, j, 1, cols);
            // SAFETY: `cols` elements at `c` are inside the output (checked
            // by `tile`) and, by the sharers' duty, the caller's alone.
            let dst = unsafe { core::slice::from_raw_parts_mut(c, cols) };
            for (o, &v) in dst.iter_mut().zip(row) {
                *o = if accumulate { *o + v } else { v };
            }
        }
    }
}

/// One block of packed A against panels of packed B: the two inner loops.
#[allow(clippy::too_many_arguments)]
fn macro_kernel<T: GemmFloat>(
    tiling: &Tiling<T>,
    kc: usize,
    apack: &[T],
    i0: usize,
    mc: usize,
    bpanels: &[T],
    j0: usize,
    ncols: usize,
    out: Out<'_, T>,
    accumulate: bool,
) {
    let (kernel, mr_, nr_) = (tiling.kernel, tiling.mr, tiling.nr);
    for (q, bp) in bpanels.chunks_exact(kc * nr_).enumerate() {
        let jj = j0 + q * nr_;
        let nr = nr_.min(j0 + ncols - jj);
        for (r, ap) in apack
            .chunks_exact(kc * mr_)
            .take(mc.div_ceil(mr_))
            .enumerate()
        {
            let ii = i0 + r * mr_;
            let mr = mr_.min(i0 + mc - ii);
            if mr == mr_ && nr == nr_ {
                let c = out.tile(ii, jj, mr_, nr_);
                // SAFETY: `ap`/`bp` are whole packed panels (`kc * MR`,
                // `kc * NR` elements); the MR×NR tile at `c` is inside the
                // output (checked by `tile`) and owned by this task; `kernel`
                // came from `GemmFloat::tiling`, which checked the CPU.
                unsafe { kernel(kc, ap.as_ptr(), bp.as_ptr(), c, out.ldc, accumulate) };
            } else {
                let mut tmp = [T::default(); MAX_TILE];
                // SAFETY: panels as above; `tmp` is an MR×NR tile with row
                // stride NR (`MR * NR <= MAX_TILE`, asserted in `gemm`).
                unsafe { kernel(kc, ap.as_ptr(), bp.as_ptr(), tmp.as_mut_ptr(), nr_, false) };
                out.put_part(&tmp, nr_, (ii, jj), (mr, nr), accumulate);
            }
        }
    }
}

/// Runs `f(state, task)` for `task in 0..count`, on the worker threads when
/// `parallel`, with one `init()` state per thread.
fn run_tasks<S>(
    count: usize,
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize) + Sync + Send,
) {
    if parallel && count > 1 {
        crate::threads::for_each_init(count, init, f);
        return;
    }
    let mut state = init();
    for t in 0..count {
        f(&mut state, t);
    }
}

/// Columns each thread needs before a product is split into one column
/// range per thread (see [`gemm`]).
const SPLIT_COLS: usize = 512;

/// `out = a · b` for an `m × k` by `k × n` product; `out` is row-major
/// `m × n` and zeroed. `threads > 1` runs on the worker threads.
///
/// A row-major A of the compute type goes to [`gemm_rows`] where the CPU
/// has a kernel for it (and the shape fits, [`rows_fit`]); the rest below
/// is the packed path.
///
/// With at least [`SPLIT_COLS`] columns a thread, each thread computes one
/// contiguous range of columns on its own, packing its own B blocks and
/// its own copy of A: no thread waits for another between `kc` blocks, and
/// a thread's packed B stays in its own core's L2. (Measured on the 2-core
/// work machine: 3-7 % faster at 1024³ and 2048³ than sharing packed B
/// across a row split, same within noise at 4096³; packing A twice costs
/// `m·k` loads against `m·k·n/threads` FMAs.) Smaller products split rows
/// (or columns, when there are few rows) and share each packed B block.
pub(crate) fn gemm<S: Load<T>, T: GemmFloat>(
    a: MatRef<'_, S>,
    b: MatRef<'_, S>,
    m: usize,
    n: usize,
    k: usize,
    out: &mut [T],
    threads: usize,
) {
    let tiling = T::tiling();
    let (mr_, nr_) = (tiling.mr, tiling.nr);
    assert!(
        mr_ * nr_ <= MAX_TILE && tiling.mc.is_multiple_of(mr_) && tiling.nc.is_multiple_of(nr_)
    );
    assert_eq!(
        out.len(),
        m * n,
        "matmul: output of {} elements for {m}×{n}",
        out.len()
    );
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    let out = Out::new(out, n);
    if let Some(rt) = T::rows_tiling()
        && a.cs == 1
        && a.rs >= 0
        && rows_fit(&rt, m, n, k)
        && let Some(data) = S::as_compute(a.data)
    {
        gemm_rows(
            &rt,
            (data, a.off as usize, a.rs as usize),
            b,
            m,
            n,
            k,
            out,
            threads,
        );
        return;
    }
    if threads > 1 && n >= threads * SPLIT_COLS {
        let panels = n.div_ceil(nr_);
        crate::threads::for_each(threads, |t| {
            let (q0, q1) = (bound(panels, threads, t), bound(panels, threads, t + 1));
            blocked(&tiling, a, b, m, k, out, q0 * nr_, (q1 * nr_).min(n), 1);
        });
    } else {
        blocked(&tiling, a, b, m, k, out, 0, n, threads);
    }
}

/// Whether [`gemm_rows`] computes an `m × k` by `k × n` product (when A
/// is row-major and needs no conversion). Depends on the shape only.
fn rows_fit<T>(rt: &RowsTiling<T>, m: usize, n: usize, k: usize) -> bool {
    m >= rt.mr && n >= rt.nr && k >= 64
}

/// [`gemm`] for a row-major A of the compute type, `(data, offset, row
/// stride)`, read in place instead of packed:
///
/// ```text
/// for jc in n by NC:                  (per thread: its own columns)
///   for pc in k by KC:
///     pack B[pc.., jc..]              B block  kc×nc  (L2)
///     for ir in MR rows:              A rows   MR×kc  (L1, in place)
///       for jr in NR panels:          micro-kernel on an MR×NR tile of C
/// ```
///
/// Threads split the columns (whole panels), or the rows when there are
/// too few panels; every output element is the same chain of FMAs either
/// way, its `kc` blocks depending on `k` alone.
#[allow(clippy::too_many_arguments)]
fn gemm_rows<S: Load<T>, T: GemmFloat>(
    rt: &RowsTiling<T>,
    a: (&[T], usize, usize),
    b: MatRef<'_, S>,
    m: usize,
    n: usize,
    k: usize,
    out: Out<'_, T>,
    threads: usize,
) {
    let (data, off, lda) = a;
    assert!(
        off + (m - 1) * lda + k <= data.len(),
        "matmul: a {m}×{k} matrix with row stride {lda} at offset {off} overruns its buffer of {}",
        data.len()
    );
    let (mr, nr) = (rt.mr, rt.nr);
    // Edge tiles go through a stack tile of `MAX_TILE` elements.
    assert!(mr * nr <= MAX_TILE);
    let panels = n.div_ceil(nr);
    let groups = m.div_ceil(mr);
    if threads > 1 && panels >= 2 * threads {
        crate::threads::for_each(threads, |t| {
            let (q0, q1) = (bound(panels, threads, t), bound(panels, threads, t + 1));
            rows_part(rt, a, b, (0, m), k, out, (q0 * nr, (q1 * nr).min(n)));
        });
    } else if threads > 1 && groups >= 2 * threads {
        crate::threads::for_each(threads, |t| {
            let (g0, g1) = (bound(groups, threads, t), bound(groups, threads, t + 1));
            rows_part(rt, a, b, (g0 * mr, (g1 * mr).min(m)), k, out, (0, n));
        });
    } else {
        rows_part(rt, a, b, (0, m), k, out, (0, n));
    }
}

/// Rows `r0..r1` and columns `c0..c1` of the product of [`gemm_rows`], on
/// the calling thread.
fn rows_part<S: Load<T>, T: GemmFloat>(
    rt: &RowsTiling<T>,
    (data, off, lda): (&[T], usize, usize),
    b: MatRef<'_, S>,
    (r0, r1): (usize, usize),
    k: usize,
    out: Out<'_, T>,
    (c0, c1): (usize, usize),
) {
    let (kernel, mr, nr) = (rt.kernel, rt.mr, rt.nr);
    let kc_max = max_kc(k, rt.kc);
    let nc_max = rt.nc.min((c1 - c0).div_ceil(nr) * nr);
    let mut bpack = Scratch::<T>::new(1, kc_max * nc_max);
    // The last rows when `MR` does not divide them, zero-padded.
    let mut edge = Scratch::<T>::new(0, mr * kc_max);
    for jc in (c0..c1).step_by(rt.nc) {
        let nc = rt.nc.min(c1 - jc);
        let col_panels = nc.div_ceil(nr);
        for (bi, (pc, kc)) in k_blocks(k, rt.kc).enumerate() {
            let bpack = &mut bpack.slice_mut()[..col_panels * kc * nr];
            pack_b(nr, b, pc, kc, jc, nc, 0, bpack);
            let bpack: &[T] = bpack;
            for i0 in (r0..r1).step_by(mr) {
                let rows = mr.min(r1 - i0);
                let (ap, ap_stride): (&[T], usize) = if rows == mr {
                    (&data[off + i0 * lda + pc..], lda)
                } else {
                    let e = &mut edge.slice_mut()[..mr * kc];
                    e.fill(T::default());
                    for (i, row) in e.chunks_exact_mut(kc).take(rows).enumerate() {
                        row.copy_from_slice(&data[off + (i0 + i) * lda + pc..][..kc]);
                    }
                    (e, kc)
                };
                for (q, bp) in bpack.chunks_exact(kc * nr).enumerate() {
                    let jj = jc + q * nr;
                    let cols = nr.min(jc + nc - jj);
                    if rows == mr && cols == nr {
                        let c = out.tile(i0, jj, mr, nr);
                        // SAFETY: `MR` rows of `kc` values at stride
                        // `ap_stride` are inside `ap` (the assertion of
                        // `gemm_rows`, or the padded edge copy), `bp` is a
                        // whole packed panel, the tile at `c` is inside
                        // the output (checked by `tile`) and this thread's;
                        // `kernel` came from `rows_tiling`, which checked
                        // the CPU.
                        unsafe {
                            kernel(kc, ap.as_ptr(), ap_stride, bp.as_ptr(), c, out.ldc, bi > 0)
                        };
                    } else {
                        let mut tmp = [T::default(); MAX_TILE];
                        // SAFETY: as above, with the stack tile `tmp` of
                        // row stride NR (`MR * NR <= MAX_TILE`).
                        unsafe {
                            kernel(
                                kc,
                                ap.as_ptr(),
                                ap_stride,
                                bp.as_ptr(),
                                tmp.as_mut_ptr(),
                                nr,
                                false,
                            )
                        };
                        out.put_part(&tmp, nr, (i0, jj), (rows, cols), bi > 0);
                    }
                }
            }
        }
    }
}

/// Columns `c0..c1` of the product of [`gemm`], on `threads` threads.
#[allow(clippy::too_many_arguments)]
fn blocked<S: Load<T>, T: GemmFloat>(
    tiling: &Tiling<T>,
    a: MatRef<'_, S>,
    b: MatRef<'_, S>,
    m: usize,
    k: usize,
    out: Out<'_, T>,
    c0: usize,
    c1: usize,
    threads: usize,
) {
    let (mr_, nr_) = (tiling.mr, tiling.nr);
    let n = c1 - c0;
    let parallel = threads > 1;

    // Row blocks of whole MR panels: at least enough for A blocks to fit in
    // L2, and a multiple of the thread count so the split is even. With few
    // rows, the threads split the columns instead.
    let panels = m.div_ceil(mr_);
    let min_blocks = panels.div_ceil(tiling.mc / mr_);
    let (row_blocks, col_groups) = if !parallel {
        (min_blocks, 1)
    } else if panels >= 8 * threads {
        (min_blocks.div_ceil(threads) * threads, 1)
    } else {
        (min_blocks, threads)
    };
    let block_rows = |blk: usize| {
        let (p0, p1) = (
            bound(panels, row_blocks, blk),
            bound(panels, row_blocks, blk + 1),
        );
        (p0 * mr_, (p1 * mr_).min(m) - p0 * mr_)
    };
    let max_panels = panels.div_ceil(row_blocks);
    let kc_max = max_kc(k, tiling.kc);

    let nc_max = tiling.nc.min(n.div_ceil(nr_) * nr_);
    let mut bpack = Scratch::<T>::new(1, kc_max * nc_max);

    for jc in (c0..c1).step_by(tiling.nc) {
        let nc = tiling.nc.min(c1 - jc);
        let col_panels = nc.div_ceil(nr_);
        for (bi, (pc, kc)) in k_blocks(k, tiling.kc).enumerate() {
            let bpack = &mut bpack.slice_mut()[..col_panels * kc * nr_];
            // Pack B, in chunks of up to 8 panels, at least two per thread
            // when parallel (a serial pack is a visible share of a 256³
            // product).
            let per = if parallel {
                col_panels.div_ceil(2 * threads).clamp(1, 8)
            } else {
                8
            };
            let chunk = per * kc * nr_;
            let pack = |ci: usize, d: &mut [T]| pack_b(nr_, b, pc, kc, jc, nc, ci * per, d);
            if parallel && col_panels > 1 {
                crate::threads::chunks_mut(bpack, chunk, pack);
            } else {
                bpack
                    .chunks_mut(chunk)
                    .enumerate()
                    .for_each(|(ci, d)| pack(ci, d));
            }

            let bpack: &[T] = bpack;
            run_tasks(
                row_blocks * col_groups,
                parallel,
                || Scratch::<T>::new(0, max_panels * mr_ * kc_max),
                |abuf, task| {
                    let (blk, grp) = (task / col_groups, task % col_groups);
                    let (i0, mc) = block_rows(blk);
                    let (q0, q1) = (
                        bound(col_panels, col_groups, grp),
                        bound(col_panels, col_groups, grp + 1),
                    );
                    if q0 == q1 || mc == 0 {
                        return;
                    }
                    let apack = &mut abuf.slice_mut()[..mc.div_ceil(mr_) * mr_ * kc];
                    pack_a(mr_, a, i0, mc, pc, kc, apack);
                    let j0 = q0 * nr_;
                    let ncols = (q1 * nr_).min(nc) - j0;
                    let bpanels = &bpack[q0 * kc * nr_..q1 * kc * nr_];
                    macro_kernel(
                        tiling,
                        kc,
                        apack,
                        i0,
                        mc,
                        bpanels,
                        jc + j0,
                        ncols,
                        out,
                        bi > 0,
                    );
                },
            );
        }
    }
}

/// A left operand packed once for many products with it (the weight of a
/// convolution against each block of output positions): the A blocks of
/// every `kc` block of `k`, all `m` rows each, in the micro-kernel's format.
pub(crate) struct PackedA<T> {
    panels: Vec<T>,
    m: usize,
    k: usize,
    tiling: Tiling<T>,
}

impl<T: GemmFloat + Load<T>> PackedA<T> {
    /// Packs the `m × k` matrix `(data, row stride, col stride)`.
    pub(crate) fn new(a: (&[T], usize, usize), m: usize, k: usize) -> Self {
        let tiling = T::tiling();
        let rows = m.div_ceil(tiling.mr) * tiling.mr;
        let mut panels = vec![T::default(); rows * k];
        let a = MatRef {
            data: a.0,
            off: 0,
            rs: a.1 as isize,
            cs: a.2 as isize,
        };
        for (pc, kc) in k_blocks(k, tiling.kc) {
            pack_a(
                tiling.mr,
                a,
                0,
                m,
                pc,
                kc,
                &mut panels[rows * pc..][..rows * kc],
            );
        }
        Self {
            panels,
            m,
            k,
            tiling,
        }
    }

    /// Columns of a packed B panel (the micro-kernel's width).
    pub(crate) fn nr(&self) -> usize {
        self.tiling.nr
    }

    /// Columns per [`Self::product`] call for `n` in all: whole panels
    /// (at least two, at most `n`) whose packed `kc` block is about 256 KiB
    /// of f32, so it shares L2 with the packed A.
    pub(crate) fn block_cols(&self, n: usize) -> usize {
        let kc = max_kc(self.k, self.tiling.kc).max(1);
        let nr = self.tiling.nr;
        ((1 << 16) / kc / nr * nr).max(2 * nr).min(n).max(1)
    }

    /// `out[i, j0 + j] = Σ_p A[i, p] · B[p, j]` for the `n` columns of a B
    /// block that `fill_b` writes: `fill_b(pc, kc, panels)` fills rows
    /// `pc..pc + kc` of B as `⌈n / nr⌉` panels of `kc` groups of `nr`
    /// values (element `(p, j)` at `(j / nr) · kc · nr + (p - pc) · nr +
    /// j % nr`; the columns past `n` are zero when it is called).
    /// Each output element is the same chain of FMAs as in [`gemm`].
    pub(crate) fn product(
        &self,
        n: usize,
        mut fill_b: impl FnMut(usize, usize, &mut [T]),
        out: Out<'_, T>,
        j0: usize,
    ) {
        let (mr, nr) = (self.tiling.mr, self.tiling.nr);
        let rows = self.m.div_ceil(mr) * mr;
        let panels = n.div_ceil(nr);
        let kc_max = max_kc(self.k, self.tiling.kc);
        let mut scratch = Scratch::<T>::new(1, panels * nr * kc_max);
        // Row blocks of at most `mc` rows, so an A block stays in L2.
        let mc = self.tiling.mc;
        for (bi, (pc, kc)) in k_blocks(self.k, self.tiling.kc).enumerate() {
            let bpack = &mut scratch.slice_mut()[..panels * kc * nr];
            if !n.is_multiple_of(nr) {
                bpack[(panels - 1) * kc * nr..].fill(T::default());
            }
            fill_b(pc, kc, bpack);
            let bpack: &[T] = bpack;
            let ablock = &self.panels[rows * pc..][..rows * kc];
            for i0 in (0..self.m).step_by(mc) {
                let rows_here = mc.min(self.m - i0);
                let apack = &ablock[i0 * kc..][..rows_here.div_ceil(mr) * mr * kc];
                macro_kernel(
                    &self.tiling,
                    kc,
                    apack,
                    i0,
                    rows_here,
                    bpack,
                    j0,
                    n,
                    out,
                    bi > 0,
                );
            }
        }
    }
}
