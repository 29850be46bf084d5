//! The `Tensor` type, its kinds, and its public API.

pub mod activation;
pub(crate) mod api;
mod display;
mod kind;
mod overload;
pub mod slice;

pub use api::{Tensor, TensorCreationOptions};
pub use kind::{Bool, Float, Int, KindTag, Numeric, TensorKind};
