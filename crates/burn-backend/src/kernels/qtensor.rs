//! [`QTensorOps`] of a kernel backend: quantized tensors are the same
//! primitive, holding the packed bytes with dtype `QFloat`; a matmul
//! against a quantized weight runs the backend's
//! [`quantized_matmul`](super::MatmulKernels::quantized_matmul) kernel
//! where it has one; every other `q_*` op keeps the trait's defaults (the
//! host codec where the bytes live, for a CPU backend).

use burn_std::TensorData;

use super::Kernels;
use crate::ops::{QTensorOps, matmul_dequantized};
use crate::{Backend, Device, ExecutionError, FloatTensor, QuantizedTensor, check};

impl<K: Kernels + Backend> QTensorOps<K> for K {
    fn q_from_data(data: TensorData, device: &Device<K>) -> QuantizedTensor<K> {
        check::quantized_dtype("q_from_data", data.dtype);
        K::from_data(data, device)
    }
    fn q_into_data(tensor: QuantizedTensor<K>) -> Result<TensorData, ExecutionError> {
        K::into_data(tensor)
    }
    fn q_device(tensor: &QuantizedTensor<K>) -> Device<K> {
        K::device(tensor)
    }
    fn q_to_device(tensor: QuantizedTensor<K>, device: &Device<K>) -> QuantizedTensor<K> {
        K::to_device(tensor, device)
    }
    fn q_matmul_rhs(lhs: FloatTensor<K>, rhs: QuantizedTensor<K>) -> FloatTensor<K> {
        match K::quantized_matmul(&lhs, &rhs) {
            Some(out) => out,
            None => matmul_dequantized::<K>(lhs, rhs),
        }
    }
}
