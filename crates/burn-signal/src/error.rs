//! The one error type of the crate, returned by the `try_*` forms; the
//! plain forms panic with its message (bad arguments are programmer errors,
//! and the message names the function and the shapes).

use burn_std::DType;
use std::vec::Vec;

/// Why a transform refused its input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignalError {
    /// `dim` is not a dim of the tensor.
    #[error("{op}: dim {dim} is out of range for a tensor of shape {shape:?}")]
    DimOutOfRange {
        /// The function.
        op: &'static str,
        /// The dim as given (possibly negative).
        dim: isize,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// The input has no elements.
    #[error("{op}: cannot transform an empty tensor of shape {shape:?}")]
    Empty {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// `n = Some(0)`.
    #[error("{op}: n must be positive (got n = 0 for a tensor of shape {shape:?})")]
    ZeroLength {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// The real and imaginary parts have different shapes.
    #[error("{op}: real part of shape {re:?} and imaginary part of shape {im:?} differ")]
    PartsDiffer {
        /// The function.
        op: &'static str,
        /// The real part's shape.
        re: Vec<usize>,
        /// The imaginary part's shape.
        im: Vec<usize>,
    },
    /// A one-bin spectrum with no `n`: the default length `2·(bins − 1)` is 0.
    #[error(
        "{op}: a spectrum of shape {shape:?} has 1 bin along dim {dim}, so the default \
         length 2·(bins − 1) is 0; pass n"
    )]
    OneBin {
        /// The function.
        op: &'static str,
        /// The (resolved) frequency dim.
        dim: usize,
        /// The spectrum's shape.
        shape: Vec<usize>,
    },
    /// The input is not a float tensor.
    #[error("{op}: expected a float tensor, got {dtype:?} of shape {shape:?}")]
    NotFloat {
        /// The function.
        op: &'static str,
        /// The input's dtype.
        dtype: DType,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// An input is part of an autodiff graph: the host transform would cut
    /// the graph silently, so it refuses instead.
    #[error(
        "{op}: the input of shape {shape:?} is tracked by autodiff, but gradients do not \
         flow through this host transform; detach() it first"
    )]
    Tracked {
        /// The function.
        op: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
    },
}
