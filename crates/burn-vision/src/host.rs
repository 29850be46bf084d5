//! Moving tensors to and from the host for the host algorithms.

use burn_std::{BoolStore, DType, TensorData};
use burn_tensor::{Device, Int, Tensor};
use std::vec::Vec;

/// The values of a bool tensor as bytes 0/1, whatever its bool storage.
pub(crate) fn bool_bytes(data: TensorData) -> Vec<u8> {
    match data.dtype {
        DType::Bool(BoolStore::Native) | DType::Bool(BoolStore::U8) | DType::U8 => {
            data.bytes.to_vec()
        }
        _ => data.iter::<bool>().map(u8::from).collect(),
    }
}

/// An int tensor of `shape` on `device` in its default int dtype, from
/// values that fit in `i32` (labels, indices); built in the target dtype so
/// that `from_data` does not convert again.
pub(crate) fn int_tensor<const D: usize>(
    values: Vec<i64>,
    shape: [usize; D],
    device: &Device,
) -> Tensor<D, Int> {
    let dtype = device.settings().int_dtype;
    let data = match dtype {
        DType::I32 => TensorData::new(values.into_iter().map(|v| v as i32).collect(), shape),
        _ => TensorData::new(values, shape).convert_dtype(dtype),
    };
    Tensor::from_data(data, (device, dtype))
}
