//! `BackendRouter<C>`: a backend that records every operation and sends it
//! through the channel `C`.

use alloc::string::String;
use core::marker::PhantomData;

use burn_backend::{Backend, BackendTypes, ExecutionError};
use burn_std::DType;

use crate::{RouterTensor, RunnerChannel};

/// A backend whose operations are recorded as IR and handed, through the
/// channel `C`, to the client serving the tensors' device: executed in
/// process ([`DirectChannel`](crate::DirectChannel)), sent over a network,
/// or only recorded (graph capture).
///
/// Every primitive is a [`RouterTensor`] (an id on the client, with its
/// shape and dtype), whatever the channel.
#[derive(Clone, Copy, Default, Debug)]
pub struct BackendRouter<C: RunnerChannel> {
    _channel: PhantomData<C>,
}

impl<C: RunnerChannel> BackendTypes for BackendRouter<C> {
    type Device = C::Device;
    type FloatTensorPrimitive = RouterTensor;
    type IntTensorPrimitive = RouterTensor;
    type BoolTensorPrimitive = RouterTensor;
    type QuantizedTensorPrimitive = RouterTensor;
}

impl<C: RunnerChannel> Backend for BackendRouter<C> {
    fn name(device: &C::Device) -> String {
        C::name(device)
    }

    fn seed(device: &C::Device, seed: u64) {
        C::client(device).seed(seed)
    }

    fn sync(device: &C::Device) -> Result<(), ExecutionError> {
        C::client(device).sync()
    }

    fn supports_dtype(device: &C::Device, dtype: DType) -> bool {
        C::client(device).supports_dtype(dtype)
    }

    fn default_float_dtype(device: &C::Device) -> DType {
        C::client(device).default_float_dtype()
    }

    fn default_int_dtype(device: &C::Device) -> DType {
        C::client(device).default_int_dtype()
    }

    fn bool_dtype(device: &C::Device) -> DType {
        C::client(device).bool_dtype()
    }

    fn index_dtype(device: &C::Device) -> DType {
        C::client(device).index_dtype()
    }
}
