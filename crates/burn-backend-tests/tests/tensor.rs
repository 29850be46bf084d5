//! The tensor suite: every shared tensor-op test, run against the backend
//! selected by the enabled feature (`cargo test-flex --test tensor`).
//!
//! This file fixes the precision of the executable: `FloatElem` and `IntElem`
//! are the dtypes the device is configured with before the first tensor is
//! created, and the dtypes the test modules convert their expected data to.
//! Another executable (f16, i32, …) can reuse the same modules by defining
//! other aliases.
//!
//! Without a backend feature the whole file is compiled out, so
//! `cargo test --workspace` builds and runs nothing from here.
// One entry per backend feature; later backends extend the list.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
// Expected values are written out as tests/reference/*.py prints them; some
// are well-known constants (ln 2, sqrt 2, e) and are kept in that form.
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

/// The device under test, configured with this executable's dtypes.
///
/// The configuration runs once, before any test creates a tensor; a device
/// that was already initialized with the same dtypes is fine.
pub fn device() -> Device {
    static CONFIGURE: Once = Once::new();
    let mut device = common::backend::plain_device();
    CONFIGURE.call_once(|| {
        let config = DeviceConfig::default()
            .float_dtype(<FloatElem as Element>::DTYPE)
            .int_dtype(<IntElem as Element>::DTYPE);
        match device.configure(config) {
            Ok(()) | Err(DeviceError::AlreadyInitialized { .. }) => {}
            Err(err) => panic!("cannot configure the test device: {err}"),
        }
    });
    device
}

mod common;
#[path = "common/tensor.rs"]
mod tensor;
