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
    /// The broadcast shape holds more elements than a tensor can address.
    #[error("cannot broadcast shapes {lhs} and {rhs}: {source}")]
    TooLarge {
        /// Left operand.
        lhs: Shape,
        /// Right operand.
        rhs: Shape,
        /// The size the broadcast shape would need.
        source: SizeError,
    },
}

/// A shape is too large: its element or byte count does not fit the
/// address space, or the allocator refused its buffer.
///
/// Every size computed from a shape goes through [`Shape::try_num_elements`]
/// or [`Shape::try_num_bytes`], so an overflow is this error, never a
/// wrapped count. The messages carry no operation name; the layer that
/// knows the operation prefixes it (`"zeros: cannot allocate ..."`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// The product of the dims exceeds `isize::MAX`, the most elements any
    /// slice (and so any buffer or strided view) can address.
    #[error("shape {shape} has more elements than fit in isize (max {max})", max = isize::MAX)]
    ElementsOverflow {
        /// The offending shape.
        shape: Shape,
    },
    /// The element count fits but the byte count exceeds `isize::MAX`.
    #[error("shape {shape} ({dtype}) needs more bytes than fit in isize (max {max})", max = isize::MAX)]
    BytesOverflow {
        /// The offending shape.
        shape: Shape,
        /// Its element type.
        dtype: DType,
    },
    /// The allocator could not provide the buffer.
    #[error("cannot allocate {bytes} bytes for shape {shape} ({dtype})")]
    Alloc {
        /// Bytes requested.
        bytes: usize,
        /// The shape the buffer was for.
        shape: Shape,
        /// Its element type.
        dtype: DType,
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
    /// The shape's byte count does not fit in memory.
    #[error(transparent)]
    Size(#[from] SizeError),
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
