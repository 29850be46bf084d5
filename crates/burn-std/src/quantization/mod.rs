//! Quantized float tensors: the [`QuantScheme`] (what a quantized value is,
//! how it is stored, where its scales live) and the host [`codec`] every
//! backend can fall back on.
//!
//! A quantized tensor has the dtype [`DType::QFloat`](crate::DType::QFloat)
//! of its scheme; its [`TensorData`](crate::TensorData) holds the packed
//! values followed by their scales, as laid out in [`codec`].

pub mod codec;
mod minifloat;
mod scheme;

pub use codec::{
    QuantError, QuantLayout, check_scheme, compute_scales, dequantize_values, effective_scales,
    params_shape, quantize_values, quantized_data_len,
};
pub use scheme::*;
