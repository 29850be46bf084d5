//! Quantized float tensors: the `q_*` operations.
//!
//! A backend provides the four primitives that hold quantized bytes on its
//! device (`q_from_data`, `q_into_data`, `q_device`, `q_to_device`); every
//! other op has a default over them and the float ops:
//!
//! - `quantize`, `quantize_dynamic` and `dequantize` read the values back
//!   and run the host codec of `burn_std::quantization`, so any backend can
//!   quantize (slowly, through the host). Flex runs the same codec where
//!   the tensor already lives.
//! - The layout ops keep a tensor quantized: a reshape that keeps every
//!   block whole only relabels the bytes; anything else dequantizes, runs
//!   the float op, and quantizes the result again with the same scheme,
//!   so values stay within one quantization error.
//! - `q_matmul` dequantizes and multiplies in float; a backend with
//!   integer or weight-only kernels overrides it.
//!
//! Quantized tensors carry no gradient: quantization here is
//! post-training (the seeds: quantization-aware training is not supported).

use alloc::vec::Vec;

use burn_std::quantization::{Calibration, QParams, QuantScheme};
use burn_std::{DType, Shape, Slice, TensorData};

use crate::{Backend, Device, ExecutionError, FloatTensor, IntTensor, QuantizedTensor};

/// Reads a tensor for a host-side quantization step, or panics naming `op`.
#[track_caller]
fn read(op: &str, data: Result<TensorData, ExecutionError>) -> TensorData {
    data.unwrap_or_else(|err| panic!("{op}: reading the tensor failed: {err}"))
}

/// The scheme of a quantized dtype, or a panic naming `op`.
#[track_caller]
pub fn scheme_of(op: &str, dtype: DType) -> QuantScheme {
    match dtype {
        DType::QFloat(scheme) => scheme,
        other => panic!("{op}: expected a quantized tensor, got dtype {other}"),
    }
}

/// Whether a reshape from `from` to `to` keeps every block of `scheme`
/// whole and in place, so the stored bytes are valid for the new shape.
pub fn reshape_keeps_blocks(scheme: &QuantScheme, from: &Shape, to: &Shape) -> bool {
    match scheme.block_size() {
        None => true,
        Some(block) => {
            // Blocks along the last dim only, whole in both shapes: the
            // same runs of consecutive values in row-major order.
            let [b] = block.as_slice() else {
                return false;
            };
            let b = *b as usize;
            let last = |s: &Shape| s.dims.last().copied().unwrap_or(1);
            last(from).is_multiple_of(b) && last(to).is_multiple_of(b)
        }
    }
}

/// The `q_*` operations of a backend.
pub trait QTensorOps<B: Backend> {
    /// A quantized tensor from its bytes (dtype `QFloat`).
    fn q_from_data(data: TensorData, device: &Device<B>) -> QuantizedTensor<B>;

    /// The bytes of a quantized tensor (dtype `QFloat`).
    fn q_into_data(tensor: QuantizedTensor<B>) -> Result<TensorData, ExecutionError>;

    /// The device holding the tensor.
    fn q_device(tensor: &QuantizedTensor<B>) -> Device<B>;

    /// The tensor on `device`.
    fn q_to_device(tensor: QuantizedTensor<B>, device: &Device<B>) -> QuantizedTensor<B>;

    /// `tensor` quantized with `scheme` and the given scales: one per block
    /// (shape [`params_shape`](burn_std::quantization::params_shape)), and for a
    /// two-level scheme the per-tensor scale (shape `[1]`) they are
    /// relative to.
    fn quantize(
        tensor: FloatTensor<B>,
        scheme: &QuantScheme,
        scales: FloatTensor<B>,
        global: Option<FloatTensor<B>>,
    ) -> QuantizedTensor<B> {
        let op = "quantize";
        let device = B::float_device(&tensor);
        let data = read(op, B::float_into_data(tensor));
        let params = QParams {
            scales: read(op, B::float_into_data(scales)).iter::<f32>().collect(),
            global: global.map(|g| read(op, B::float_into_data(g)).iter::<f32>().collect()),
        };
        let q = data
            .quantize_with(scheme, &params)
            .unwrap_or_else(|err| panic!("{op}: {err}"));
        B::q_from_data(q, &device)
    }

    /// `tensor` quantized with `scheme`, scales picked by min-max
    /// calibration per block.
    fn quantize_dynamic(tensor: FloatTensor<B>, scheme: &QuantScheme) -> QuantizedTensor<B> {
        let op = "quantize_dynamic";
        let device = B::float_device(&tensor);
        let data = read(op, B::float_into_data(tensor));
        let q = data
            .quantize(scheme, Calibration::MinMax)
            .unwrap_or_else(|err| panic!("{op}: {err}"));
        B::q_from_data(q, &device)
    }

    /// The values of a quantized tensor, as `f32`.
    fn dequantize(tensor: QuantizedTensor<B>) -> FloatTensor<B> {
        let op = "dequantize";
        let device = B::q_device(&tensor);
        let data = read(op, B::q_into_data(tensor));
        let values = data
            .dequantize()
            .unwrap_or_else(|err| panic!("{op}: {err}"));
        B::float_from_data(values, &device)
    }

    /// The scheme of a quantized tensor.
    fn q_scheme(tensor: &QuantizedTensor<B>) -> QuantScheme {
        use crate::TensorMetadata;
        scheme_of("q_scheme", tensor.dtype())
    }

    /// The tensor with another shape of as many values: the same bytes when
    /// every block stays whole, else requantized.
    fn q_reshape(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B> {
        use crate::TensorMetadata;
        let scheme = B::q_scheme(&tensor);
        if reshape_keeps_blocks(&scheme, &tensor.shape(), &shape) {
            let device = B::q_device(&tensor);
            let data = read("q_reshape", B::q_into_data(tensor));
            let data = TensorData::from_quantized_bytes(data.bytes, shape, scheme)
                .unwrap_or_else(|err| panic!("q_reshape: {err}"));
            return B::q_from_data(data, &device);
        }
        requantize::<B>(tensor, |t| B::float_reshape(t, shape))
    }

    /// Dims swapped (requantized).
    fn q_swap_dims(tensor: QuantizedTensor<B>, dim1: usize, dim2: usize) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_swap_dims(t, dim1, dim2))
    }

    /// Dims permuted (requantized).
    fn q_permute(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_permute(t, axes))
    }

    /// Flipped along `axes` (requantized).
    fn q_flip(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_flip(t, axes))
    }

    /// Broadcast to `shape` (requantized).
    fn q_expand(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_expand(t, shape))
    }

    /// A slice (requantized).
    fn q_slice(tensor: QuantizedTensor<B>, slices: &[Slice]) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_slice(t, slices))
    }

    /// Entries of `dim` picked by `indices` (requantized).
    fn q_select(
        tensor: QuantizedTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
    ) -> QuantizedTensor<B> {
        requantize::<B>(tensor, |t| B::float_select(t, dim, indices))
    }

    /// Quantized tensors joined along `dim` (requantized).
    fn q_cat(tensors: Vec<QuantizedTensor<B>>, dim: usize) -> QuantizedTensor<B> {
        let scheme = match tensors.first() {
            Some(t) => B::q_scheme(t),
            None => panic!("q_cat: no tensors to join"),
        };
        let floats = tensors.into_iter().map(B::dequantize).collect();
        B::quantize_dynamic(B::float_cat(floats, dim), &scheme)
    }

    /// `lhs @ rhs` with a quantized right operand (a weight), as a float
    /// tensor: dequantized, then multiplied in float.
    fn q_matmul_rhs(lhs: FloatTensor<B>, rhs: QuantizedTensor<B>) -> FloatTensor<B> {
        matmul_dequantized::<B>(lhs, rhs)
    }
}

/// `lhs @ rhs` on the dequantized `rhs`, cast to `lhs`'s dtype.
pub fn matmul_dequantized<B: Backend>(
    lhs: FloatTensor<B>,
    rhs: QuantizedTensor<B>,
) -> FloatTensor<B> {
    use crate::TensorMetadata;
    let rhs = B::dequantize(rhs);
    let rhs = if rhs.dtype() == lhs.dtype() {
        rhs
    } else {
        B::float_cast(rhs, lhs.dtype())
    };
    B::float_matmul(lhs, rhs)
}

/// Dequantizes, runs `f`, and quantizes again with the same scheme.
fn requantize<B: Backend>(
    tensor: QuantizedTensor<B>,
    f: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>,
) -> QuantizedTensor<B> {
    let scheme = B::q_scheme(&tensor);
    B::quantize_dynamic(f(B::dequantize(tensor)), &scheme)
}
