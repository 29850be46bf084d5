//! The `Autodiff<B, C>` backend.

use alloc::format;
use alloc::string::String;
use core::marker::PhantomData;

use burn_backend::{
    AutodiffBackend, Backend, BackendTypes, BackwardError, ExecutionError, FloatTensor,
};
use burn_std::DType;

use crate::checkpoint::{CheckpointStrategy, NoCheckpointing};
use crate::grads::Gradients;
use crate::tensor::AutodiffTensor;

/// Backend `B` with reverse-mode differentiation; `C` is the checkpointing strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct Autodiff<B, C = NoCheckpointing> {
    _backend: PhantomData<B>,
    _strategy: PhantomData<C>,
}

impl<B: Backend, C: CheckpointStrategy> BackendTypes for Autodiff<B, C> {
    type Device = B::Device;
    type FloatTensorPrimitive = AutodiffTensor<B>;
    type IntTensorPrimitive = B::IntTensorPrimitive;
    type BoolTensorPrimitive = B::BoolTensorPrimitive;
    type QuantizedTensorPrimitive = B::QuantizedTensorPrimitive;
}

impl<B: Backend, C: CheckpointStrategy> Backend for Autodiff<B, C> {
    fn name(device: &Self::Device) -> String {
        format!("autodiff<{}>", B::name(device))
    }

    fn seed(device: &Self::Device, seed: u64) {
        B::seed(device, seed)
    }

    fn sync(device: &Self::Device) -> Result<(), ExecutionError> {
        B::sync(device)
    }

    fn supports_dtype(device: &Self::Device, dtype: DType) -> bool {
        B::supports_dtype(device, dtype)
    }

    fn default_float_dtype(device: &Self::Device) -> DType {
        B::default_float_dtype(device)
    }

    fn default_int_dtype(device: &Self::Device) -> DType {
        B::default_int_dtype(device)
    }

    fn bool_dtype(device: &Self::Device) -> DType {
        B::bool_dtype(device)
    }

    fn index_dtype(device: &Self::Device) -> DType {
        B::index_dtype(device)
    }

    fn ad_enabled() -> bool {
        true
    }
}

impl<B: Backend, C: CheckpointStrategy> AutodiffBackend for Autodiff<B, C> {
    type InnerBackend = B;
    type Gradients = Gradients<B>;

    fn backward(tensor: FloatTensor<Self>) -> Result<Gradients<B>, BackwardError> {
        crate::graph::backward(&tensor)
    }

    fn grad(tensor: &AutodiffTensor<B>, grads: &Gradients<B>) -> Option<FloatTensor<B>> {
        grads.get(tensor)
    }

    fn grad_remove(tensor: &AutodiffTensor<B>, grads: &mut Gradients<B>) -> Option<FloatTensor<B>> {
        grads.remove(tensor)
    }

    fn grad_replace(tensor: &AutodiffTensor<B>, grads: &mut Gradients<B>, grad: FloatTensor<B>) {
        grads.replace(tensor, grad)
    }

    fn inner(tensor: AutodiffTensor<B>) -> FloatTensor<B> {
        tensor.into_primitive()
    }

    fn from_inner(tensor: FloatTensor<B>) -> AutodiffTensor<B> {
        AutodiffTensor::constant(tensor, C::MODE)
    }
}
