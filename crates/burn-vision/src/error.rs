//! The one error type of the crate.
//!
//! Policy: bad arguments (wrong rank or channel count, empty kernel, anchor
//! outside the kernel) are programmer errors, so the plain functions panic
//! with this type's message, which names the op and the shape. Where a
//! caller may want to recover (the `try_` forms, and I/O in
//! [`save_tensor_as_image`](crate::utils::save_tensor_as_image)) the same
//! cases come back as a [`VisionError`].

use std::string::String;
use std::vec::Vec;

/// Why a vision op refused its input.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    /// The input does not have the layout the op needs.
    #[error("{op}: expected {expected}, got shape {shape:?}")]
    BadShape {
        /// The op.
        op: &'static str,
        /// What the op needs, in words (e.g. "[batch, 3, height, width]").
        expected: &'static str,
        /// The input's shape.
        shape: Vec<usize>,
    },
    /// The kernel (structuring element, filter) is empty or has no set element.
    #[error("{op}: the kernel of shape {shape:?} is empty")]
    EmptyKernel {
        /// The op.
        op: &'static str,
        /// The kernel's shape.
        shape: Vec<usize>,
    },
    /// The anchor lies outside the kernel.
    #[error("{op}: anchor ({x}, {y}) is outside the kernel of shape {shape:?}")]
    AnchorOutside {
        /// The op.
        op: &'static str,
        /// Anchor column.
        x: usize,
        /// Anchor row.
        y: usize,
        /// The kernel's shape `[height, width]`.
        shape: Vec<usize>,
    },
    /// An argument is out of its domain (the message says which).
    #[error("{op}: {message}")]
    BadArgument {
        /// The op.
        op: &'static str,
        /// What is wrong.
        message: String,
    },
    /// Writing an image file failed.
    #[error("{op}: cannot write {path}")]
    Io {
        /// The op.
        op: &'static str,
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The PNG encoder refused the image.
    #[error("{op}: PNG encoding of {path} failed")]
    Png {
        /// The op.
        op: &'static str,
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: png::EncodingError,
    },
}

/// Panics with the error's message (the plain forms of the `try_` functions).
#[track_caller]
pub(crate) fn raise<T>(result: Result<T, VisionError>) -> T {
    result.unwrap_or_else(|err| panic!("{err}"))
}
