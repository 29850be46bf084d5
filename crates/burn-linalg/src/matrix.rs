//! Matrix products and reductions written as tensor ops (device-side,
//! differentiable as is): `outer`, `matvec`, `diag`, `trace`, and the
//! matrix norms (the nuclear and spectral ones go through the host SVD).

use crate::host::reshape;
use crate::{LinalgError, decomp};
use burn_tensor::{AsIndex, Int, Numeric, Tensor, TensorKind};

/// Outer product over the last dim, batched over the others:
/// `[.., m] × [.., n] → [.., m, n]` (leading dims broadcast), for float and
/// int tensors. `R = D + 1`; the same as [`outer_dim`] with `dim = -1`.
///
/// # Panics
/// If `R ≠ D + 1` or the leading dims do not broadcast.
#[track_caller]
pub fn outer<const D: usize, const R: usize, K>(
    lhs: Tensor<D, K>,
    rhs: Tensor<D, K>,
) -> Tensor<R, K>
where
    K: Numeric,
{
    outer_dim(lhs, rhs, -1)
}

/// Outer product along `dim` (negative counts from the end), broadcasting
/// over the other dims: `dim` of size `M` in `lhs` and `N` in `rhs` becomes
/// the two dims `(dim, dim + 1)` of size `M × N`,
/// `out[.., i, j, ..] = lhs[.., i, ..] · rhs[.., j, ..]`
/// (NumPy: `einsum('aib,ajb->aijb')` for `dim = 1` of rank 3). `R = D + 1`.
///
/// ```
/// use burn_tensor::{Device, Int, Tensor};
///
/// let device = Device::flex();
/// // [2, 3] (dim 0 of size 2) × [3, 3] (size 3) → [2, 3, 3].
/// let x = Tensor::<2, Int>::from_ints([[1, 2, 3], [4, 5, 6]], &device);
/// let y = Tensor::<2, Int>::from_ints([[1, 0, 2], [0, 1, 0], [1, 1, 1]], &device);
/// let o: Tensor<3, Int> = burn_linalg::outer_dim(x, y, 0);
/// assert_eq!(o.dims(), [2, 3, 3]);
/// // o[1, 2, 0] = x[1, 0] · y[2, 0] = 4.
/// let v: Vec<i64> = o.into_data().convert::<i64>().to_vec().unwrap();
/// assert_eq!(v[9 + 6], 4);
/// ```
///
/// # Panics
/// If `R ≠ D + 1`, `dim` is out of range, or the other dims do not
/// broadcast.
#[track_caller]
pub fn outer_dim<const D: usize, const R: usize, Dim: AsIndex, K>(
    lhs: Tensor<D, K>,
    rhs: Tensor<D, K>,
    dim: Dim,
) -> Tensor<R, K>
where
    K: Numeric,
{
    assert!(
        R == D + 1,
        "outer_dim: output rank R = {R} must be D + 1 = {}",
        D + 1
    );
    let dim = crate::norm::resolve::<D>("outer_dim", dim);
    let col: Tensor<R, K> = lhs.unsqueeze_dim(dim + 1); // [.., M, 1, ..]
    let row: Tensor<R, K> = rhs.unsqueeze_dim(dim); // [.., 1, N, ..]
    col * row
}

/// Matrix–vector product `[.., m, n] · [.., n] → [.., m]`, batch dims
/// broadcast, for float and int tensors. `DV = DM − 1`.
///
/// A broadcast multiply and a sum over `n` (not `matmul`, which is not
/// kind-generic): `O(m·n)` temporary per matrix, as the matrix itself.
///
/// # Panics
/// If `DV + 1 ≠ DM`, `DM < 2`, or the shapes do not fit.
#[track_caller]
pub fn matvec<const DM: usize, const DV: usize, K>(
    matrix: Tensor<DM, K>,
    vector: Tensor<DV, K>,
) -> Tensor<DV, K>
where
    K: Numeric,
{
    assert!(
        DM >= 2 && DV + 1 == DM,
        "matvec: vector rank {DV} must be one less than matrix rank {DM} (at least 2)"
    );
    let row: Tensor<DM, K> = vector.unsqueeze_dim(DV - 1); // [.., 1, n]
    (matrix * row).sum_dim(DM - 1).squeeze_dim(DM - 1) // [.., m]
}

/// The main diagonal of the last two dims, `[.., m, n] → [.., min(m, n)]`,
/// for every kind (float, int, bool). `DO = D − 1`.
///
/// Gathers entries `i·(n + 1)` of the flattened `[.., k·n]` top rows, so it
/// needs no arithmetic (bool works) and autodiff sees a `select`.
///
/// # Panics
/// If `D < 2` or `DO ≠ D − 1`.
#[track_caller]
pub fn diag<const D: usize, const DO: usize, K>(tensor: Tensor<D, K>) -> Tensor<DO, K>
where
    K: TensorKind,
{
    assert!(
        D >= 2 && DO + 1 == D,
        "diag: output rank DO = {DO} must be D − 1 (D = {D} ≥ 2)"
    );
    let dims = tensor.shape().dims.clone();
    let (m, n) = (dims[D - 2], dims[D - 1]);
    let k = m.min(n);
    let mut flat_shape = dims[..D - 2].to_vec();
    flat_shape.push(k * n);
    let device = tensor.device();
    let top: Tensor<DO, K> = reshape(tensor.narrow(D - 2, 0, k), &flat_shape); // [.., k·n]
    let index = Tensor::<1, Int>::arange_step(0..(k * n) as i64, n + 1, &device);
    top.select(DO - 1, index) // [.., k]
}

/// The sum of the main diagonal, `[.., m, n] → [.., 1]`. `DO = D − 1`.
#[track_caller]
pub fn trace<const D: usize, const DO: usize>(tensor: Tensor<D>) -> Tensor<DO> {
    let d: Tensor<DO> = diag(tensor);
    d.sum_dim(DO - 1)
}

/// Which matrix norm [`matrix_norm`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatrixNorm {
    /// `sqrt(Σ a_ij²)`.
    Frobenius,
    /// Sum of singular values.
    Nuclear,
    /// Largest singular value (the operator 2-norm).
    Spectral,
    /// Largest absolute column sum (the operator 1-norm).
    One,
    /// Largest absolute row sum (the operator ∞-norm).
    Inf,
}

/// A matrix norm of the last two dims, kept as `[.., 1, 1]`.
///
/// Frobenius, 1 and ∞ are tensor ops; nuclear and spectral take the
/// singular values from the host SVD, with their gradients attached (see
/// [`svd`](crate::svd)).
///
/// # Panics
/// If `D < 2` or the input is not float (the message names `matrix_norm`).
#[track_caller]
pub fn matrix_norm<const D: usize>(a: Tensor<D>, norm: MatrixNorm) -> Tensor<D> {
    try_matrix_norm(a, norm).unwrap_or_else(|e| panic!("{e}"))
}

/// [`matrix_norm`], with bad input an `Err`.
pub fn try_matrix_norm<const D: usize>(
    a: Tensor<D>,
    norm: MatrixNorm,
) -> Result<Tensor<D>, LinalgError> {
    crate::host::matrices("matrix_norm", &a, false)?;
    Ok(match norm {
        MatrixNorm::Frobenius => (a.clone() * a).sum_dim(D - 1).sum_dim(D - 2).sqrt(),
        MatrixNorm::One => a.abs().sum_dim(D - 2).max_dim(D - 1),
        MatrixNorm::Inf => a.abs().sum_dim(D - 1).max_dim(D - 2),
        MatrixNorm::Nuclear => decomp::singular_values_kept("matrix_norm", a)?.sum_dim(D - 1),
        MatrixNorm::Spectral => {
            // σ is sorted descending: the first one is the largest.
            decomp::singular_values_kept("matrix_norm", a)?.narrow(D - 1, 0, 1)
        }
    })
}
