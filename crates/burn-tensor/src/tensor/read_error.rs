//! [`TensorReadError`]: why reading a tensor back to the host failed.

use burn_backend::ExecutionError;
use burn_std::DataError;

use crate::TensorError;

/// Why a read of a tensor into host values ([`Tensor::try_into_scalar`],
/// a metric's update) failed.
///
/// [`Tensor::try_into_scalar`]: crate::Tensor::try_into_scalar
#[derive(Debug, Clone, PartialEq)]
pub enum TensorReadError {
    /// The device failed to compute or hand back the data.
    Execution(ExecutionError),
    /// The data came back but cannot be read as asked (dtype, length).
    Data(DataError),
    /// The read failed in the tensor API ([`Tensor::try_into_data`]): a
    /// device failure or a host copy that could not be allocated.
    ///
    /// [`Tensor::try_into_data`]: crate::Tensor::try_into_data
    Tensor(TensorError),
    /// The read needs a different number of elements than the tensor has.
    InvalidShape {
        /// The elements the read needs.
        expected: usize,
        /// The elements the tensor has.
        actual: usize,
    },
}

impl core::fmt::Display for TensorReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Execution(err) => write!(f, "{err}"),
            Self::Data(err) => write!(f, "{err}"),
            Self::Tensor(err) => write!(f, "{err}"),
            Self::InvalidShape { expected, actual } => write!(
                f,
                "expected {expected} tensor element(s), but the tensor has {actual}"
            ),
        }
    }
}

impl core::error::Error for TensorReadError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Execution(err) => Some(err),
            Self::Data(err) => Some(err),
            Self::Tensor(err) => Some(err),
            Self::InvalidShape { .. } => None,
        }
    }
}

impl From<ExecutionError> for TensorReadError {
    fn from(err: ExecutionError) -> Self {
        Self::Execution(err)
    }
}

impl From<DataError> for TensorReadError {
    fn from(err: DataError) -> Self {
        Self::Data(err)
    }
}

impl From<TensorError> for TensorReadError {
    fn from(err: TensorError) -> Self {
        Self::Tensor(err)
    }
}
