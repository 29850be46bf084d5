//! Cholesky `A = L·Lᵀ` from the lower triangle of `A`, blocked right-looking.
//!
//! Per block column: factor the diagonal block, solve the panel below it
//! (`L21 = A21·L11⁻ᵀ`, row-wise dot products), then update only the lower
//! trapezoid of the trailing matrix, `A22 -= L21·L21ᵀ`, with `gemm` on row
//! strips; the two threads take the strips split at equal work.

use super::gemm::{View, gemm};

const NB: usize = 64;
const STRIP: usize = 64;

/// `Ok(L)` (upper triangle zeroed) or `Err(k)`: the leading minor of order
/// `k + 1` is not positive definite (pivot `≤ 0` or NaN at column `k`).
pub(crate) fn factor(mut a: Vec<f64>, n: usize) -> Result<Vec<f64>, usize> {
    let mut l21 = Vec::new();
    for j0 in (0..n).step_by(NB) {
        let j1 = (j0 + NB).min(n);
        // Diagonal block, unblocked (left-looking within the block).
        for j in j0..j1 {
            let row = &a[j * n..j * n + n];
            let d = row[j] - dot(&row[j0..j], &row[j0..j]);
            if !super::above(d, 0.0) {
                return Err(j);
            }
            let ljj = d.sqrt();
            a[j * n + j] = ljj;
            for i in j + 1..j1 {
                let (top, rest) = a.split_at_mut(i * n);
                let lj = &top[j * n + j0..j * n + j];
                let ri = &mut rest[..n];
                ri[j] = (ri[j] - dot(&ri[j0..j], lj)) / ljj;
            }
        }
        if j1 == n {
            break;
        }
        // Panel: for each row below, solve x·L11ᵀ = a (forward by columns).
        {
            let (top, rest) = a.split_at_mut(j1 * n);
            for i in 0..n - j1 {
                let ri = &mut rest[i * n..i * n + n];
                for c in j0..j1 {
                    let lc = &top[c * n + j0..c * n + c];
                    ri[c] = (ri[c] - dot(&ri[j0..c], lc)) / top[c * n + c];
                }
            }
        }
        // Trailing lower trapezoid: A[r, j1..=r] -= L21[r]·L21[j1..=r]ᵀ.
        let nb = j1 - j0;
        l21.clear();
        for i in j1..n {
            l21.extend_from_slice(&a[i * n + j0..i * n + j1]);
        }
        let rows = n - j1;
        let split = if super::threads() > 1 && rows >= 2 * STRIP {
            j1 + ((rows as f64) / std::f64::consts::SQRT_2) as usize
        } else {
            n
        };
        let (_, tail) = a.split_at_mut(j1 * n);
        let (first, second) = tail.split_at_mut((split - j1) * n);
        let update = |block: &mut [f64], r0: usize, r1: usize| {
            for s0 in (r0..r1).step_by(STRIP) {
                let s1 = (s0 + STRIP).min(r1);
                let cols = s1 - j1;
                gemm(
                    s1 - s0,
                    cols,
                    nb,
                    -1.0,
                    View::new(&l21[(s0 - j1) * nb..], nb, 1),
                    View::new(&l21, 1, nb),
                    &mut block[(s0 - r0) * n + j1..],
                    n,
                );
            }
        };
        if split < n {
            std::thread::scope(|s| {
                s.spawn(|| update(second, split, n));
                update(first, j1, split);
            });
        } else {
            update(first, j1, n);
        }
    }
    for i in 0..n {
        a[i * n + i + 1..i * n + n].fill(0.0);
    }
    Ok(a)
}

#[inline(always)]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    // Four partial sums: lets the compiler vectorise and shortens the
    // dependency chain.
    let mut s = [0.0f64; 4];
    let (xc, xr) = x.split_at(x.len() / 4 * 4);
    let (yc, yr) = y.split_at(xc.len());
    for (a, b) in xc.chunks_exact(4).zip(yc.chunks_exact(4)) {
        for t in 0..4 {
            s[t] += a[t] * b[t];
        }
    }
    let mut tail = 0.0;
    for (a, b) in xr.iter().zip(yr) {
        tail += a * b;
    }
    (s[0] + s[1]) + (s[2] + s[3]) + tail
}
