//! LU with partial pivoting, `P·A = L·U`, blocked right-looking.
//!
//! Panels of `NB` columns are factored with row pivoting (swaps applied to
//! whole rows, which are contiguous in row-major storage), the block row of
//! `U` is solved against the panel's unit-lower `L11`, and the trailing
//! matrix takes one `gemm` update `A22 -= L21·U12` per panel.

use super::gemm::{View, gemm_par};

const NB: usize = 64;

/// The factorization of one `m × n` matrix, in place.
pub(crate) struct Lu {
    /// `L` strictly below the diagonal (unit diagonal implied), `U` on and
    /// above it; `m × n`, row-major.
    pub lu: Vec<f64>,
    /// Row `i` of `L·U` is row `perm[i]` of `A`.
    pub perm: Vec<usize>,
    /// Number of row swaps (the sign of `det P`).
    pub swaps: usize,
}

pub(crate) fn factor(mut a: Vec<f64>, m: usize, n: usize) -> Lu {
    let k = m.min(n);
    let mut perm: Vec<usize> = (0..m).collect();
    let mut swaps = 0;
    let mut l21 = Vec::new();
    for j0 in (0..k).step_by(NB) {
        let j1 = (j0 + NB).min(k);
        // Panel: columns j0..j1, rows j0..m.
        for j in j0..j1 {
            let mut p = j;
            let mut best = a[j * n + j].abs();
            for i in j + 1..m {
                let v = a[i * n + j].abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            if p != j {
                swap_rows(&mut a, n, j, p);
                perm.swap(j, p);
                swaps += 1;
            }
            let pivot = a[j * n + j];
            if pivot == 0.0 {
                // An exactly zero column: nothing to eliminate; U keeps the 0.
                continue;
            }
            let (top, rest) = a.split_at_mut((j + 1) * n);
            let prow = &top[j * n + j + 1..j * n + j1];
            for i in 0..m - j - 1 {
                let row = &mut rest[i * n + j..i * n + j1];
                row[0] /= pivot;
                let l = row[0];
                if l != 0.0 {
                    for (x, &u) in row[1..].iter_mut().zip(prow) {
                        *x -= l * u;
                    }
                }
            }
        }
        if j1 < n {
            // U12 = L11⁻¹ · A12 (unit lower, forward substitution by rows).
            forward_block(&mut a, n, j0, j1);
        }
        if j1 < m && j1 < n {
            // A22 -= L21 · U12.
            let rows = m - j1;
            let nb = j1 - j0;
            l21.clear();
            for i in j1..m {
                l21.extend_from_slice(&a[i * n + j0..i * n + j1]);
            }
            let (top, bottom) = a.split_at_mut(j1 * n);
            gemm_par(
                rows,
                n - j1,
                nb,
                -1.0,
                View::new(&l21, nb, 1),
                View::new(&top[j0 * n + j1..], n, 1),
                &mut bottom[j1..],
                n,
            );
        }
    }
    Lu { lu: a, perm, swaps }
}

/// Rows `j0..j1`, columns `j1..n`: `A12 ← L11⁻¹·A12` with `L11` the unit
/// lower triangle of the panel's diagonal block.
fn forward_block(a: &mut [f64], n: usize, j0: usize, j1: usize) {
    for r in j0 + 1..j1 {
        let (top, rest) = a.split_at_mut(r * n);
        let (lrow, row) = rest[..n].split_at_mut(j1);
        for q in j0..r {
            let l = lrow[q];
            if l != 0.0 {
                let src = &top[q * n + j1..q * n + n];
                for (x, &u) in row.iter_mut().zip(src) {
                    *x -= l * u;
                }
            }
        }
    }
}

fn swap_rows(a: &mut [f64], n: usize, i: usize, j: usize) {
    let (lo, hi) = (i.min(j), i.max(j));
    let (top, bottom) = a.split_at_mut(hi * n);
    top[lo * n..lo * n + n].swap_with_slice(&mut bottom[..n]);
}

impl Lu {
    /// The first diagonal entry of `U` that is zero to working precision
    /// (`|u_kk| ≤ n·ε·max|U|`), for a square factorization.
    pub fn singular_pivot(&self, n: usize) -> Option<usize> {
        let scale = self.lu.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let tol = n as f64 * super::EPS * scale;
        (0..n).find(|&k| {
            let u = self.lu[k * n + k];
            !super::above(u.abs(), tol)
        })
    }

    /// `det A = (−1)^swaps · Π u_kk` of a square factorization.
    pub fn det(&self, n: usize) -> f64 {
        let sign = if self.swaps.is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        (0..n).fold(sign, |d, k| d * self.lu[k * n + k])
    }

    /// Solves `A·X = B` in place for `B` of `n × k` (square `A`).
    pub fn solve(&self, n: usize, b: &[f64], k: usize) -> Vec<f64> {
        let mut x = Vec::with_capacity(n * k);
        for &p in &self.perm {
            x.extend_from_slice(&b[p * k..p * k + k]);
        }
        super::tri::lower_unit_solve(&self.lu, n, &mut x, k);
        super::tri::upper_solve(&self.lu, n, &mut x, k);
        x
    }
}
