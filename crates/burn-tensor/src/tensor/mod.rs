//! The `Tensor` type, its kinds, and its public API.

pub mod activation;
pub(crate) mod api;
mod display;
pub(crate) mod error;
mod kind;
pub mod module;
pub mod ops;
mod overload;
pub mod quantization;
mod read_error;
pub mod slice;

#[cfg(feature = "autodiff")]
pub use api::{Checkpointing, Gradients};
pub use api::{Tensor, TensorCreationOptions};
pub use error::{TensorError, TensorErrorCause};
pub use kind::{Bool, Float, Int, KindTag, Numeric, TensorKind};
pub use read_error::TensorReadError;
