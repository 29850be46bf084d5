//! The autodiff suite: the backward pass of every differentiable op, run
//! against the backend selected by the enabled feature, on its autodiff
//! device (`cargo test-flex --test autodiff`).
//!
//! As in `tests/tensor.rs`, `FloatElem` and `IntElem` fix the precision of
//! the executable; `device()` is the backend's default device with an
//! autodiff context, configured before the first tensor.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

use std::sync::Once;

use burn::tensor::{Device, DeviceConfig, DeviceError, Element};

/// The float element type of this executable.
pub type FloatElem = f32;
/// The int element type of this executable: `i64` on Flex; `i32` on the
/// CubeCL backend (`wgpu`, `cuda`), its default int dtype (64-bit integers
/// are optional on GPUs: WGSL has none). Tests that need 64-bit integers
/// ask for `DType::I64` explicitly and skip themselves where
/// `device.supports_dtype(DType::I64)` is false.
#[cfg(not(any(feature = "wgpu", feature = "cuda")))]
pub type IntElem = i64;
/// The int element type of this executable: `i64` on Flex; `i32` on the
/// CubeCL backend (`wgpu`, `cuda`), its default int dtype (64-bit integers
/// are optional on GPUs: WGSL has none). Tests that need 64-bit integers
/// ask for `DType::I64` explicitly and skip themselves where
/// `device.supports_dtype(DType::I64)` is false.
#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub type IntElem = i32;

/// The device under test, with an autodiff context (no checkpointing).
pub fn device() -> Device {
    static CONFIGURE: Once = Once::new();
    let mut device = common::backend::plain_device();
    CONFIGURE.call_once(|| {
        let config = DeviceConfig::default()
            .float_dtype(<FloatElem as Element>::DTYPE)
            .int_dtype(<IntElem as Element>::DTYPE);
        match device.configure(config) {
            Ok(()) | Err(DeviceError::AlreadyInitialized { .. }) => {}
            Err(error) => panic!("configuring the test device: {error}"),
        }
    });
    device.autodiff()
}

mod common;

#[path = "common/autodiff.rs"]
mod autodiff;
