//! Error types for the fallible operations of this crate.
//!
//! They live together so that downstream crates can match on every failure
//! mode from a single import, and every variant carries the values that
//! caused it: a message alone is useless to code that wants to recover.

use crate::{DType, Shape, Slice};

/// Two shapes could not be combined.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Broadcasting failed: at `axis` (counted from the right, 0 = last
    /// dimension) the sizes differ and neither is 1.
    #[error(
        "cannot broadcast shapes {lhs} and {rhs}: axis {axis} from the right has sizes {lhs_dim} and {rhs_dim}"
    )]
    BroadcastIncompatible {
        /// Left operand.
        lhs: Shape,
        /// Right operand.
        rhs: Shape,
        /// Offset of the failing axis counted from the last dimension.
        axis: usize,
        /// Size of the failing axis in `lhs`.
        lhs_dim: usize,
        /// Size of the failing axis in `rhs`.
        rhs_dim: usize,
    },
}

/// Tensor data could not be built or read as requested.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The stored dtype is not the one the caller asked for.
    #[error("dtype mismatch: expected {expected}, found {found}")]
    TypeMismatch {
        /// The dtype the caller asked for.
        expected: DType,
        /// The dtype actually stored.
        found: DType,
    },
    /// The byte buffer does not hold exactly `shape.num_elements()` elements.
    #[error("shape {shape} needs {expected_bytes} bytes but the buffer holds {found_bytes}")]
    LengthMismatch {
        /// The requested shape.
        shape: Shape,
        /// Bytes implied by shape and dtype.
        expected_bytes: usize,
        /// Bytes actually provided.
        found_bytes: usize,
    },
}

/// A [`Slice`] cannot be applied to a dimension.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SliceError {
    /// A step of zero would never advance.
    #[error("slice {slice} has a step of zero")]
    ZeroStep {
        /// The offending slice.
        slice: Slice,
    },
    /// Start or end falls outside `0..=dim_size` after wrapping negatives.
    #[error("slice {slice} is out of range for a dimension of size {dim_size}")]
    OutOfRange {
        /// The offending slice.
        slice: Slice,
        /// Size of the dimension it was applied to.
        dim_size: usize,
    },
    /// After wrapping negatives the start lies past the end.
    #[error(
        "slice {slice} starts after it ends for a dimension of size {dim_size} (resolved {start}..{end})"
    )]
    StartAfterEnd {
        /// The offending slice.
        slice: Slice,
        /// Size of the dimension it was applied to.
        dim_size: usize,
        /// Resolved start index.
        start: usize,
        /// Resolved end index.
        end: usize,
    },
}
