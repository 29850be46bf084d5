//! The autodiff suite: the backward pass of every differentiable op, run
//! against the backend selected by the enabled feature, on its autodiff
//! device (`cargo test-flex --test autodiff`).
//!
//! As in `tests/tensor.rs`, `FloatElem` and `IntElem` fix the precision of
//! the executable; `device()` is the backend's default device with an
//! autodiff context, configured before the first tensor.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex"))]
#![allow(clippy::approx_constant)]

use std::sync::Once;

use burn::tensor::{Device, DeviceConfig, DeviceError, Element};

/// The float element type of this executable.
pub type FloatElem = f32;
/// The int element type of this executable.
pub type IntElem = i64;

/// The device under test, with an autodiff context (no checkpointing).
pub fn device() -> Device {
    static CONFIGURE: Once = Once::new();
    let mut device = Device::default();
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
