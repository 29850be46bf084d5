//! The tensor suite at f32: every shared tensor-op test, run against the
//! backend selected by the enabled feature (`cargo test-flex --test tensor`).
//!
//! This file fixes the precision of the executable: `FloatElem` is the
//! float dtype the device is configured with before the first tensor is
//! created, and the dtype the test modules convert their expected data to
//! (`IntElem`, the backend's int dtype, comes from `common/backend.rs`).
//! `tensor_f64.rs`, `tensor_f16.rs` and `tensor_bf16.rs` run the same
//! modules at the other float dtypes.
//!
//! Without a backend feature the whole file is compiled out, so
//! `cargo test --workspace` builds and runs nothing from here.
// One entry per backend feature; later backends extend the list.
#![allow(clippy::non_minimal_cfg)]
#![cfg(any(feature = "flex", feature = "wgpu", feature = "cuda"))]
// Expected values are written out as tests/reference/*.py prints them; some
// are well-known constants (ln 2, sqrt 2, e) and are kept in that form.
#![allow(clippy::approx_constant)]

use burn::tensor::{Device, Element};

/// The float element type of this executable.
pub type FloatElem = f32;
pub use common::backend::IntElem;

/// The device under test, configured with this executable's dtypes.
pub fn device() -> Device {
    common::backend::configured_device(<FloatElem as Element>::DTYPE)
}

mod common;
#[path = "common/tensor.rs"]
mod tensor;
