//! Parameters: [`Param<T>`] and its [`ParamId`], tensor parameters of every
//! kind, and [`Flag`] control state.

mod base;
mod flag;
mod id;
pub(crate) mod reparameterization;
mod tensor;

pub use base::{Param, ParamMapper, Parameter};
pub use flag::Flag;
pub use id::ParamId;
pub use reparameterization::{Reparameterization, Reparameterizer};

pub(crate) use tensor::push_unique;
