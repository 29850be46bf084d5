//! Householder QR, `A = Q·R`, blocked with the compact WY form.
//!
//! Each panel of `NB` columns is reduced by `NB` reflectors
//! `H_j = I − τ_j v_j v_jᵀ`; their product is `I − V·T·Vᵀ` with `T` upper
//! triangular (LAPACK's `larft`), so the trailing matrix is updated by two
//! `gemm`s, `W = Vᵀ·A2` and `A2 -= V·(Tᵀ·W)`, instead of `NB` rank-1 passes.
//! `Q` is accumulated from the identity the same way, panels in reverse.

use super::gemm::{View, gemm, gemm_par};

const NB: usize = 32;

/// One panel's reflectors: `V` (`rows × nb`, unit diagonal, zeros above)
/// and `T` (`nb × nb` upper triangular).
struct Block {
    j0: usize,
    nb: usize,
    v: Vec<f64>,
    t: Vec<f64>,
}

/// `(Q, R)` of an `m × n` matrix: `Q` is `m × q` (`q = m` or `min(m, n)`),
/// `R` is `q × n` (`R`'s rows past `min(m, n)` are zero).
pub(crate) fn factor(mut a: Vec<f64>, m: usize, n: usize, q: usize) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    let mut blocks = Vec::new();
    for j0 in (0..k).step_by(NB) {
        let j1 = (j0 + NB).min(k);
        let nb = j1 - j0;
        let rows = m - j0;
        let mut tau = vec![0.0; nb];
        // Unblocked panel.
        for j in j0..j1 {
            tau[j - j0] = reflector(&mut a, n, m, j);
            let t = tau[j - j0];
            if t == 0.0 || j + 1 == j1 {
                continue;
            }
            // w = vᵀ·A[j.., j+1..j1]; A -= τ·v·wᵀ.
            let mut w = a[j * n + j + 1..j * n + j1].to_vec();
            for i in j + 1..m {
                let vi = a[i * n + j];
                for (x, &y) in w.iter_mut().zip(&a[i * n + j + 1..i * n + j1]) {
                    *x += vi * y;
                }
            }
            for (x, &y) in a[j * n + j + 1..j * n + j1].iter_mut().zip(&w) {
                *x -= t * y;
            }
            for i in j + 1..m {
                let s = t * a[i * n + j];
                for (x, &y) in a[i * n + j + 1..i * n + j1].iter_mut().zip(&w) {
                    *x -= s * y;
                }
            }
        }
        // V, explicit.
        let mut v = vec![0.0; rows * nb];
        for i in 0..rows {
            for c in 0..nb {
                v[i * nb + c] = match i.cmp(&c) {
                    std::cmp::Ordering::Less => 0.0,
                    std::cmp::Ordering::Equal => 1.0,
                    std::cmp::Ordering::Greater => a[(j0 + i) * n + j0 + c],
                };
            }
        }
        let t = triangular_factor(&v, rows, nb, &tau);
        if j1 < n {
            apply_transpose(&v, &t, rows, nb, &mut a[j0 * n + j1..], n - j1, n);
        }
        blocks.push(Block { j0, nb, v, t });
    }
    // R: the upper triangle of the first q rows.
    let mut r = vec![0.0; q * n];
    for i in 0..q.min(k) {
        r[i * n + i..i * n + n].copy_from_slice(&a[i * n + i..i * n + n]);
    }
    // Q = H_0·…·H_{k−1}·I[:, :q], panels applied last to first.
    let mut qm = vec![0.0; m * q];
    for i in 0..q.min(m) {
        qm[i * q + i] = 1.0;
    }
    for b in blocks.iter().rev() {
        let rows = m - b.j0;
        apply(&b.v, &b.t, rows, b.nb, &mut qm[b.j0 * q..], q, q);
    }
    (qm, r)
}

/// Householder reflector zeroing `A[j+1.., j]` (LAPACK's `larfg`): stores
/// `β` at `A[j, j]`, `v[1..]` below it, returns `τ`.
fn reflector(a: &mut [f64], n: usize, m: usize, j: usize) -> f64 {
    let alpha = a[j * n + j];
    let mut scale = 0.0f64;
    for i in j + 1..m {
        scale = scale.max(a[i * n + j].abs());
    }
    if scale == 0.0 {
        return 0.0;
    }
    // Scaled sum of squares: no overflow for huge entries.
    let mut ss = 0.0;
    for i in j + 1..m {
        let x = a[i * n + j] / scale;
        ss += x * x;
    }
    let xnorm = scale * ss.sqrt();
    let beta = -alpha.signum() * alpha.hypot(xnorm);
    let tau = (beta - alpha) / beta;
    let inv = 1.0 / (alpha - beta);
    for i in j + 1..m {
        a[i * n + j] *= inv;
    }
    a[j * n + j] = beta;
    tau
}

/// `T` with `H_0·…·H_{nb−1} = I − V·T·Vᵀ`: `T_jj = τ_j`,
/// `T[..j, j] = −τ_j·T[..j, ..j]·(V[:, ..j]ᵀ·v_j)`.
fn triangular_factor(v: &[f64], rows: usize, nb: usize, tau: &[f64]) -> Vec<f64> {
    let mut t = vec![0.0; nb * nb];
    // G = VᵀV (only the strict upper part is used).
    let mut g = vec![0.0; nb * nb];
    gemm(
        nb,
        nb,
        rows,
        1.0,
        View::new(v, 1, nb),
        View::new(v, nb, 1),
        &mut g,
        nb,
    );
    for j in 0..nb {
        t[j * nb + j] = tau[j];
        for i in 0..j {
            let mut s = 0.0;
            for p in i..j {
                s += t[i * nb + p] * g[p * nb + j];
            }
            t[i * nb + j] = -tau[j] * s;
        }
    }
    t
}

/// `C ← (I − V·T·Vᵀ)ᵀ·C = C − V·(Tᵀ·(Vᵀ·C))` for `C` of `rows × cols`.
fn apply_transpose(
    v: &[f64],
    t: &[f64],
    rows: usize,
    nb: usize,
    c: &mut [f64],
    cols: usize,
    ldc: usize,
) {
    apply_impl(v, t, rows, nb, c, cols, ldc, true);
}

/// `C ← (I − V·T·Vᵀ)·C = C − V·(T·(Vᵀ·C))`.
fn apply(v: &[f64], t: &[f64], rows: usize, nb: usize, c: &mut [f64], cols: usize, ldc: usize) {
    apply_impl(v, t, rows, nb, c, cols, ldc, false);
}

#[allow(clippy::too_many_arguments)]
fn apply_impl(
    v: &[f64],
    t: &[f64],
    rows: usize,
    nb: usize,
    c: &mut [f64],
    cols: usize,
    ldc: usize,
    transpose: bool,
) {
    if cols == 0 {
        return;
    }
    let mut w = vec![0.0; nb * cols];
    gemm_par(
        nb,
        cols,
        rows,
        1.0,
        View::new(v, 1, nb),
        View::new(c, ldc, 1),
        &mut w,
        cols,
    );
    // W ← T·W or Tᵀ·W (T upper triangular, nb small).
    let mut tw = vec![0.0; nb * cols];
    for i in 0..nb {
        let out = &mut tw[i * cols..i * cols + cols];
        let range = if transpose { 0..i + 1 } else { i..nb };
        for p in range {
            let s = if transpose {
                t[p * nb + i]
            } else {
                t[i * nb + p]
            };
            if s != 0.0 {
                for (o, &x) in out.iter_mut().zip(&w[p * cols..p * cols + cols]) {
                    *o += s * x;
                }
            }
        }
    }
    gemm_par(
        rows,
        cols,
        nb,
        -1.0,
        View::new(v, nb, 1),
        View::new(&tw, cols, 1),
        c,
        ldc,
    );
}
