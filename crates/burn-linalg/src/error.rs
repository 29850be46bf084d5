//! The one error type of the crate.
//!
//! Policy: every decomposition and solver has a `try_` form returning
//! [`LinalgError`]; the plain form panics with the same message, which names
//! the function, the shape and the problem. Shape and dtype problems are
//! found before any data is read; numerical ones (singular, not positive
//! definite) after the host factorization, and never turn into NaNs.
//! The norm and product helpers (`vector_norm`, `outer`, …) are plain
//! compositions of tensor ops and panic through the tensor API.

use burn_tensor::DType;

/// Why a linear-algebra function refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinalgError {
    /// The tensor has fewer dims than the function needs.
    #[error("{op}: expected a tensor of rank at least {min}, got shape {shape:?}")]
    RankTooLow {
        /// The function.
        op: &'static str,
        /// The smallest rank accepted.
        min: usize,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// A const-generic rank parameter (`D1`, `D2`, …) is not the value the
    /// input rank `D` fixes.
    #[error("{op}: generic parameter {param} = {got} must be {rule} = {expected}")]
    RankParam {
        /// The function.
        op: &'static str,
        /// The parameter's name (`"D1"`).
        param: &'static str,
        /// How it follows from `D` (`"D - 1"`).
        rule: &'static str,
        /// The value it must have.
        expected: usize,
        /// The value given.
        got: usize,
    },
    /// The last two dims differ where a square matrix is required.
    #[error("{op}: expected square matrices, got shape {shape:?}")]
    NotSquare {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// Two operands' shapes do not fit together.
    #[error("{op}: shapes {lhs:?} and {rhs:?} are incompatible: {reason}")]
    ShapeMismatch {
        /// The function.
        op: &'static str,
        /// The first operand's shape.
        lhs: Vec<usize>,
        /// The second operand's shape.
        rhs: Vec<usize>,
        /// What does not fit.
        reason: &'static str,
    },
    /// A matrix is singular to working precision.
    #[error("{op}: matrix {batch} of shape {shape:?} is singular (zero pivot at index {pivot})")]
    Singular {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
        /// Flat index of the matrix in the batch.
        batch: usize,
        /// The first pivot of `U` that is zero to working precision.
        pivot: usize,
    },
    /// Cholesky met a non-positive pivot.
    #[error(
        "{op}: matrix {batch} of shape {shape:?} is not positive definite (pivot at column \
         {column} is not positive)"
    )]
    NotPositiveDefinite {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
        /// Flat index of the matrix in the batch.
        batch: usize,
        /// The column whose pivot failed.
        column: usize,
    },
    /// A matrix does not have full rank where the function needs it.
    #[error("{op}: matrix {batch} of shape {shape:?} is rank deficient")]
    RankDeficient {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
        /// Flat index of the matrix in the batch.
        batch: usize,
    },
    /// The input is not a float tensor (a quantized one).
    #[error("{op}: expected a float tensor, got {dtype:?} of shape {shape:?}")]
    NotFloat {
        /// The function.
        op: &'static str,
        /// The input's dtype.
        dtype: DType,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// The input is tracked by autodiff, but this case has no gradient.
    #[error("{op}: no gradient for input of shape {shape:?}: {reason}; detach() it first")]
    NotDifferentiable {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
        /// Why.
        reason: &'static str,
    },
}
