//! The autodiff suite at f32: the backward pass of every differentiable op,
//! run against the backend selected by the enabled feature, on its autodiff
//! device (`cargo test-flex --test autodiff`).
//!
//! As in `tests/tensor.rs`, `FloatElem` fixes the precision of the
//! executable; `device()` is the backend's device configured with it
//! before the first tensor, with an autodiff context. `autodiff_f64.rs`,
//! `autodiff_f16.rs` and `autodiff_bf16.rs` run the same modules at the
//! other float dtypes, except the finite-difference checks of
//! `autodiff/gradcheck.rs`: the checker computes in f64 whatever
//! `FloatElem` is, so they run here only (`common/gradcheck.rs`).
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

use burn::tensor::{Device, Element};

/// The float element type of this executable.
pub type FloatElem = f32;
pub use common::backend::IntElem;

/// The device under test, with an autodiff context (no checkpointing).
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE).autodiff()
}

mod common;

#[path = "common/autodiff.rs"]
mod autodiff;

/// Every differentiable op against central differences, in f64.
#[path = "autodiff/gradcheck.rs"]
mod gradcheck;
