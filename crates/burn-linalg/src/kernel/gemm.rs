//! `C += alpha · A · B` on row-major f64 blocks with arbitrary strides: the
//! one level-3 primitive every blocked factorization here spends its time in.
//!
//! The layout follows the BLIS recipe at a small scale: `B` is packed into
//! `KC × NR` column strips, `A` into `MR × KC` row strips (so a transposed
//! operand costs nothing but a different stride at packing time), and a
//! `MR × NR = 4 × 8` register tile accumulates `KC` rank-1 updates. The tile
//! is plain Rust over fixed-size arrays; compiled with AVX2+FMA enabled (the
//! wrapper below, picked once at run time) LLVM keeps the 32 accumulators in
//! eight ymm registers. Without AVX2 the same code runs with SSE2.

const MR: usize = 4;
const NR: usize = 8;
const KC: usize = 256;
const MC: usize = 128;
const NC: usize = 2048;

/// A read-only strided matrix view: element `(i, j)` is `data[i·rs + j·cs]`.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub data: &'a [f64],
    pub rs: usize,
    pub cs: usize,
}

impl<'a> View<'a> {
    pub fn new(data: &'a [f64], rs: usize, cs: usize) -> Self {
        Self { data, rs, cs }
    }

    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.rs + j * self.cs]
    }
}

/// `c[i·ldc + j] += alpha · Σ_p a(i, p)·b(p, j)` for `i < m`, `j < n`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm(
    m: usize,
    n: usize,
    k: usize,
    alpha: f64,
    a: View<'_>,
    b: View<'_>,
    c: &mut [f64],
    ldc: usize,
) {
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    // Small products: the packing would cost more than it saves.
    if m * n * k < 16 * 16 * 16 {
        for i in 0..m {
            let row = &mut c[i * ldc..i * ldc + n];
            for p in 0..k {
                let s = alpha * a.at(i, p);
                if s != 0.0 {
                    for (j, cij) in row.iter_mut().enumerate() {
                        *cij += s * b.at(p, j);
                    }
                }
            }
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above),
            // which is all `gemm_avx2` requires beyond safe Rust.
            unsafe { gemm_avx2(m, n, k, alpha, a, b, c, ldc) };
            return;
        }
    }
    gemm_generic(m, n, k, alpha, a, b, c, ldc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_avx2(
    m: usize,
    n: usize,
    k: usize,
    alpha: f64,
    a: View<'_>,
    b: View<'_>,
    c: &mut [f64],
    ldc: usize,
) {
    gemm_generic(m, n, k, alpha, a, b, c, ldc);
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_generic(
    m: usize,
    n: usize,
    k: usize,
    alpha: f64,
    a: View<'_>,
    b: View<'_>,
    c: &mut [f64],
    ldc: usize,
) {
    // Sized to the problem: small products must not pay for zeroing the
    // full MC × KC and KC × NC panels.
    let kc_max = KC.min(k);
    let mut bpack = vec![0.0f64; kc_max * NC.min(n.next_multiple_of(NR))];
    let mut apack = vec![0.0f64; kc_max * MC.min(m.next_multiple_of(MR))];
    for jc in (0..n).step_by(NC) {
        let nc = NC.min(n - jc);
        for pc in (0..k).step_by(KC) {
            let kc = KC.min(k - pc);
            pack_b(&b, pc, jc, kc, nc, &mut bpack);
            for ic in (0..m).step_by(MC) {
                let mc = MC.min(m - ic);
                pack_a(&a, ic, pc, mc, kc, alpha, &mut apack);
                for jr in (0..nc).step_by(NR) {
                    let nr = NR.min(nc - jr);
                    let bp = &bpack[jr * kc..jr * kc + kc * NR];
                    for ir in (0..mc).step_by(MR) {
                        let mr = MR.min(mc - ir);
                        let ap = &apack[ir * kc..ir * kc + kc * MR];
                        let acc = tile(ap, bp, kc);
                        let base = (ic + ir) * ldc + jc + jr;
                        for (ii, acc_row) in acc.iter().enumerate().take(mr) {
                            let row = &mut c[base + ii * ldc..base + ii * ldc + nr];
                            for (cij, v) in row.iter_mut().zip(acc_row) {
                                *cij += v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The register tile: `MR × NR` accumulators, `kc` rank-1 updates.
#[inline(always)]
fn tile(ap: &[f64], bp: &[f64], kc: usize) -> [[f64; NR]; MR] {
    let mut acc = [[0.0f64; NR]; MR];
    for (a, b) in ap.chunks_exact(MR).zip(bp.chunks_exact(NR)).take(kc) {
        let b: &[f64; NR] = b.try_into().unwrap();
        for (acc_row, &ai) in acc.iter_mut().zip(a) {
            for (x, &bj) in acc_row.iter_mut().zip(b) {
                *x = ai.mul_add(bj, *x);
            }
        }
    }
    acc
}

/// Packs `A[i0.., p0..]` (`mc × kc`, times `alpha`) into `MR`-row strips,
/// each stored column by column; short strips are zero-padded.
fn pack_a(a: &View<'_>, i0: usize, p0: usize, mc: usize, kc: usize, alpha: f64, out: &mut [f64]) {
    for ir in (0..mc).step_by(MR) {
        let strip = &mut out[ir * kc..ir * kc + kc * MR];
        let mr = MR.min(mc - ir);
        for p in 0..kc {
            for ii in 0..MR {
                strip[p * MR + ii] = if ii < mr {
                    alpha * a.at(i0 + ir + ii, p0 + p)
                } else {
                    0.0
                };
            }
        }
    }
}

/// Packs `B[p0.., j0..]` (`kc × nc`) into `NR`-column strips, each stored
/// row by row; short strips are zero-padded.
fn pack_b(b: &View<'_>, p0: usize, j0: usize, kc: usize, nc: usize, out: &mut [f64]) {
    for jr in (0..nc).step_by(NR) {
        let strip = &mut out[jr * kc..jr * kc + kc * NR];
        let nr = NR.min(nc - jr);
        for p in 0..kc {
            let dst = &mut strip[p * NR..p * NR + NR];
            if b.cs == 1 {
                let src = (p0 + p) * b.rs + j0 + jr;
                dst[..nr].copy_from_slice(&b.data[src..src + nr]);
            } else {
                for (jj, d) in dst.iter_mut().enumerate().take(nr) {
                    *d = b.at(p0 + p, j0 + jr + jj);
                }
            }
            dst[nr..].fill(0.0);
        }
    }
}

/// [`gemm`] with the rows of `C` split over two threads when the product is
/// large enough to pay for a thread.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_par(
    m: usize,
    n: usize,
    k: usize,
    alpha: f64,
    a: View<'_>,
    b: View<'_>,
    c: &mut [f64],
    ldc: usize,
) {
    let threads = crate::kernel::threads();
    if threads < 2 || m * n * k < 96 * 96 * 96 || m < 2 * MR {
        gemm(m, n, k, alpha, a, b, c, ldc);
        return;
    }
    let half = (m / 2).next_multiple_of(MR).min(m);
    let (top, bottom) = c.split_at_mut(half * ldc);
    let a_bottom = View::new(&a.data[half * a.rs..], a.rs, a.cs);
    std::thread::scope(|s| {
        s.spawn(|| gemm(half, n, k, alpha, a, b, top, ldc));
        gemm(m - half, n, k, alpha, a_bottom, b, bottom, ldc);
    });
}
