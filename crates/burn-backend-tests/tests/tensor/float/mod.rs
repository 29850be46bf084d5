//! float tensor tests.

mod module;
mod ops;
mod quantization;
