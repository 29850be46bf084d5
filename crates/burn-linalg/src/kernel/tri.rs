//! Triangular solves with `k` right-hand sides stored row-major (`n × k`),
//! written as row axpys so the inner loop runs over contiguous memory.

/// `X ← L⁻¹X`, `L` the unit lower triangle of the `n × n` (leading block of
/// a row-major `? × lda`) matrix `l`.
pub(crate) fn lower_unit_solve(l: &[f64], lda: usize, x: &mut [f64], k: usize) {
    let n = x.len() / k.max(1);
    for i in 1..n {
        let (done, rest) = x.split_at_mut(i * k);
        let row = &mut rest[..k];
        for (q, &lij) in l[i * lda..i * lda + i].iter().enumerate() {
            if lij != 0.0 {
                for (xv, &d) in row.iter_mut().zip(&done[q * k..q * k + k]) {
                    *xv -= lij * d;
                }
            }
        }
    }
}

/// `X ← U⁻¹X`, `U` the upper triangle (with diagonal) of `u`.
pub(crate) fn upper_solve(u: &[f64], lda: usize, x: &mut [f64], k: usize) {
    let n = x.len() / k.max(1);
    for i in (0..n).rev() {
        let (head, tail) = x.split_at_mut((i + 1) * k);
        let row = &mut head[i * k..];
        for q in i + 1..n {
            let uij = u[i * lda + q];
            if uij != 0.0 {
                for (xv, &d) in row.iter_mut().zip(&tail[(q - i - 1) * k..(q - i) * k]) {
                    *xv -= uij * d;
                }
            }
        }
        let d = 1.0 / u[i * lda + i];
        row.iter_mut().for_each(|v| *v *= d);
    }
}

/// `X ← L⁻¹X`, `L` the lower triangle (with diagonal) of `l`.
pub(crate) fn lower_solve(l: &[f64], lda: usize, x: &mut [f64], k: usize) {
    let n = x.len() / k.max(1);
    for i in 0..n {
        let (done, rest) = x.split_at_mut(i * k);
        let row = &mut rest[..k];
        for (q, &lij) in l[i * lda..i * lda + i].iter().enumerate() {
            if lij != 0.0 {
                for (xv, &d) in row.iter_mut().zip(&done[q * k..q * k + k]) {
                    *xv -= lij * d;
                }
            }
        }
        let d = 1.0 / l[i * lda + i];
        row.iter_mut().for_each(|v| *v *= d);
    }
}
