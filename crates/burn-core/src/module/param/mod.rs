//! Parameters: [`Param<T>`] and its [`ParamId`], tensor parameters of every
//! kind, and [`Flag`] control state.

mod base;
mod flag;
mod id;
mod tensor;

pub use base::{Param, Parameter};
pub use flag::Flag;
pub use id::ParamId;

pub(crate) use tensor::push_unique;
