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
    if m.max(n) <= SMALL {
        return factor_small(&a, m, n, q);
    }
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

/// Matrices up to this size skip the blocking: the panels' packing and
/// triangular factors cost more than they save on a matrix that fits in L1.
const SMALL: usize = 96;

/// [`factor`] unblocked, on a column-major copy so that every reflector and
/// every update runs along contiguous columns (LAPACK's `geqr2` and
/// `org2r`).
fn factor_small(a: &[f64], m: usize, n: usize, q: usize) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    // Column c of A is cols[c * m..(c + 1) * m].
    let mut cols = vec![0.0; m * n];
    for i in 0..m {
        for c in 0..n {
            cols[c * m + i] = a[i * n + c];
        }
    }
    let mut tau = vec![0.0; k];
    for j in 0..k {
        let (head, tail) = cols.split_at_mut((j + 1) * m);
        let v = &mut head[j * m + j..j * m + m];
        tau[j] = column_reflector(v);
        let t = tau[j];
        if t == 0.0 {
            continue;
        }
        let beta = v[0];
        v[0] = 1.0;
        for c in 0..n - j - 1 {
            let x = &mut tail[c * m + j..c * m + m];
            let s = t * dot(v, x);
            axpy(-s, v, x);
        }
        v[0] = beta;
    }
    let mut r = vec![0.0; q * n];
    for i in 0..q.min(k) {
        for c in i..n {
            r[i * n + c] = cols[c * m + i];
        }
    }
    // Q's columns from the identity's, reflectors applied last to first;
    // column c < j is untouched by H_j (its entries from row j on are 0).
    let mut qc = vec![0.0; q * m];
    for c in 0..q.min(m) {
        qc[c * m + c] = 1.0;
    }
    let mut v = vec![0.0; m];
    for j in (0..k).rev() {
        let t = tau[j];
        if t == 0.0 {
            continue;
        }
        v[j] = 1.0;
        v[j + 1..m].copy_from_slice(&cols[j * m + j + 1..j * m + m]);
        for c in j..q {
            let x = &mut qc[c * m + j..c * m + m];
            let s = t * dot(&v[j..m], x);
            axpy(-s, &v[j..m], x);
        }
    }
    let mut qm = vec![0.0; m * q];
    for c in 0..q {
        for i in 0..m {
            qm[i * q + c] = qc[c * m + i];
        }
    }
    (qm, r)
}

/// [`reflector`] on a contiguous column `x` (`x[0]` the diagonal entry).
fn column_reflector(x: &mut [f64]) -> f64 {
    let alpha = x[0];
    let scale = x[1..].iter().fold(0.0f64, |s, v| s.max(v.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    let ss: f64 = x[1..].iter().map(|v| (v / scale) * (v / scale)).sum();
    let xnorm = scale * ss.sqrt();
    let beta = -alpha.signum() * alpha.hypot(xnorm);
    let tau = (beta - alpha) / beta;
    let inv = 1.0 / (alpha - beta);
    for v in &mut x[1..] {
        *v *= inv;
    }
    x[0] = beta;
    tau
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    // Four partial sums: independent FMA chains the compiler vectorizes.
    let mut acc = [0.0f64; 4];
    let (a4, ar) = a.split_at(a.len() / 4 * 4);
    let (b4, br) = b.split_at(a4.len());
    for (x, y) in a4.chunks_exact(4).zip(b4.chunks_exact(4)) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: f64 = ar.iter().zip(br).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += alpha * x;
    }
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
