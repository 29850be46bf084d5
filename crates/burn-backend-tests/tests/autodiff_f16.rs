//! The autodiff suite at f16: the modules of `tests/autodiff.rs` with
//! `FloatElem = f16` (`cargo test-flex --test autodiff_f16`), without its
//! finite-difference checks (they compute in f64 whatever `FloatElem` is,
//! and run in `tests/autodiff.rs`). On a device without f16 the executable
//! prints that it is skipped and passes.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

use burn::tensor::{Device, Element, f16};

/// The float element type of this executable.
pub type FloatElem = f16;
pub use common::backend::IntElem;

/// The device under test, with an autodiff context (no checkpointing).
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE).autodiff()
}

mod common;

#[path = "common/autodiff.rs"]
mod autodiff;
