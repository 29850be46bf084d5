//! The tensor suite at f64: the modules of `tests/tensor.rs` with
//! `FloatElem = f64` (`cargo test-flex --test tensor_f64`). On a device
//! without f64 the executable prints that it is skipped and passes.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

// The CubeCL backend on WGPU has no f64 (burn-cubecl refuses it there:
// WGSL has none, and Vulkan's exp, log and trigonometry stop at 32 bits),
// so the suite is not built for it (a build only to skip);
// `wgpu_has_no_f64` checks that this still holds. On the other backends,
// `device()` still skips the suite at run time on a device without f64.

#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
use burn::tensor::{Device, Element};

/// The float element type of this executable.
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub type FloatElem = f64;
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub use common::backend::IntElem;

/// The device under test, configured with this executable's dtypes.
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE)
}

#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
mod common;
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
#[path = "common/tensor.rs"]
mod tensor;

#[cfg(all(feature = "wgpu", not(feature = "cuda")))]
#[test]
fn wgpu_has_no_f64() {
    use std::io::Write;
    let device = burn::tensor::Device::wgpu(Default::default());
    assert!(
        !device.supports_dtype(burn::tensor::DType::F64),
        "WGPU now supports f64: build this suite for it (the cfgs of this file)"
    );
    // Past the harness's output capture, so that `cargo test` shows it.
    let _ = writeln!(std::io::stderr(), "tensor_f64: skipped, WGPU has no f64");
}
