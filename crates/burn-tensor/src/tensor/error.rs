//! [`TensorError`]: the error of every `try_*` form of the tensor API.
//!
//! One type for all of them, so code that recovers matches on one thing:
//! which op failed, on which shapes, dtype and device, and why
//! ([`TensorErrorCause`]). The panicking forms (`zeros`, `reshape`, ...)
//! call their `try_*` form and panic with this error's message, so both
//! give the same words: `"zeros: cannot allocate 4398046511104 bytes for
//! shape [1048576, 1048576] (f32)"`.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::string::String;
use std::vec::Vec;

use burn_backend::ExecutionError;
use burn_backend::check::CheckError;
use burn_std::{DType, DataError, Shape, SizeError};

use crate::Device;

/// A tensor operation that could not produce its result.
///
/// ```
/// # #[cfg(feature = "flex")] {
/// use burn_tensor::{Device, Tensor, TensorErrorCause, SizeError};
///
/// let err = Tensor::<2>::try_zeros([1 << 31, 1 << 31], &Device::flex()).unwrap_err();
/// assert_eq!(err.op, "zeros");
/// assert!(matches!(*err.cause, TensorErrorCause::Size(SizeError::BytesOverflow { .. })));
/// assert!(err.to_string().starts_with("zeros: shape [2147483648, 2147483648] (f32)"));
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{op}: {cause}")]
pub struct TensorError {
    /// The operation, as the method is named (`"zeros"`, `"matmul"`).
    pub op: &'static str,
    /// The shapes involved: the requested shape of a creation, the input
    /// (and target) of a reshape, every operand of a matmul or cat.
    pub shapes: Vec<Shape>,
    /// The dtype of the result or operands, when known.
    pub dtype: Option<DType>,
    /// The device the op ran (or would have run) on.
    pub device: Option<Device>,
    /// Why it failed (boxed: keeps `Result<Tensor, TensorError>` small on
    /// the success path).
    #[source]
    pub cause: Box<TensorErrorCause>,
}

/// Why a tensor operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TensorErrorCause {
    /// The result's element or byte count does not fit the address space, or
    /// its buffer could not be allocated.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The arguments do not fit the op (shapes, rank, dims, dtype kind); the
    /// message names the offending values.
    #[error("{0}")]
    Invalid(String),
    /// The data handed in is inconsistent (its bytes do not match its shape
    /// and dtype).
    #[error(transparent)]
    Data(#[from] DataError),
    /// The device failed to run queued work or hand the data back.
    #[error(transparent)]
    Execution(#[from] ExecutionError),
    /// The backend panicked; this is its message. Allocation failures of
    /// the Flex backend arrive this way, already worded as a size error
    /// ("cannot allocate N bytes for shape [..] (f32)").
    #[error("{0}")]
    Backend(String),
}

impl From<CheckError> for TensorErrorCause {
    fn from(err: CheckError) -> Self {
        match err {
            CheckError::Invalid(msg) => Self::Invalid(msg),
            CheckError::Size(err) => Self::Size(err),
        }
    }
}

impl TensorError {
    /// An error of `op` with its cause; context is added with the `with_*`
    /// methods.
    pub(crate) fn new(op: &'static str, cause: impl Into<TensorErrorCause>) -> Self {
        Self {
            op,
            shapes: Vec::new(),
            dtype: None,
            device: None,
            cause: Box::new(cause.into()),
        }
    }

    pub(crate) fn with_shapes(mut self, shapes: Vec<Shape>) -> Self {
        self.shapes = shapes;
        self
    }

    pub(crate) fn with_dtype(mut self, dtype: DType) -> Self {
        self.dtype = Some(dtype);
        self
    }

    pub(crate) fn with_device(mut self, device: Device) -> Self {
        self.device = Some(device);
        self
    }

    /// Panics with this error's message: how every panicking form of a
    /// `try_*` method fails.
    #[cold]
    #[track_caller]
    pub(crate) fn raise(self) -> ! {
        panic!("{self}")
    }
}

/// Runs a backend call, returning its panic (if any) as a cause.
///
/// Backend ops have no error channel: a backend reports a failure it
/// cannot recover from (Flex: a refused allocation) by panicking. The
/// `try_*` forms run the backend under this guard so that such a panic is
/// an `Err` the caller can handle. The backend's panic hook still prints
/// its message. `AssertUnwindSafe`: the inputs were moved into the call and
/// are gone when it unwinds, so no half-updated value is observed after it.
pub(crate) fn guard<T>(call: impl FnOnce() -> T) -> Result<T, TensorErrorCause> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| panic_cause(payload.as_ref()))
}

fn panic_cause(payload: &(dyn Any + Send)) -> TensorErrorCause {
    let message = if let Some(s) = payload.downcast_ref::<&'static str>() {
        String::from(*s)
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("the backend panicked (no message)")
    };
    TensorErrorCause::Backend(message)
}
