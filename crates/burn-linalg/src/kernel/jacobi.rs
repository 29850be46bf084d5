//! Jacobi methods: one-sided (Hestenes) SVD and cyclic symmetric eigen-
//! decomposition. Both reach full relative accuracy on well-scaled input
//! and need no bidiagonal/tridiagonal machinery; at O(n³) per sweep and
//! ~6–12 sweeps they are slower than LAPACK's Golub–Kahan / QR routes,
//! which is the trade this crate takes for these two.

/// The sweep limit where the caller gives none (`eigh`, the singular values
/// of `matrix_norm`, `det`'s gradient): far above the ~6–12 sweeps Jacobi
/// needs, so reaching it means the input is not finite.
pub(crate) const MAX_SWEEPS: usize = 60;

/// Thin SVD of an `m × n` matrix, `m ≥ n`: `(U m×n, σ n, V n×n)`, σ
/// descending, all row-major. Columns of `U` for zero σ are completed to an
/// orthonormal set.
///
/// At most `max_sweeps` sweeps; it stops after the first sweep with no
/// rotation. Unconverged, `A·V = U·diag(σ)` still holds (each rotation
/// acts on `A·V` and `V` alike), only `U`'s columns are not orthogonal.
pub(crate) fn svd_tall(
    a: &[f64],
    m: usize,
    n: usize,
    max_sweeps: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    // Work on Aᵀ so each column of A is a contiguous row.
    let mut at = vec![0.0; n * m];
    for i in 0..m {
        for j in 0..n {
            at[j * m + i] = a[i * n + j];
        }
    }
    let mut vt = vec![0.0; n * n];
    for j in 0..n {
        vt[j * n + j] = 1.0;
    }
    let tol = m as f64 * super::EPS;
    for _ in 0..max_sweeps {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (alpha, beta, gamma) = {
                    let (x, y) = (&at[p * m..p * m + m], &at[q * m..q * m + m]);
                    let mut s = (0.0, 0.0, 0.0);
                    for (a, b) in x.iter().zip(y) {
                        s.0 += a * a;
                        s.1 += b * b;
                        s.2 += a * b;
                    }
                    s
                };
                if gamma == 0.0 || gamma.abs() <= tol * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                rotate_rows(&mut at, m, p, q, c, s);
                rotate_rows(&mut vt, n, p, q, c, s);
            }
        }
        if !rotated {
            break;
        }
    }
    let mut sigma: Vec<f64> = (0..n)
        .map(|j| {
            at[j * m..j * m + m]
                .iter()
                .map(|v| v * v)
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| sigma[j].total_cmp(&sigma[i]));
    let smax = sigma.iter().fold(0.0f64, |a, &b| a.max(b));
    let mut u = vec![0.0; m * n];
    let mut v = vec![0.0; n * n];
    let mut sorted = vec![0.0; n];
    let mut zero_cols = Vec::new();
    for (c, &j) in order.iter().enumerate() {
        sorted[c] = sigma[j];
        for i in 0..n {
            v[i * n + c] = vt[j * n + i];
        }
        if sigma[j] > smax * m as f64 * super::EPS && sigma[j] > 0.0 {
            for i in 0..m {
                u[i * n + c] = at[j * m + i] / sigma[j];
            }
        } else {
            zero_cols.push(c);
        }
    }
    complete_columns(&mut u, m, n, &zero_cols);
    sigma.copy_from_slice(&sorted);
    (u, sigma, v)
}

/// Fills the listed columns of the `m × k` matrix `u` with unit vectors
/// orthogonal to every other column (Gram–Schmidt on basis vectors, twice).
pub(crate) fn complete_columns(u: &mut [f64], m: usize, k: usize, cols: &[usize]) {
    let mut filled: Vec<usize> = (0..k).filter(|c| !cols.contains(c)).collect();
    let mut candidate = 0;
    for &c in cols {
        loop {
            let mut x = vec![0.0; m];
            x[candidate % m] = 1.0;
            candidate += 1;
            for _ in 0..2 {
                for &o in &filled {
                    let d: f64 = (0..m).map(|i| u[i * k + o] * x[i]).sum();
                    for (i, xi) in x.iter_mut().enumerate() {
                        *xi -= d * u[i * k + o];
                    }
                }
            }
            let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            // A basis vector nearly in the span so far is skipped; one of
            // any m consecutive candidates keeps at least 1/√m of its norm.
            if norm > 0.5 / (m as f64).sqrt() || candidate > 2 * m {
                for (i, xi) in x.iter().enumerate() {
                    u[i * k + c] = xi / norm;
                }
                break;
            }
        }
        filled.push(c);
    }
}

fn rotate_rows(x: &mut [f64], len: usize, p: usize, q: usize, c: f64, s: f64) {
    let (lo, hi) = x.split_at_mut(q * len);
    let xp = &mut lo[p * len..p * len + len];
    let xq = &mut hi[..len];
    for (a, b) in xp.iter_mut().zip(xq.iter_mut()) {
        let (u, v) = (*a, *b);
        *a = c * u - s * v;
        *b = s * u + c * v;
    }
}

/// Symmetric eigen-decomposition of `n × n` `a` (read as `(A + Aᵀ)/2`):
/// `(λ ascending, V)` with `A = V·diag(λ)·Vᵀ`, `V` row-major, eigenvectors
/// as columns.
pub(crate) fn eigh(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut s = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            s[i * n + j] = 0.5 * (a[i * n + j] + a[j * n + i]);
        }
    }
    // Vᵀ accumulated by rows: row p of vt is eigenvector p.
    let mut vt = vec![0.0; n * n];
    for j in 0..n {
        vt[j * n + j] = 1.0;
    }
    for _ in 0..MAX_SWEEPS {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| s[i * n + j] * s[i * n + j])
            .sum();
        let diag: f64 = (0..n).map(|i| s[i * n + i] * s[i * n + i]).sum();
        if off <= (super::EPS * super::EPS) * diag.max(f64::MIN_POSITIVE) * 1e-2 || off == 0.0 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = s[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let (app, aqq) = (s[p * n + p], s[q * n + q]);
                let theta = (aqq - app) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (1.0 + theta * theta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let sn = t * c;
                // S ← Jᵀ S J on rows/cols p, q.
                rotate_rows(&mut s, n, p, q, c, sn);
                for i in 0..n {
                    let (x, y) = (s[i * n + p], s[i * n + q]);
                    s[i * n + p] = c * x - sn * y;
                    s[i * n + q] = sn * x + c * y;
                }
                rotate_rows(&mut vt, n, p, q, c, sn);
            }
        }
    }
    let lambda: Vec<f64> = (0..n).map(|i| s[i * n + i]).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| lambda[i].total_cmp(&lambda[j]));
    let mut v = vec![0.0; n * n];
    let mut sorted = vec![0.0; n];
    for (c, &j) in order.iter().enumerate() {
        sorted[c] = lambda[j];
        for i in 0..n {
            v[i * n + c] = vt[j * n + i];
        }
    }
    (sorted, v)
}
