//! Quantized tensors under autodiff: values without gradients.
//!
//! Quantization here is post-training, so a quantized tensor is a constant:
//! `quantize` takes the value of its float operand (no gradient flows back
//! through it, and none is straight-through), and `dequantize` gives a
//! constant float tensor. Float ops on the dequantized values, a matmul
//! against a quantized weight included, are recorded as usual, so the
//! gradient of the other operand is exact.

use alloc::vec::Vec;

use burn_backend::{Backend, Device, ExecutionError, IntTensor, QTensorOps, QuantizedTensor};
use burn_std::quantization::QuantScheme;
use burn_std::{Shape, Slice, TensorData};

use super::At;
use crate::checkpoint::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};

impl<B: Backend, C: CheckpointStrategy> QTensorOps<Self> for Autodiff<B, C> {
    fn q_from_data(data: TensorData, device: &Device<Self>) -> QuantizedTensor<B> {
        B::q_from_data(data, device)
    }
    fn q_into_data(tensor: QuantizedTensor<B>) -> Result<TensorData, ExecutionError> {
        B::q_into_data(tensor)
    }
    fn q_device(tensor: &QuantizedTensor<B>) -> Device<Self> {
        B::q_device(tensor)
    }
    fn q_to_device(tensor: QuantizedTensor<B>, device: &Device<Self>) -> QuantizedTensor<B> {
        B::q_to_device(tensor, device)
    }
    fn quantize(
        tensor: AutodiffTensor<B>,
        scheme: &QuantScheme,
        scales: AutodiffTensor<B>,
        global: Option<AutodiffTensor<B>>,
    ) -> QuantizedTensor<B> {
        B::quantize(
            tensor.into_primitive(),
            scheme,
            scales.into_primitive(),
            global.map(AutodiffTensor::into_primitive),
        )
    }
    fn quantize_dynamic(tensor: AutodiffTensor<B>, scheme: &QuantScheme) -> QuantizedTensor<B> {
        B::quantize_dynamic(tensor.into_primitive(), scheme)
    }
    fn dequantize(tensor: QuantizedTensor<B>) -> AutodiffTensor<B> {
        At::constant(B::dequantize(tensor), C::MODE)
    }
    fn q_reshape(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B> {
        B::q_reshape(tensor, shape)
    }
    fn q_swap_dims(tensor: QuantizedTensor<B>, dim1: usize, dim2: usize) -> QuantizedTensor<B> {
        B::q_swap_dims(tensor, dim1, dim2)
    }
    fn q_permute(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B> {
        B::q_permute(tensor, axes)
    }
    fn q_flip(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B> {
        B::q_flip(tensor, axes)
    }
    fn q_expand(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B> {
        B::q_expand(tensor, shape)
    }
    fn q_slice(tensor: QuantizedTensor<B>, slices: &[Slice]) -> QuantizedTensor<B> {
        B::q_slice(tensor, slices)
    }
    fn q_select(
        tensor: QuantizedTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
    ) -> QuantizedTensor<B> {
        B::q_select(tensor, dim, indices)
    }
    fn q_cat(tensors: Vec<QuantizedTensor<B>>, dim: usize) -> QuantizedTensor<B> {
        B::q_cat(tensors, dim)
    }
}
