//! `QTensorOps` of the router: quantized tensors enter as data and leave as
//! data (the IR has no op on them), so `quantize` and `dequantize` keep the
//! trait's defaults: the values are read back, run through the host codec,
//! and registered again.

use burn_backend::{ExecutionError, QTensorOps, check};
use burn_std::TensorData;

use super::base;
use crate::{BackendRouter, RouterTensor, RunnerChannel};

impl<C: RunnerChannel> QTensorOps<Self> for BackendRouter<C> {
    fn q_from_data(data: TensorData, device: &C::Device) -> RouterTensor {
        check::quantized_dtype("q_from_data", data.dtype);
        base::from_data(C::client(device), data)
    }
    fn q_into_data(tensor: RouterTensor) -> Result<TensorData, ExecutionError> {
        base::into_data(tensor)
    }
    fn q_device(tensor: &RouterTensor) -> C::Device {
        C::device(&**tensor.client())
    }
    fn q_to_device(tensor: RouterTensor, device: &C::Device) -> RouterTensor {
        base::to_client("q_to_device", tensor, C::client(device))
    }
}
