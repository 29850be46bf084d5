//! # burn-capture: record a computation as a graph, run nothing
//!
//! A capture device is a router device whose client executes nothing: each
//! operation on its tensors is appended to a list as
//! [`OperationIr`](burn_ir::OperationIr), and tensor data handed to it (a
//! model's weights moved onto it, an input) is kept aside. A
//! [`CaptureDevice::capture_scope`] delimits one recording; the closure runs
//! ordinary tensor code and names the graph's runtime inputs and outputs
//! with [`CaptureScope::complete`]; the scope returns a [`CapturedGraph`]:
//! the operations in order with those boundaries ([`GraphIr`]), and the
//! values of every other tensor that entered with data (the constants,
//! weights among them). Tools that need a model as a graph (exporters, for
//! instance) start from it.
//!
//! Nothing on a capture device has a value: reading one back is an
//! [`ExecutionError`](burn_backend::ExecutionError), never a made-up
//! result, and an operation outside a scope panics with the device named.
//! Shapes and dtypes are known everywhere, because the router computes
//! them while recording.
//!
//! Applications use it through the facade (`capture` feature):
//! `Device::capture()`, `Device::capture_scope(..)` and
//! `Tensor::capture_id()`. This crate depends on `burn-router` and
//! `burn-ir`, not on the tensor API.
//!
//! ## Map
//! - [`CaptureDevice`], [`CaptureChannel`], [`CaptureBackend`]: the device
//!   and the router over the recording channel.
//! - [`CaptureScope`], [`CompletedCaptureScope`], [`CapturedGraph`],
//!   [`CaptureError`]: one recording and its result.
//! - [`CaptureTensor`], [`IntoCaptureOutputs`]: how tensor types name
//!   themselves as boundaries (implemented by the tensor API).
#![warn(missing_docs)]

extern crate alloc;
extern crate std;

mod client;
mod scope;

pub use burn_ir::{GraphIr, TensorId};
pub use client::{CaptureBackend, CaptureChannel, CaptureDevice};
pub use scope::{
    CaptureError, CaptureScope, CaptureTensor, CapturedGraph, CompletedCaptureScope,
    IntoCaptureOutputs,
};
