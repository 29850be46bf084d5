//! # burn-linalg: linear algebra on Burn tensors
//!
//! Norms, matrix products, decompositions and solvers for tensors of any
//! backend, batched over leading dims, in f32 and f64, with gradients.
//! Names and signatures are those of Burn's published `burn_linalg`
//! (0.23): the same generic parameters in the same order, the same
//! arguments and return types, so code written against it compiles here.
//! The rest (`inverse`, `lstsq`, `eigh`, `matrix_norm`, the `try_` forms,
//! [`LinalgError`]) is added in the same style.
//!
//! Most functions are float-only. The ones that are pure data movement or
//! need no division or root take other kinds too: [`diag`] any kind
//! (float, int, bool), and [`outer`], [`outer_dim`], [`matvec`],
//! [`l0_norm`], [`l1_norm`], [`max_abs_norm`], [`min_abs_norm`] (and
//! their `_dims` forms) any numeric kind (float, int). Burn bounds these
//! by its `Basic`, `Numeric` and `Ordered` kind traits; this workspace's
//! `burn_tensor` has `TensorKind` (all kinds) and `Numeric` (float, int),
//! which stand in for `Basic` and for `Numeric`/`Ordered` respectively.
//!
//! | function | input | output |
//! |---|---|---|
//! | [`vector_norm`] (+ `l0/l1/l2/lp/max_abs/min_abs_norm`, `_dims`) | `[.., d, ..]` | dim kept as 1 |
//! | [`vector_normalize`], [`cosine_similarity`] | `[..]` | `[..]` / dim kept as 1 |
//! | [`outer`], [`outer_dim`] | `[.., m]`, `[.., n]` (or along `dim`) | `[.., m, n]` |
//! | [`matvec`] | `[.., m, n]`, `[.., n]` | `[.., m]` |
//! | [`diag`], [`trace`] | `[.., m, n]` | `[.., min(m, n)]` / `[.., 1]` |
//! | [`matrix_norm`] (Frobenius, nuclear, spectral, 1, ∞) | `[.., m, n]` | `[.., 1, 1]` |
//! | [`det`] `<D, D1, D2>` | `[.., n, n]` | `[..]` (rank `D2 = D − 2`) |
//! | [`lu`] `<D, D1>` | `[.., m, n]` | `(P, L, U)`, `A = P·L·U` |
//! | [`qr`] | `[.., m, n]`, `reduced` | `(Q, R)` |
//! | [`cholesky`] | `[.., n, n]` SPD, `upper` | `L` (or `U = Lᵀ`) |
//! | [`solve`] `<D, DB, DO>`, [`lstsq`] | `A`, `B` `[.., n]` or `[.., n, k]` | `X` like `B`, batch broadcast |
//! | [`inverse`] | `[.., n, n]` | `[.., n, n]` |
//! | [`svd`] `<D, D1>`, `sweeps` | `[.., m, n]` | `(U, S, Vh)`, thin |
//! | [`eigh`] | `[.., n, n]` symmetric | `(λ ascending, V)` |
//!
//! ## How it computes
//!
//! Norms and products are compositions of tensor ops: they run on the
//! device and autodiff differentiates them as is. The decompositions and
//! solvers read the tensor to the host, compute in f64 (every float dtype;
//! the result is cast back to the input's dtype) and build the result on
//! the input's device. The host kernels (`kernel`) are blocked
//! right-looking LU, Cholesky and compact-WY Householder QR whose trailing
//! updates run through a packed, register-tiled GEMM (AVX2+FMA when the CPU
//! has it, detected at run time); a batch of matrices is split over two
//! threads, and a single large matrix splits its GEMM updates instead. SVD
//! (one-sided Jacobi, at most `sweeps` sweeps) and `eigh` (cyclic Jacobi)
//! favour accuracy and simplicity over speed.
//!
//! ## Rank parameters
//!
//! Ranks are static, so several functions carry extra const generics, as
//! in Burn; each must equal what `D` fixes, and a wrong one is refused
//! with [`LinalgError::RankParam`] (the plain form panics with it):
//! `lu::<D, D1>` with `D1 = D − 1` (Burn's pivot rank), `svd::<D, D1>` and
//! `eigh::<D, DS>` with the rank `D − 1` of `S`/`λ`, `det::<D, D1, D2>`
//! with `D1 = D − 1`, `D2 = D − 2` (so `D ≥ 3`). `solve::<D, DB, DO>`'s
//! `DO` is the output rank and picks the form of `B`: `D − 1` for a
//! vector, `max(D, DB)` for a matrix (see [`solve`]).
//!
//! ## Gradients
//!
//! Without a custom-backward hook, a tracked input gets its gradient by a
//! surrogate: the result `y` is returned as `y + (s − s.detach())`, where
//! `s` is a tensor-op expression in the live input whose first derivative
//! equals the true one (see `grad.rs` for each formula). Forward values are
//! exact; **first-order gradients only** — second-order gradients through
//! these functions are wrong, not merely missing. Cases without a gradient
//! (LU of a non-square matrix, QR with `m < n` or full `Q` of a tall
//! matrix) are refused with [`LinalgError::NotDifferentiable`] rather than
//! cut from the graph.
//!
//! ## Errors
//!
//! Every host function has a `try_` form returning [`LinalgError`]; the
//! plain form panics with its message, which names the function, the shape
//! and the problem: not square, rank too low, shapes that do not fit, a
//! singular matrix (for `solve`, `inverse`: a pivot zero to working
//! precision, `|u_kk| ≤ n·ε·max|U|`), a matrix that is not positive
//! definite (for `cholesky`, with the column), rank deficiency (`lstsq`).
//! Numerical failure is never returned as NaNs. Empty inputs (0×0
//! matrices, a batch of 0) give empty results.
//!
//! ## What it must not depend on
//!
//! No backend crate and no BLAS/LAPACK: it is written against the
//! backend-independent tensor API of `burn-tensor`, so it works on every
//! backend (CPU Flex, WGPU, …). The price is a device round trip per call.
//!
//! ## Example
//!
//! ```
//! use burn_tensor::{DType, Device, Tensor, TensorData};
//!
//! let device = Device::flex();
//! let a = Tensor::<3>::from_data(
//!     TensorData::new(vec![4.0, 2.0, 2.0, 3.0], [1, 2, 2]),
//!     (&device, DType::F64),
//! );
//! // A = L·Lᵀ.
//! let l = burn_linalg::cholesky(a.clone(), false);
//! let err: f64 = (l.clone().matmul(l.swap_dims(1, 2)) - a.clone()).abs().max().into_scalar();
//! assert!(err < 1e-14);
//! // det A = 8 (D = 3, D1 = 2, D2 = 1).
//! let d = burn_linalg::det::<3, 2, 1>(a);
//! assert!((d.into_scalar::<f64>() - 8.0).abs() < 1e-12);
//! ```
//!
//! ## Modules
//!
//! - `norm`: [`Norm`], vector norms, [`vector_normalize`], [`cosine_similarity`].
//! - `matrix`: [`outer`], [`outer_dim`], [`matvec`], [`diag`], [`trace`], [`matrix_norm`].
//! - `decomp`: [`lu`], [`qr`], [`cholesky`], [`det`], [`svd`], [`eigh`].
//! - `solve`: [`solve`], [`inverse`], [`lstsq`].
//! - `grad`: every gradient surrogate, each beside its formula.
//! - `kernel`: the f64 host kernels (GEMM, LU, Cholesky, QR, triangular
//!   solves, Jacobi SVD/eigh).
//! - `host`: the tensor ↔ host boundary.

mod decomp;
mod error;
mod grad;
mod host;
mod kernel;
mod matrix;
mod norm;
mod solve;

pub use decomp::{
    cholesky, det, eigh, lu, qr, svd, try_cholesky, try_det, try_eigh, try_lu, try_qr, try_svd,
};
pub use error::LinalgError;
pub use matrix::{MatrixNorm, diag, matrix_norm, matvec, outer, outer_dim, trace, try_matrix_norm};
pub use norm::{
    Norm, cosine_similarity, l0_norm, l0_norm_dims, l1_norm, l1_norm_dims, l2_norm, l2_norm_dims,
    lp_norm, lp_norm_dims, max_abs_norm, max_abs_norm_dims, min_abs_norm, min_abs_norm_dims,
    vector_norm, vector_norm_dims, vector_normalize,
};
pub use solve::{inverse, lstsq, solve, try_inverse, try_lstsq, try_solve};
