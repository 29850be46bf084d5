//! Activation modules: each wraps a function of
//! [`burn::tensor::activation`] (or composes one from tensor ops) so it can
//! sit in a model struct.
//!
//! - Without parameters: [`Relu`], [`Gelu`], [`Sigmoid`], [`Tanh`],
//!   [`Silu`] (also [`Swish`]), [`Mish`], [`Selu`], [`HardSwish`].
//! - Configured: [`LeakyRelu`], [`Softplus`], [`Elu`], [`HardSigmoid`],
//!   [`Glu`] (splits its input in two along a dim).
//! - With parameters: [`PRelu`] (`alpha`), [`SwiGlu`] (two `Linear`s).

mod elementwise;
mod gated;

pub use elementwise::*;
pub use gated::*;
