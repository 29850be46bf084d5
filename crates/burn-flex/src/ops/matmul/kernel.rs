//! Micro-kernels: `C[MR×NR] (+)= Apanel · Bpanel` over `kc` steps of packed
//! panels, with the accumulators held in registers.
//!
//! Packed formats (written by `gemm::pack_a`/`gemm::pack_b`): an A panel is
//! `kc` groups of `MR` values (column `p` of `MR` rows), a B panel is `kc`
//! groups of `NR` values (row `p` of `NR` columns). Kernels of the
//! [`RowsKernelFn`] form read A unpacked instead, `MR` rows at a stride.
//! Each output element is the chain `acc = 0; for p in 0..kc { acc = acc +
//! a[p]·b[p] }` (fused on FMA hardware), then `C = acc` or `C = C + acc`:
//! the order depends on `kc` only, never on which tile or thread computes
//! it.

/// A micro-kernel. Callers guarantee: `a` is readable for `kc * MR`
/// elements, `b` for `kc * NR`, and `c` is writable at
/// `c + i * ldc + j` for `i < MR`, `j < NR`.
pub(crate) type KernelFn<T> =
    unsafe fn(kc: usize, a: *const T, b: *const T, c: *mut T, ldc: usize, accumulate: bool);

/// A micro-kernel that reads A in place: row `i < MR` of the tile's A is
/// `kc` contiguous values at `a + i * lda`; `b` and `c` as for
/// [`KernelFn`]. The chain per output element is the same as there.
pub(crate) type RowsKernelFn<T> = unsafe fn(
    kc: usize,
    a: *const T,
    lda: usize,
    b: *const T,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
);

/// A kernel of [`RowsKernelFn`] form with its tile and block sizes.
#[derive(Clone, Copy)]
pub(crate) struct RowsTiling<T> {
    pub kernel: RowsKernelFn<T>,
    /// Rows of a tile (rows of A read together).
    pub mr: usize,
    /// Columns of a tile and of a packed B panel.
    pub nr: usize,
    /// Depth of a block: the `MR × kc` rows of A stay in L1 while a block
    /// of B panels streams from L2 past them.
    pub kc: usize,
    /// Columns of a packed B block, sized with `kc` for L2.
    pub nc: usize,
}

/// The largest `MR * NR` of any kernel (edge tiles go through a stack tile).
pub(crate) const MAX_TILE: usize = 12 * 32;
/// The largest `MR` of any kernel.
pub(crate) const MAX_MR: usize = 12;

/// A micro-kernel with its tile and the block sizes that feed it, chosen
/// once per call from what the CPU supports.
#[derive(Clone, Copy)]
pub(crate) struct Tiling<T> {
    /// The micro-kernel.
    pub kernel: KernelFn<T>,
    /// Rows of a micro-tile.
    pub mr: usize,
    /// Columns of a micro-tile.
    pub nr: usize,
    /// Rows of a packed A block (a multiple of `mr`): sized for L2.
    pub mc: usize,
    /// Depth of a packed block: a `kc × nr` B panel stays in L1.
    pub kc: usize,
    /// Columns of a packed B block (a multiple of `nr`): sized for L3.
    pub nc: usize,
}

impl<T> Tiling<T> {
    const fn new(kernel: KernelFn<T>, mr: usize, nr: usize, mc: usize, kc: usize) -> Self {
        assert!(mr <= MAX_MR && mr * nr <= MAX_TILE && mc.is_multiple_of(mr));
        Self {
            kernel,
            mr,
            nr,
            mc,
            kc,
            nc: 4096,
        }
    }
}

/// The compute types of the float GEMM.
pub(crate) trait GemmFloat:
    bytemuck::Pod
    + Default
    + Send
    + Sync
    + core::ops::Add<Output = Self>
    + core::ops::Mul<Output = Self>
    + 'static
{
    /// The fastest micro-kernel this CPU runs, with its block sizes.
    fn tiling() -> Tiling<Self>;

    /// Writes 12 rows of `kc` values as `kc` groups of 12 (an A panel of
    /// the 12-row kernels) with this CPU's vector shuffles, if this type
    /// has such a routine here; `false` leaves `dst` to the caller's
    /// portable transpose. Every row holds at least `kc` values and `dst`
    /// at least `12 * kc`.
    fn transpose_12_rows(src: &[&[Self]; 12], kc: usize, dst: &mut [Self]) -> bool {
        let _ = (src, kc, dst);
        false
    }

    /// A kernel that reads a row-major A in place, where this CPU has one
    /// for this type (see `gemm::gemm_rows`).
    fn rows_tiling() -> Option<RowsTiling<Self>> {
        None
    }
}

// The instruction set comes from the element-wise engine's detection
// (`engine::isa`, run once): its AVX-512 level implies the F subset these
// kernels use, its AVX2 level implies AVX2 + FMA.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
use crate::engine::{Isa, isa};

impl GemmFloat for f32 {
    fn tiling() -> Tiling<f32> {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            if isa() == Isa::Avx512 {
                // 24 zmm accumulators; a 256 × 32 B panel is 32 KiB (L1).
                return Tiling::new(x86::kernel_f32_12x32, 12, 32, 240, 256);
            }
            if isa() == Isa::Avx2 {
                return Tiling::new(x86::kernel_f32_6x16, 6, 16, 144, 256);
            }
        }
        #[cfg(all(
            target_arch = "x86_64",
            not(feature = "std"),
            target_feature = "avx2",
            target_feature = "fma"
        ))]
        return Tiling::new(x86::kernel_f32_6x16, 6, 16, 144, 256);
        #[allow(unreachable_code)]
        Tiling::new(portable::<f32, 6, 16>, 6, 16, 144, 256)
    }

    fn rows_tiling() -> Option<RowsTiling<f32>> {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if isa() == Isa::Avx512 {
            // 6 rows × 512 of A are 12 KiB (L1); a 512 × 256 block of B
            // is 512 KiB (L2), streamed past them in 64-column panels.
            return Some(RowsTiling {
                kernel: x86::kernel_f32_6x64_rows,
                mr: 6,
                nr: 64,
                kc: 512,
                nc: 256,
            });
        }
        None
    }

    fn transpose_12_rows(src: &[&[f32]; 12], kc: usize, dst: &mut [f32]) -> bool {
        #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
        let _ = (src, kc, dst);
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if isa() == Isa::Avx512 {
            assert!(src.iter().all(|r| r.len() >= kc) && dst.len() >= 12 * kc);
            // SAFETY: AVX-512 F is present (checked by `isa`); the lengths
            // the routine reads and writes are asserted above.
            unsafe { x86::transpose_12_rows_f32(src, kc, dst) };
            return true;
        }
        false
    }
}

impl GemmFloat for f64 {
    fn rows_tiling() -> Option<RowsTiling<f64>> {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if isa() == Isa::Avx512 {
            // As for f32: 6 rows × 512 of A (24 KiB) in L1, a 512 × 128
            // block of B (512 KiB) in L2.
            return Some(RowsTiling {
                kernel: x86::kernel_f64_6x32_rows,
                mr: 6,
                nr: 32,
                kc: 512,
                nc: 128,
            });
        }
        None
    }

    fn tiling() -> Tiling<f64> {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            if isa() == Isa::Avx512 {
                return Tiling::new(x86::kernel_f64_12x16, 12, 16, 120, 256);
            }
            if isa() == Isa::Avx2 {
                return Tiling::new(x86::kernel_f64_6x8, 6, 8, 72, 256);
            }
        }
        #[cfg(all(
            target_arch = "x86_64",
            not(feature = "std"),
            target_feature = "avx2",
            target_feature = "fma"
        ))]
        return Tiling::new(x86::kernel_f64_6x8, 6, 8, 72, 256);
        #[allow(unreachable_code)]
        Tiling::new(portable::<f64, 6, 8>, 6, 8, 72, 256)
    }
}

/// The portable micro-kernel: plain loops over a register-sized accumulator
/// array, which LLVM unrolls and vectorizes for the target's SIMD width.
///
/// # Safety
/// See [`KernelFn`].
unsafe fn portable<T: GemmFloat, const MR: usize, const NR: usize>(
    kc: usize,
    a: *const T,
    b: *const T,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
) {
    // SAFETY: the caller guarantees `a` holds `kc * MR` and `b` `kc * NR`
    // readable elements (the packed panels).
    let (a, b) = unsafe {
        (
            core::slice::from_raw_parts(a, kc * MR),
            core::slice::from_raw_parts(b, kc * NR),
        )
    };
    let mut acc = [[T::default(); NR]; MR];
    for (ap, bp) in a.chunks_exact(MR).zip(b.chunks_exact(NR)) {
        for (row, &x) in acc.iter_mut().zip(ap) {
            for (o, &y) in row.iter_mut().zip(bp) {
                *o = *o + x * y;
            }
        }
    }
    for (i, row) in acc.iter().enumerate() {
        // SAFETY: the caller guarantees row `i < MR` of the tile is writable
        // for `NR` elements at `c + i * ldc`.
        let out = unsafe { core::slice::from_raw_parts_mut(c.add(i * ldc), NR) };
        if accumulate {
            for (o, &v) in out.iter_mut().zip(row) {
                *o = *o + v;
            }
        } else {
            out.copy_from_slice(row);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// 6×16 f32 tile in 12 ymm accumulators; per step two B vectors and six
    /// broadcasts of A feed twelve FMAs (BLIS's Haswell shape).
    ///
    /// # Safety
    /// The CPU supports AVX2 and FMA (checked by `GemmFloat::tiling` before this
    /// function is handed out), and the pointer contract of
    /// [`super::KernelFn`] holds with `MR = 6`, `NR = 16`.
    // Without `std` only a build for AVX2 + FMA targets picks it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn kernel_f32_6x16(
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        accumulate: bool,
    ) {
        // Start fetching the C tile now: it is read only after the loop,
        // and with large k it has long left the caches.
        for i in 0..6 {
            // Prefetching never faults; the addresses are the tile's.
            {
                _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc) as *const i8);
                _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc + 2 * 8 - 1) as *const i8);
            }
        }
        let mut acc = [[_mm256_setzero_ps(); 2]; 6];
        let (mut a, mut b) = (a, b);
        for _ in 0..kc {
            // SAFETY: `kc` steps of 6 (A) and 16 (B) elements stay inside
            // the packed panels by the caller's contract.
            unsafe {
                let b0 = _mm256_loadu_ps(b);
                let b1 = _mm256_loadu_ps(b.add(8));
                for (i, row) in acc.iter_mut().enumerate() {
                    let x = _mm256_broadcast_ss(&*a.add(i));
                    row[0] = _mm256_fmadd_ps(x, b0, row[0]);
                    row[1] = _mm256_fmadd_ps(x, b1, row[1]);
                }
                a = a.add(6);
                b = b.add(16);
            }
        }
        for (i, row) in acc.iter().enumerate() {
            // SAFETY: row `i < 6` of the tile is writable for 16 elements
            // at `c + i * ldc` (caller's contract).
            unsafe {
                let p = c.add(i * ldc);
                let (mut v0, mut v1) = (row[0], row[1]);
                if accumulate {
                    v0 = _mm256_add_ps(_mm256_loadu_ps(p), v0);
                    v1 = _mm256_add_ps(_mm256_loadu_ps(p.add(8)), v1);
                }
                _mm256_storeu_ps(p, v0);
                _mm256_storeu_ps(p.add(8), v1);
            }
        }
    }

    /// 6×8 f64 tile: the f32 kernel's shape with 4-lane vectors.
    ///
    /// # Safety
    /// As [`kernel_f32_6x16`], with `MR = 6`, `NR = 8`.
    // Without `std` only a build for AVX2 + FMA targets picks it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn kernel_f64_6x8(
        kc: usize,
        a: *const f64,
        b: *const f64,
        c: *mut f64,
        ldc: usize,
        accumulate: bool,
    ) {
        // Start fetching the C tile now: it is read only after the loop,
        // and with large k it has long left the caches.
        for i in 0..6 {
            // Prefetching never faults; the addresses are the tile's.
            {
                _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc) as *const i8);
                _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc + 2 * 4 - 1) as *const i8);
            }
        }
        let mut acc = [[_mm256_setzero_pd(); 2]; 6];
        let (mut a, mut b) = (a, b);
        for _ in 0..kc {
            // SAFETY: `kc` steps of 6 (A) and 8 (B) elements stay inside the
            // packed panels by the caller's contract.
            unsafe {
                let b0 = _mm256_loadu_pd(b);
                let b1 = _mm256_loadu_pd(b.add(4));
                for (i, row) in acc.iter_mut().enumerate() {
                    let x = _mm256_broadcast_sd(&*a.add(i));
                    row[0] = _mm256_fmadd_pd(x, b0, row[0]);
                    row[1] = _mm256_fmadd_pd(x, b1, row[1]);
                }
                a = a.add(6);
                b = b.add(8);
            }
        }
        for (i, row) in acc.iter().enumerate() {
            // SAFETY: row `i < 6` of the tile is writable for 8 elements at
            // `c + i * ldc` (caller's contract).
            unsafe {
                let p = c.add(i * ldc);
                let (mut v0, mut v1) = (row[0], row[1]);
                if accumulate {
                    v0 = _mm256_add_pd(_mm256_loadu_pd(p), v0);
                    v1 = _mm256_add_pd(_mm256_loadu_pd(p.add(4)), v1);
                }
                _mm256_storeu_pd(p, v0);
                _mm256_storeu_pd(p.add(4), v1);
            }
        }
    }
    /// 12×32 f32 tile in 24 zmm accumulators; per step two B vectors and
    /// twelve broadcasts of A feed 24 FMAs, enough independent chains to
    /// keep two FMA units busy through their latency.
    ///
    /// # Safety
    /// The CPU supports AVX-512F (checked by `GemmFloat::tiling` before this
    /// function is handed out), and the pointer contract of
    /// [`super::KernelFn`] holds with `MR = 12`, `NR = 32`.
    // Picked by run-time detection only, which needs `std`.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn kernel_f32_12x32(
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        accumulate: bool,
    ) {
        for i in 0..12 {
            // Prefetching never faults; the addresses are the tile's.
            _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc + 31) as *const i8);
        }
        let mut acc = [[_mm512_setzero_ps(); 2]; 12];
        let (mut a, mut b) = (a, b);
        for _ in 0..kc {
            // SAFETY: `kc` steps of 12 (A) and 32 (B) elements stay inside
            // the packed panels by the caller's contract.
            unsafe {
                let b0 = _mm512_loadu_ps(b);
                let b1 = _mm512_loadu_ps(b.add(16));
                for (i, row) in acc.iter_mut().enumerate() {
                    let x = _mm512_set1_ps(*a.add(i));
                    row[0] = _mm512_fmadd_ps(x, b0, row[0]);
                    row[1] = _mm512_fmadd_ps(x, b1, row[1]);
                }
                a = a.add(12);
                b = b.add(32);
            }
        }
        for (i, row) in acc.iter().enumerate() {
            // SAFETY: row `i < 12` of the tile is writable for 32 elements
            // at `c + i * ldc` (caller's contract).
            unsafe {
                let p = c.add(i * ldc);
                let (mut v0, mut v1) = (row[0], row[1]);
                if accumulate {
                    v0 = _mm512_add_ps(_mm512_loadu_ps(p), v0);
                    v1 = _mm512_add_ps(_mm512_loadu_ps(p.add(16)), v1);
                }
                _mm512_storeu_ps(p, v0);
                _mm512_storeu_ps(p.add(16), v1);
            }
        }
    }

    /// Defines an in-place kernel of [`super::RowsKernelFn`] form: a 6-row
    /// tile of four vectors a row (24 zmm accumulators); per step four B
    /// vectors and six broadcasts, one from each row of A, feed 24 FMAs.
    /// The `k` loop is unrolled by four (not unrolled, the f32 path was
    /// slower than packing A).
    macro_rules! rows_kernel {
        (
            $(#[$doc:meta])*
            $name:ident, $t:ty, $v:ty, $lanes:literal,
            $zero:ident, $load:ident, $set1:ident, $fma:ident, $add:ident, $store:ident
        ) => {
            $(#[$doc])*
            // Picked by run-time detection only, which needs `std`.
            #[cfg_attr(not(feature = "std"), allow(dead_code))]
            #[target_feature(enable = "avx512f")]
            pub(super) unsafe fn $name(
                kc: usize,
                a: *const $t,
                lda: usize,
                b: *const $t,
                c: *mut $t,
                ldc: usize,
                accumulate: bool,
            ) {
                const NR: usize = 4 * $lanes;
                for i in 0..6 {
                    for v in 0..4 {
                        // Prefetching never faults; the addresses are the tile's.
                        _mm_prefetch::<_MM_HINT_T0>(
                            c.wrapping_add(i * ldc + $lanes * v) as *const i8,
                        );
                    }
                }
                let rows: [*const $t; 6] = core::array::from_fn(|i| a.wrapping_add(i * lda));
                let mut acc = [[$zero(); 4]; 6];
                let step = |acc: &mut [[$v; 4]; 6], p: usize| {
                    // SAFETY: `kc` steps of NR (B) elements stay inside the
                    // packed panel, and `p < kc` values of each row of A
                    // are readable, by the caller's contract.
                    unsafe {
                        let bp = b.add(NR * p);
                        let bv = [
                            $load(bp),
                            $load(bp.add($lanes)),
                            $load(bp.add(2 * $lanes)),
                            $load(bp.add(3 * $lanes)),
                        ];
                        for (row, r) in acc.iter_mut().zip(&rows) {
                            let x = $set1(*r.add(p));
                            for (o, &y) in row.iter_mut().zip(&bv) {
                                *o = $fma(x, y, *o);
                            }
                        }
                    }
                };
                let mut p = 0;
                while p + 4 <= kc {
                    step(&mut acc, p);
                    step(&mut acc, p + 1);
                    step(&mut acc, p + 2);
                    step(&mut acc, p + 3);
                    p += 4;
                }
                while p < kc {
                    step(&mut acc, p);
                    p += 1;
                }
                for (i, row) in acc.iter().enumerate() {
                    // SAFETY: row `i < 6` of the tile is writable for NR
                    // elements at `c + i * ldc` (caller's contract).
                    unsafe {
                        let p = c.add(i * ldc);
                        for (v, &x) in row.iter().enumerate() {
                            let x = if accumulate { $add($load(p.add($lanes * v)), x) } else { x };
                            $store(p.add($lanes * v), x);
                        }
                    }
                }
            }
        };
    }

    rows_kernel!(
        /// 6×64 f32 tile, A read in place.
        ///
        /// # Safety
        /// The CPU supports AVX-512F (checked by `GemmFloat::rows_tiling`
        /// before this function is handed out), and the pointer contract
        /// of [`super::RowsKernelFn`] holds with `MR = 6`, `NR = 64`.
        kernel_f32_6x64_rows, f32, __m512, 16,
        _mm512_setzero_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps,
        _mm512_storeu_ps
    );

    rows_kernel!(
        /// 6×32 f64 tile, A read in place.
        ///
        /// # Safety
        /// As [`kernel_f32_6x64_rows`], with `MR = 6`, `NR = 32`.
        kernel_f64_6x32_rows, f64, __m512d, 8,
        _mm512_setzero_pd, _mm512_loadu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd,
        _mm512_storeu_pd
    );

    /// `dst[p * 12 + i] = src[i][p]` for `p < kc`: 16 columns at a time,
    /// each group of four rows goes through an in-lane 4×4 transpose (four
    /// 4×4 blocks a register), and each 128-bit lane is stored as the four
    /// values of one column; the last `kc % 16` columns go one by one.
    /// (The portable transpose, compiled for baseline x86-64, moved one
    /// float at a time: packing A was a fifth of a batch of 128³ products.)
    ///
    /// # Safety
    /// The CPU supports AVX-512 F; every row holds at least `kc` values and
    /// `dst` at least `12 * kc`.
    // Picked by run-time detection only, which needs `std`.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn transpose_12_rows_f32(src: &[&[f32]; 12], kc: usize, dst: &mut [f32]) {
        let full = kc / 16 * 16;
        let out = dst.as_mut_ptr();
        for p in (0..full).step_by(16) {
            for g in 0..3 {
                // SAFETY: `p + 16 <= kc` values of each row and the 16
                // groups of 12 from `p * 12` are in bounds (the caller's
                // lengths).
                unsafe {
                    let row = |i: usize| _mm512_loadu_ps(src[4 * g + i].as_ptr().add(p));
                    let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
                    // Per 128-bit lane L (columns 4L..4L+4):
                    // t0 = r0[0] r1[0] r0[1] r1[1], t1 = r0[2] r1[2] r0[3] r1[3], ...
                    let t0 = _mm512_castps_pd(_mm512_unpacklo_ps(r0, r1));
                    let t1 = _mm512_castps_pd(_mm512_unpackhi_ps(r0, r1));
                    let t2 = _mm512_castps_pd(_mm512_unpacklo_ps(r2, r3));
                    let t3 = _mm512_castps_pd(_mm512_unpackhi_ps(r2, r3));
                    // c[j] lane L = rows 0..4 of column 4L + j.
                    let c = [
                        _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2)),
                        _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2)),
                        _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3)),
                        _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3)),
                    ];
                    let at = |col: usize| out.add((p + col) * 12 + 4 * g);
                    for (j, v) in c.into_iter().enumerate() {
                        _mm_storeu_ps(at(j), _mm512_extractf32x4_ps::<0>(v));
                        _mm_storeu_ps(at(4 + j), _mm512_extractf32x4_ps::<1>(v));
                        _mm_storeu_ps(at(8 + j), _mm512_extractf32x4_ps::<2>(v));
                        _mm_storeu_ps(at(12 + j), _mm512_extractf32x4_ps::<3>(v));
                    }
                }
            }
        }
        for p in full..kc {
            for (i, r) in src.iter().enumerate() {
                dst[p * 12 + i] = r[p];
            }
        }
    }

    /// 12×16 f64 tile: the f32 AVX-512 kernel's shape with 8-lane vectors.
    ///
    /// # Safety
    /// As [`kernel_f32_12x32`], with `MR = 12`, `NR = 16`.
    // Picked by run-time detection only, which needs `std`.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn kernel_f64_12x16(
        kc: usize,
        a: *const f64,
        b: *const f64,
        c: *mut f64,
        ldc: usize,
        accumulate: bool,
    ) {
        for i in 0..12 {
            // Prefetching never faults; the addresses are the tile's.
            _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(c.wrapping_add(i * ldc + 15) as *const i8);
        }
        let mut acc = [[_mm512_setzero_pd(); 2]; 12];
        let (mut a, mut b) = (a, b);
        for _ in 0..kc {
            // SAFETY: `kc` steps of 12 (A) and 16 (B) elements stay inside
            // the packed panels by the caller's contract.
            unsafe {
                let b0 = _mm512_loadu_pd(b);
                let b1 = _mm512_loadu_pd(b.add(8));
                for (i, row) in acc.iter_mut().enumerate() {
                    let x = _mm512_set1_pd(*a.add(i));
                    row[0] = _mm512_fmadd_pd(x, b0, row[0]);
                    row[1] = _mm512_fmadd_pd(x, b1, row[1]);
                }
                a = a.add(12);
                b = b.add(16);
            }
        }
        for (i, row) in acc.iter().enumerate() {
            // SAFETY: row `i < 12` of the tile is writable for 16 elements
            // at `c + i * ldc` (caller's contract).
            unsafe {
                let p = c.add(i * ldc);
                let (mut v0, mut v1) = (row[0], row[1]);
                if accumulate {
                    v0 = _mm512_add_pd(_mm512_loadu_pd(p), v0);
                    v1 = _mm512_add_pd(_mm512_loadu_pd(p.add(8)), v1);
                }
                _mm512_storeu_pd(p, v0);
                _mm512_storeu_pd(p.add(8), v1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Runs `kernel` on small-integer panels (exact in any summation order)
    /// into a tile with a row stride wider than NR; checks every element,
    /// that the gap between rows is untouched, and accumulation.
    fn check<T: GemmFloat + From<i8> + PartialEq + core::fmt::Debug>(
        kernel: KernelFn<T>,
        mr: usize,
        nr: usize,
    ) {
        let kc = 37;
        let val = |i: usize| T::from((i % 7) as i8 - 3);
        let a: Vec<T> = (0..kc * mr).map(val).collect();
        let b: Vec<T> = (0..kc * nr).map(|i| val(i * 5 + 1)).collect();
        let ldc = nr + 3;
        let mut c = alloc::vec![T::from(1); mr * ldc];
        for accumulate in [false, true] {
            // SAFETY: `a`, `b` hold `kc` groups; `c` holds `mr` rows of `ldc >= nr`.
            unsafe { kernel(kc, a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), ldc, accumulate) };
            for i in 0..mr {
                for j in 0..ldc {
                    let mut product = T::default();
                    for p in (0..kc).filter(|_| j < nr) {
                        product = product + a[p * mr + i] * b[p * nr + j];
                    }
                    // The first pass stores the product, the second adds it
                    // again; the gap past `nr` keeps its 1.
                    let expected = match (j < nr, accumulate) {
                        (false, _) => T::from(1),
                        (true, false) => product,
                        (true, true) => product + product,
                    };
                    assert_eq!(
                        c[i * ldc + j],
                        expected,
                        "tile ({i}, {j}), accumulate {accumulate}"
                    );
                }
            }
        }
    }

    #[test]
    fn portable_kernels() {
        check::<f32>(portable::<f32, 6, 16>, 6, 16);
        check::<f64>(portable::<f64, 6, 8>, 6, 8);
    }

    #[test]
    fn selected_kernels() {
        let (t32, t64) = (f32::tiling(), f64::tiling());
        check::<f32>(t32.kernel, t32.mr, t32.nr);
        check::<f64>(t64.kernel, t64.mr, t64.nr);
    }

    /// The vector transpose of A panels against its definition: every
    /// column count around the 16-column step, rows longer than `kc`, and
    /// nothing written past `12 * kc`.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn transpose_12_rows_matches_definition() {
        if isa() != Isa::Avx512 {
            return;
        }
        for kc in [0usize, 1, 4, 15, 16, 17, 31, 32, 33, 100, 256] {
            let rows: Vec<Vec<f32>> = (0..12)
                .map(|i| (0..kc + 5).map(|p| (i * 1000 + p) as f32).collect())
                .collect();
            let src: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
            let src: &[&[f32]; 12] = src.as_slice().try_into().unwrap();
            let mut dst = alloc::vec![-1.0f32; 12 * kc + 7];
            assert!(f32::transpose_12_rows(src, kc, &mut dst));
            for p in 0..kc {
                for i in 0..12 {
                    assert_eq!(
                        dst[p * 12 + i],
                        (i * 1000 + p) as f32,
                        "kc {kc}, column {p}, row {i}"
                    );
                }
            }
            assert!(
                dst[12 * kc..].iter().all(|&v| v == -1.0),
                "kc {kc}: wrote past the panel"
            );
        }
    }

    /// Every kernel this CPU can run, not only the selected one.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn x86_kernels() {
        if isa() != Isa::Portable {
            check::<f32>(x86::kernel_f32_6x16, 6, 16);
            check::<f64>(x86::kernel_f64_6x8, 6, 8);
        }
        if isa() == Isa::Avx512 {
            check::<f32>(x86::kernel_f32_12x32, 12, 32);
            check::<f64>(x86::kernel_f64_12x16, 12, 16);
        }
    }
}
