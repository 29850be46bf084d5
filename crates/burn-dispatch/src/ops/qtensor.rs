//! Quantized tensor ops: every method of `QTensorOps` routed to the backend
//! holding the operand, so a backend's own quantize, dequantize and
//! quantized matmul run instead of the trait's host defaults.

use alloc::vec::Vec;

use burn_backend::{Device, ExecutionError, FloatTensor, IntTensor, QTensorOps, QuantizedTensor};
use burn_backend_extension::backend_dispatch;
use burn_std::quantization::QuantScheme;
use burn_std::{Shape, Slice, TensorData};

use crate::Dispatch;

#[backend_dispatch]
impl QTensorOps<Self> for Dispatch {
    fn q_from_data(data: TensorData, device: &Device<Self>) -> QuantizedTensor<Self>;
    fn q_into_data(tensor: QuantizedTensor<Self>) -> Result<TensorData, ExecutionError>;
    fn q_device(tensor: &QuantizedTensor<Self>) -> Device<Self>;
    #[backend_dispatch(skip)]
    fn q_to_device(tensor: QuantizedTensor<Self>, device: &Device<Self>) -> QuantizedTensor<Self> {
        crate::routing::to_device("q_to_device", tensor, device)
    }
    fn quantize(
        tensor: FloatTensor<Self>,
        scheme: &QuantScheme,
        scales: FloatTensor<Self>,
        global: Option<FloatTensor<Self>>,
    ) -> QuantizedTensor<Self>;
    fn quantize_dynamic(tensor: FloatTensor<Self>, scheme: &QuantScheme) -> QuantizedTensor<Self>;
    fn dequantize(tensor: QuantizedTensor<Self>) -> FloatTensor<Self>;
    fn q_scheme(tensor: &QuantizedTensor<Self>) -> QuantScheme;
    fn q_reshape(tensor: QuantizedTensor<Self>, shape: Shape) -> QuantizedTensor<Self>;
    fn q_swap_dims(
        tensor: QuantizedTensor<Self>,
        dim1: usize,
        dim2: usize,
    ) -> QuantizedTensor<Self>;
    fn q_permute(tensor: QuantizedTensor<Self>, axes: &[usize]) -> QuantizedTensor<Self>;
    fn q_flip(tensor: QuantizedTensor<Self>, axes: &[usize]) -> QuantizedTensor<Self>;
    fn q_expand(tensor: QuantizedTensor<Self>, shape: Shape) -> QuantizedTensor<Self>;
    fn q_slice(tensor: QuantizedTensor<Self>, slices: &[Slice]) -> QuantizedTensor<Self>;
    fn q_select(
        tensor: QuantizedTensor<Self>,
        dim: usize,
        indices: IntTensor<Self>,
    ) -> QuantizedTensor<Self>;
    fn q_cat(tensors: Vec<QuantizedTensor<Self>>, dim: usize) -> QuantizedTensor<Self>;
    fn q_matmul_rhs(lhs: FloatTensor<Self>, rhs: QuantizedTensor<Self>) -> FloatTensor<Self>;
}
