//! The decompositions: [`lu`], [`qr`], [`cholesky`], [`det`], [`svd`],
//! [`eigh`]. Each reads its input to the host as f64, factors every matrix
//! of the batch (the batch split over two threads), builds the factors on
//! the input's device and dtype, and attaches the gradient surrogates of
//! `grad` when the input is tracked.

use crate::LinalgError;
use crate::grad::{self, attach};
use crate::host::{self, Dims, Place, matrices, rank_param, read, reshape, with_matrix};
use crate::kernel::{
    self, cholesky as chol, jacobi, lu as lu_kernel, par_map, qr as qr_kernel, tri,
};
use burn_tensor::Tensor;

// ---------------------------------------------------------------- helpers

pub(crate) fn transpose(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let mut t = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            t[j * m + i] = a[i * n + j];
        }
    }
    t
}

pub(crate) fn identity(n: usize) -> Vec<f64> {
    let mut e = vec![0.0; n * n];
    for i in 0..n {
        e[i * n + i] = 1.0;
    }
    e
}

/// `m × k` times `k × n`, row-major.
pub(crate) fn matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    use kernel::gemm::{View, gemm};
    let mut c = vec![0.0; m * n];
    gemm(
        m,
        n,
        k,
        1.0,
        View::new(a, k, 1),
        View::new(b, n, 1),
        &mut c,
        n,
    );
    c
}

/// `F_ij = 1/(x_j − x_i)` off the diagonal, 0 on it and where `x_j ≈ x_i`.
fn gap_inverse(x: &[f64]) -> Vec<f64> {
    let k = x.len();
    let scale = x
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    let mut f = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..k {
            let d = x[j] - x[i];
            if i != j && d.abs() > 1e3 * kernel::EPS * scale {
                f[i * k + j] = 1.0 / d;
            }
        }
    }
    f
}

/// Lower-triangular mask with ½ on the diagonal (the `Φ` of the Cholesky
/// gradient).
fn phi_mask(n: usize) -> Vec<f64> {
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..i {
            m[i * n + j] = 1.0;
        }
        m[i * n + i] = 0.5;
    }
    m
}

fn first_err<T>(
    results: Vec<Result<T, usize>>,
    err: impl Fn(usize, usize) -> LinalgError,
) -> Result<Vec<T>, LinalgError> {
    let mut out = Vec::with_capacity(results.len());
    for (b, r) in results.into_iter().enumerate() {
        match r {
            Ok(v) => out.push(v),
            Err(info) => return Err(err(b, info)),
        }
    }
    Ok(out)
}

/// A constant of the batch's shape with one `rows × cols` block per matrix,
/// broadcast (leading 1s) when `shared`.
fn batch_const<const D: usize>(
    place: &Place,
    dims: &Dims,
    parts: Vec<Vec<f64>>,
    rows: usize,
    cols: usize,
) -> Tensor<D> {
    place.build(host::concat(parts), &with_matrix(&dims.shape, rows, cols))
}

// --------------------------------------------------------------------- lu

/// LU decomposition with partial pivoting, `A = P·L·U`, of the last two
/// dims (batched over the others; square or rectangular).
///
/// Returns `(P, L, U)`: `P` `[.., m, m]` a permutation matrix, `L`
/// `[.., m, k]` unit lower triangular, `U` `[.., k, n]` upper triangular,
/// `k = min(m, n)`. A singular matrix factors fine (`U` has a zero pivot).
///
/// `D1` must be `D − 1`, as in Burn, where it is the rank of the pivot
/// tensor `[.., k]` the factorization builds on the way; here it is only
/// checked (the pivots come back as `P`). Callers name it:
/// `lu::<3, 2>(a)`.
///
/// Gradients flow to `A` for square matrices with nonsingular `U`.
///
/// ```
/// use burn_tensor::{Device, Tensor};
///
/// let a = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &Device::flex());
/// let (p, l, u) = burn_linalg::lu::<2, 1>(a.clone());
/// let err: f32 = (p.matmul(l).matmul(u) - a).abs().max().into_scalar();
/// assert!(err < 1e-6);
/// ```
///
/// # Panics
/// On the cases [`try_lu`] returns as errors; the message names `lu`.
#[track_caller]
pub fn lu<const D: usize, const D1: usize>(tensor: Tensor<D>) -> (Tensor<D>, Tensor<D>, Tensor<D>) {
    try_lu::<D, D1>(tensor).unwrap_or_else(|e| panic!("{e}"))
}

/// [`lu`], with bad input an `Err`: rank below 2, `D1 ≠ D − 1`, a
/// non-float dtype, or — only when `a` is tracked — a non-square or
/// singular matrix (no gradient).
pub fn try_lu<const D: usize, const D1: usize>(
    a: Tensor<D>,
) -> Result<(Tensor<D>, Tensor<D>, Tensor<D>), LinalgError> {
    const OP: &str = "lu";
    let dims = matrices(OP, &a, false)?;
    rank_param(OP, "D1", "D - 1", D - 1, D1)?;
    let tracked = a.is_tracked();
    if tracked && dims.m != dims.n {
        return Err(LinalgError::NotDifferentiable {
            op: OP,
            shape: dims.shape,
            reason: "the LU gradient is implemented for square matrices only",
        });
    }
    let (m, n) = (dims.m, dims.n);
    let k = m.min(n);
    let data = read(&a);
    let parts = par_map(dims.batch, |b| {
        let f = lu_kernel::factor(data[b * m * n..(b + 1) * m * n].to_vec(), m, n);
        let mut p = vec![0.0; m * m];
        for (i, &src) in f.perm.iter().enumerate() {
            p[src * m + i] = 1.0;
        }
        let mut l = vec![0.0; m * k];
        let mut u = vec![0.0; k * n];
        for i in 0..m {
            for j in 0..k.min(i + 1) {
                l[i * k + j] = if i == j { 1.0 } else { f.lu[i * n + j] };
            }
        }
        for i in 0..k {
            u[i * n + i..i * n + n].copy_from_slice(&f.lu[i * n + i..i * n + n]);
        }
        let singular = f.singular_pivot(n.min(m));
        (p, l, u, singular)
    });
    let place = Place::of(&a);
    let mut ps = Vec::new();
    let mut ls = Vec::new();
    let mut us = Vec::new();
    let mut inverses = Vec::new();
    for (b, (p, l, u, singular)) in parts.into_iter().enumerate() {
        if tracked {
            if let Some(pivot) = singular {
                return Err(LinalgError::Singular {
                    op: OP,
                    shape: dims.shape,
                    batch: b,
                    pivot,
                });
            }
            let mut linv = identity(k);
            tri::lower_unit_solve(&l, k, &mut linv, k);
            let mut uinv = identity(k);
            tri::upper_solve(&u, n, &mut uinv, k);
            inverses.push((linv, uinv));
        }
        ps.push(p);
        ls.push(l);
        us.push(u);
    }
    let p: Tensor<D> = batch_const(&place, &dims, ps, m, m);
    let l: Tensor<D> = batch_const(&place, &dims, ls, m, k);
    let u: Tensor<D> = batch_const(&place, &dims, us, k, n);
    if !tracked {
        return Ok((p, l, u));
    }
    let (linv, uinv): (Vec<_>, Vec<_>) = inverses.into_iter().unzip();
    let linv = batch_const(&place, &dims, linv, k, k);
    let uinv = batch_const(&place, &dims, uinv, k, k);
    let (sl, su) = grad::lu(a, p.clone(), l.clone(), u.clone(), linv, uinv);
    Ok((p, attach(l, sl), attach(u, su)))
}

// --------------------------------------------------------------------- qr

/// QR decomposition by Householder reflections, `A = Q·R`, of the last two
/// dims.
///
/// With `k = min(m, n)`: `reduced` gives `Q` `[.., m, k]`, `R` `[.., k, n]`;
/// otherwise `Q` `[.., m, m]`, `R` `[.., m, n]`. Signs follow LAPACK (the
/// diagonal of `R` may be negative).
///
/// Gradients flow to `A` when `m ≥ n`, `Q` is `[.., m, n]` (reduced, or
/// square) and `A` has full column rank.
#[track_caller]
pub fn qr<const D: usize>(a: Tensor<D>, reduced: bool) -> (Tensor<D>, Tensor<D>) {
    try_qr(a, reduced).unwrap_or_else(|e| panic!("{e}"))
}

/// [`qr`], with bad input an `Err`.
pub fn try_qr<const D: usize>(
    a: Tensor<D>,
    reduced: bool,
) -> Result<(Tensor<D>, Tensor<D>), LinalgError> {
    const OP: &str = "qr";
    let dims = matrices(OP, &a, false)?;
    let (m, n) = (dims.m, dims.n);
    let k = m.min(n);
    let q = if reduced { k } else { m };
    let tracked = a.is_tracked();
    if tracked && (m < n || q != n) {
        return Err(LinalgError::NotDifferentiable {
            op: OP,
            shape: dims.shape,
            reason: "the QR gradient needs m ≥ n and Q of shape [m, n] (reduced)",
        });
    }
    let data = read(&a);
    let parts = par_map(dims.batch, |b| {
        qr_kernel::factor(data[b * m * n..(b + 1) * m * n].to_vec(), m, n, q)
    });
    let place = Place::of(&a);
    let mut rinvs = Vec::new();
    if tracked {
        for (b, (_, r)) in parts.iter().enumerate() {
            let scale = r.iter().fold(0.0f64, |s, v| s.max(v.abs()));
            if (0..n).any(|i| !kernel::above(r[i * n + i].abs(), m as f64 * kernel::EPS * scale)) {
                return Err(LinalgError::RankDeficient {
                    op: OP,
                    shape: dims.shape,
                    batch: b,
                });
            }
            let mut rinv = identity(n);
            tri::upper_solve(r, n, &mut rinv, n);
            rinvs.push(rinv);
        }
    }
    let (qs, rs): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
    let qt: Tensor<D> = batch_const(&place, &dims, qs, m, q);
    let rt: Tensor<D> = batch_const(&place, &dims, rs, q, n);
    if !tracked {
        return Ok((qt, rt));
    }
    let rinv = batch_const(&place, &dims, rinvs, n, n);
    let (sq, sr) = grad::qr(a, qt.clone(), rt.clone(), rinv);
    Ok((attach(qt, sq), attach(rt, sr)))
}

// --------------------------------------------------------------- cholesky

/// Cholesky decomposition of symmetric positive-definite matrices: `L`
/// lower triangular with `A = L·Lᵀ`, or with `upper`, `U = Lᵀ`
/// (`A = Uᵀ·U`). Only the lower triangle of `A` is read.
///
/// The gradient treats `A` as symmetric (as PyTorch does): it is the
/// symmetric part of the unconstrained one.
///
/// # Panics
/// If a matrix is not positive definite, not square, or not float; the
/// message names `cholesky`, the shape and the failing column.
#[track_caller]
pub fn cholesky<const D: usize>(a: Tensor<D>, upper: bool) -> Tensor<D> {
    try_cholesky(a, upper).unwrap_or_else(|e| panic!("{e}"))
}

/// [`cholesky`], with bad input an `Err`
/// ([`LinalgError::NotPositiveDefinite`] names the matrix and column).
pub fn try_cholesky<const D: usize>(a: Tensor<D>, upper: bool) -> Result<Tensor<D>, LinalgError> {
    const OP: &str = "cholesky";
    let dims = matrices(OP, &a, true)?;
    let n = dims.n;
    let data = read(&a);
    let parts = par_map(dims.batch, |b| {
        chol::factor(data[b * n * n..(b + 1) * n * n].to_vec(), n)
    });
    let shape = dims.shape.clone();
    let ls = first_err(parts, |batch, column| LinalgError::NotPositiveDefinite {
        op: OP,
        shape: shape.clone(),
        batch,
        column,
    })?;
    let place = Place::of(&a);
    let tracked = a.is_tracked();
    let linvs: Vec<Vec<f64>> = if tracked {
        ls.iter()
            .map(|l| {
                let mut x = identity(n);
                tri::lower_solve(l, n, &mut x, n);
                x
            })
            .collect()
    } else {
        Vec::new()
    };
    let l: Tensor<D> = batch_const(&place, &dims, ls, n, n);
    let l = if tracked {
        let linv = batch_const(&place, &dims, linvs, n, n);
        let mask: Tensor<D> = place.build(phi_mask(n), &with_matrix(&vec![1; D], n, n));
        let s = grad::cholesky(a, l.clone(), linv, mask);
        attach(l, s)
    } else {
        l
    };
    Ok(if upper { grad::t(l) } else { l })
}

// -------------------------------------------------------------------- det

/// The determinant of the last two dims, `[.., n, n] → [..]`.
///
/// As in Burn, `D1 = D − 1` and `D2 = D − 2` (the output rank), so `D ≥ 3`:
/// give a single matrix a leading batch dim of 1, and name the ranks:
/// `det::<3, 2, 1>(a)`.
///
/// Computed from the LU factorization in f64. Singular matrices give 0
/// (or a tiny value from rounding), and their gradient, the cofactor
/// matrix, is still right (it is taken from the SVD there).
///
/// # Panics
/// If `D < 3`, `D1 ≠ D − 1`, `D2 ≠ D − 2` (the message names the
/// parameter and the value it must have), or the matrices are not square
/// or not float.
#[track_caller]
pub fn det<const D: usize, const D1: usize, const D2: usize>(tensor: Tensor<D>) -> Tensor<D2> {
    try_det::<D, D1, D2>(tensor).unwrap_or_else(|e| panic!("{e}"))
}

/// [`det`], with bad input an `Err`.
pub fn try_det<const D: usize, const D1: usize, const D2: usize>(
    a: Tensor<D>,
) -> Result<Tensor<D2>, LinalgError> {
    const OP: &str = "det";
    let dims = matrices(OP, &a, true)?;
    if D < 3 {
        return Err(LinalgError::RankTooLow {
            op: OP,
            min: 3,
            shape: dims.shape,
        });
    }
    rank_param(OP, "D1", "D - 1", D - 1, D1)?;
    rank_param(OP, "D2", "D - 2", D - 2, D2)?;
    let n = dims.n;
    let tracked = a.is_tracked();
    let data = read(&a);
    let parts = par_map(dims.batch, |b| {
        let m = &data[b * n * n..(b + 1) * n * n];
        let f = lu_kernel::factor(m.to_vec(), n, n);
        let d = f.det(n);
        let cof = tracked.then(|| cofactors(m, n, &f));
        (d, cof)
    });
    let place = Place::of(&a);
    let (values, cofs): (Vec<f64>, Vec<Option<Vec<f64>>>) = parts.into_iter().unzip();
    let kept = with_matrix(&dims.shape, 1, 1);
    let y: Tensor<D> = place.build(values, &kept);
    let y = if tracked {
        let cof = batch_const(
            &place,
            &dims,
            cofs.into_iter().map(Option::unwrap).collect(),
            n,
            n,
        );
        attach(y, grad::det(a, cof))
    } else {
        y
    };
    Ok(reshape(y, &dims.shape[..D - 2]))
}

/// `adj(A)ᵀ`: `det·A⁻ᵀ` when `A` is invertible; from `A = U·Σ·Vᵀ`,
/// `adj(A) = det(V)·det(U)·V·diag(Π_{j≠i} σ_j)·Uᵀ`, when it is not.
fn cofactors(a: &[f64], n: usize, f: &lu_kernel::Lu) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    if f.singular_pivot(n).is_none() {
        let inv = f.solve(n, &identity(n), n);
        let d = f.det(n);
        return transpose(&inv, n, n).into_iter().map(|v| v * d).collect();
    }
    let (u, s, v) = jacobi::svd_tall(a, n, n, jacobi::MAX_SWEEPS);
    let det_of = |x: &[f64]| lu_kernel::factor(x.to_vec(), n, n).det(n).signum();
    let sign = det_of(&u) * det_of(&v);
    let prod_except: Vec<f64> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| s[j]).product())
        .collect();
    // adj = sign·V·diag(p)·Uᵀ; cof = adjᵀ = sign·U·diag(p)·Vᵀ.
    let mut cof = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            cof[i * n + j] = sign
                * (0..n)
                    .map(|c| u[i * n + c] * prod_except[c] * v[j * n + c])
                    .sum::<f64>();
        }
    }
    cof
}

// -------------------------------------------------------------------- svd

struct SvdHost {
    u: Vec<f64>,
    s: Vec<f64>,
    v: Vec<f64>,
}

/// Thin SVD of one `m × n` matrix: `U m×k`, `σ k` (descending), `V n×k`,
/// with at most `sweeps` Jacobi sweeps.
fn svd_host(a: &[f64], m: usize, n: usize, sweeps: usize) -> SvdHost {
    if m >= n {
        let (u, s, v) = jacobi::svd_tall(a, m, n, sweeps);
        SvdHost { u, s, v }
    } else {
        // Aᵀ = U'ΣV'ᵀ, so A = V'ΣU'ᵀ.
        let (u2, s, v2) = jacobi::svd_tall(&transpose(a, m, n), n, m, sweeps);
        SvdHost { u: v2, s, v: u2 }
    }
}

fn svd_batch(data: &[f64], dims: &Dims, sweeps: usize) -> Vec<SvdHost> {
    let (m, n) = (dims.m, dims.n);
    par_map(dims.batch, |b| {
        svd_host(&data[b * m * n..(b + 1) * m * n], m, n, sweeps)
    })
}

/// Singular value decomposition `A = U·diag(S)·Vh` of the last two dims
/// (thin: `k = min(m, n)`): `U` `[.., m, k]`, `S` `[.., k]` descending
/// (`D1 = D − 1`), `Vh` `[.., k, n]`.
///
/// One-sided Jacobi in f64, at most `sweeps` sweeps over all column pairs;
/// it stops after the first sweep that rotates nothing (the columns of
/// `A·V` are orthogonal to working precision). Well-scaled matrices
/// converge in about 6–12 sweeps, so `sweeps` ≥ 30 is ample (`matrix_norm`
/// and `det`'s gradient use 60). If it has not converged after `sweeps`
/// sweeps, that is not an error: the last iterate is returned, which still
/// reconstructs `A = U·diag(S)·Vh` to rounding with `Vh` orthogonal, but
/// whose `U` is not orthonormal and whose `S` (the column norms of `A·V`)
/// are not yet the singular values. `sweeps = 0` rotates nothing: `Vh` is
/// a permutation, `S` the column norms of `A` sorted descending, `U` its
/// normalized columns. (Burn's own `svd` is Golub–Kahan with bidiagonal
/// QR, where `sweeps` bounds the QR sweeps per singular value; a Jacobi
/// sweep is a different unit of work, but the same value serves both.)
///
/// Singular vectors are unique only up to sign (and rotation within
/// repeated singular values).
///
/// Gradients flow to `A` through all three outputs (they assume a
/// converged SVD); for `U` and `Vh` they are undefined at repeated
/// singular values, where those pairs contribute zero (PyTorch gives
/// inf/NaN there).
///
/// # Panics
/// If `D < 2`, `D1 ≠ D − 1`, or the input is not float.
#[track_caller]
pub fn svd<const D: usize, const D1: usize>(
    tensor: Tensor<D>,
    sweeps: usize,
) -> (Tensor<D>, Tensor<D1>, Tensor<D>) {
    try_svd(tensor, sweeps).unwrap_or_else(|e| panic!("{e}"))
}

/// [`svd`], with bad input an `Err`.
pub fn try_svd<const D: usize, const D1: usize>(
    a: Tensor<D>,
    sweeps: usize,
) -> Result<(Tensor<D>, Tensor<D1>, Tensor<D>), LinalgError> {
    const OP: &str = "svd";
    let dims = matrices(OP, &a, false)?;
    rank_param(OP, "D1", "D - 1", D - 1, D1)?;
    let (m, n) = (dims.m, dims.n);
    let k = m.min(n);
    let parts = svd_batch(&read(&a), &dims, sweeps);
    let place = Place::of(&a);
    let tracked = a.is_tracked();
    let mut us = Vec::new();
    let mut ss = Vec::new();
    let mut vs = Vec::new();
    let mut fs = Vec::new();
    let mut sinvs = Vec::new();
    for p in parts {
        if tracked {
            let sq: Vec<f64> = p.s.iter().map(|s| s * s).collect();
            fs.push(gap_inverse(&sq));
            let smax = p.s.first().copied().unwrap_or(0.0);
            sinvs.push(
                p.s.iter()
                    .map(|&s| {
                        if s > smax * (m.max(n) as f64) * kernel::EPS {
                            1.0 / s
                        } else {
                            0.0
                        }
                    })
                    .collect::<Vec<f64>>(),
            );
        }
        us.push(p.u);
        ss.push(p.s);
        vs.push(p.v);
    }
    let u: Tensor<D> = batch_const(&place, &dims, us, m, k);
    let v: Tensor<D> = batch_const(&place, &dims, vs, n, k);
    let s_row: Tensor<D> = batch_const(&place, &dims, ss.clone(), 1, k);
    let s_shape = with_matrix(&dims.shape, 1, k);
    let s_out_shape: Vec<usize> = s_shape[..D - 2].iter().copied().chain([k]).collect();
    if !tracked {
        return Ok((u, reshape(s_row, &s_out_shape), grad::t(v)));
    }
    let consts = grad::SvdConsts {
        u: u.clone(),
        v: v.clone(),
        s_row: s_row.clone(),
        s_col: batch_const(&place, &dims, ss, k, 1),
        sinv_row: batch_const(&place, &dims, sinvs, 1, k),
        f: batch_const(&place, &dims, fs, k, k),
    };
    let (su, ss, sv) = grad::svd(a, &consts);
    Ok((
        attach(u, su),
        reshape(attach(s_row, ss), &s_out_shape),
        grad::t(attach(v, sv)),
    ))
}

/// σ as `[.., 1, k]` with only its (always well-defined) gradient
/// `∂σ_i/∂A = u_i·v_iᵀ`: the nuclear and spectral norms.
pub(crate) fn singular_values_kept<const D: usize>(
    op: &'static str,
    a: Tensor<D>,
) -> Result<Tensor<D>, LinalgError> {
    let dims = matrices(op, &a, false)?;
    let (m, n) = (dims.m, dims.n);
    let k = m.min(n);
    let parts = svd_batch(&read(&a), &dims, jacobi::MAX_SWEEPS);
    let place = Place::of(&a);
    let tracked = a.is_tracked();
    let mut us = Vec::new();
    let mut ss = Vec::new();
    let mut vs = Vec::new();
    for p in parts {
        us.push(p.u);
        ss.push(p.s);
        vs.push(p.v);
    }
    let s: Tensor<D> = batch_const(&place, &dims, ss, 1, k);
    if !tracked {
        return Ok(s);
    }
    let u = batch_const(&place, &dims, us, m, k);
    let v = batch_const(&place, &dims, vs, n, k);
    Ok(attach(s, grad::singular_values(a, u, v)))
}

// ------------------------------------------------------------------- eigh

/// Eigen-decomposition of symmetric matrices, `A = V·diag(λ)·Vᵀ`:
/// `(λ [.., n]` ascending (`DS = D − 1`), `V [.., n, n])` with orthonormal
/// eigenvectors as columns. `A` is read as `(A + Aᵀ)/2`.
///
/// Cyclic Jacobi in f64. Eigenvectors are unique only up to sign (and
/// rotation within repeated eigenvalues). The gradient is symmetric, as
/// PyTorch's; the eigenvector part is undefined at repeated eigenvalues,
/// where those pairs contribute zero.
#[track_caller]
pub fn eigh<const D: usize, const DS: usize>(a: Tensor<D>) -> (Tensor<DS>, Tensor<D>) {
    try_eigh(a).unwrap_or_else(|e| panic!("{e}"))
}

/// [`eigh`], with bad input an `Err`.
pub fn try_eigh<const D: usize, const DS: usize>(
    a: Tensor<D>,
) -> Result<(Tensor<DS>, Tensor<D>), LinalgError> {
    const OP: &str = "eigh";
    let dims = matrices(OP, &a, true)?;
    rank_param(OP, "DS", "D - 1", D - 1, DS)?;
    let n = dims.n;
    let data = read(&a);
    let parts = par_map(dims.batch, |b| {
        jacobi::eigh(&data[b * n * n..(b + 1) * n * n], n)
    });
    let place = Place::of(&a);
    let tracked = a.is_tracked();
    let fs: Vec<Vec<f64>> = if tracked {
        parts.iter().map(|(l, _)| gap_inverse(l)).collect()
    } else {
        Vec::new()
    };
    let (ls, vs): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
    let lambda: Tensor<D> = batch_const(&place, &dims, ls, 1, n);
    let v: Tensor<D> = batch_const(&place, &dims, vs, n, n);
    let l_shape: Vec<usize> = dims.shape[..D - 2].iter().copied().chain([n]).collect();
    if !tracked {
        return Ok((reshape(lambda, &l_shape), v));
    }
    let f = batch_const(&place, &dims, fs, n, n);
    let (sl, sv) = grad::eigh(a, v.clone(), f);
    Ok((reshape(attach(lambda, sl), &l_shape), attach(v, sv)))
}
