//! The autodiff suite at bf16: the modules of `tests/autodiff.rs` with
//! `FloatElem = bf16` (`cargo test-flex --test autodiff_bf16`), without its
//! finite-difference checks (they compute in f64 whatever `FloatElem` is,
//! and run in `tests/autodiff.rs`). On a device without bf16 the executable
//! prints that it is skipped and passes.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
#![allow(clippy::approx_constant)]

// The CubeCL backend on WGPU has no bf16 (WGSL has none), so the suite is
// not built for it (a build only to skip); `wgpu_has_no_bf16` checks that
// this still holds. On the other backends, `device()` still skips the
// suite at run time on a device without bf16.

#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
use burn::tensor::{Device, Element, bf16};

/// The float element type of this executable.
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub type FloatElem = bf16;
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub use common::backend::IntElem;

/// The device under test, with an autodiff context (no checkpointing).
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE).autodiff()
}

#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
#[path = "common/autodiff.rs"]
mod autodiff;
#[cfg(not(all(feature = "wgpu", not(feature = "cuda"))))]
mod common;

#[cfg(all(feature = "wgpu", not(feature = "cuda")))]
#[test]
fn wgpu_has_no_bf16() {
    use std::io::Write;
    let device = burn::tensor::Device::wgpu(Default::default());
    assert!(
        !device.supports_dtype(burn::tensor::DType::BF16),
        "WGPU now supports bf16: build this suite for it (the cfgs of this file)"
    );
    // Past the harness's output capture, so that `cargo test` shows it.
    let _ = writeln!(
        std::io::stderr(),
        "autodiff_bf16: skipped, WGPU has no bf16"
    );
}
