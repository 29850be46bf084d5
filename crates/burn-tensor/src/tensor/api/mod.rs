//! The public methods of `Tensor`, one file per kind family:
//! `base.rs` (every kind), `numeric.rs` (float and int), `float.rs`, `int.rs`, `bool.rs`;
//! `autodiff.rs` and `capture.rs` for the contexts behind their features.
//!
//! Every method body is thin: check the user-facing shape rules (naming the
//! op and shapes), then call a non-generic function of `crate::bridge::ops`.

#[cfg(feature = "autodiff")]
mod autodiff;
mod base;
mod bool;
#[cfg(feature = "capture")]
mod capture;
#[cfg(feature = "extension")]
mod extension;
mod float;
mod int;
mod numeric;

#[cfg(feature = "autodiff")]
pub use autodiff::{Checkpointing, Gradients};
pub use base::{Tensor, TensorCreationOptions};
