//! The tensor suite at f16: the modules of `tests/tensor.rs` with
//! `FloatElem = f16` (`cargo test-flex --test tensor_f16`). On a device
//! without f16 the executable prints that it is skipped and passes.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

use burn::tensor::{Device, Element, f16};

/// The float element type of this executable.
pub type FloatElem = f16;
pub use common::backend::IntElem;

/// The device under test, configured with this executable's dtypes.
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE)
}

mod common;
#[path = "common/tensor.rs"]
mod tensor;
