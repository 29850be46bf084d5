use alloc::vec::Vec;

use burn_backend::{BoolTensorOps, ExecutionError};
use burn_std::{DType, Scalar, Shape, Slice, TensorData};

use super::{Cube, CubeDevice};
use crate::CubeTensor;
use crate::dtype::BOOL;
use crate::ops::binary::{self, BoolOp};
use crate::ops::{creation, index, shape, unary};

type T = CubeTensor;

impl BoolTensorOps<Self> for Cube {
    fn bool_from_data(data: TensorData, device: &CubeDevice) -> T {
        assert!(
            data.dtype.is_bool(),
            "bool_from_data: expected a bool dtype, got {}",
            data.dtype
        );
        CubeTensor::from_data(data, device)
    }
    fn bool_full(shape: Shape, value: bool, device: &CubeDevice) -> T {
        creation::full(shape, Scalar::Bool(value), device, BOOL)
    }
    fn bool_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data()
    }
    fn bool_device(tensor: &T) -> CubeDevice {
        tensor.device.clone()
    }
    fn bool_to_device(tensor: T, device: &CubeDevice) -> T {
        crate::ops::creation::to_device(tensor, device)
    }
    fn bool_into_int(tensor: T, dtype: DType) -> T {
        burn_backend::check::int_dtype("bool_into_int", dtype);
        creation::cast(tensor, dtype)
    }
    fn bool_into_float(tensor: T, dtype: DType) -> T {
        burn_backend::check::float_dtype("bool_into_float", dtype);
        creation::cast(tensor, dtype)
    }

    fn bool_reshape(tensor: T, shape: Shape) -> T {
        shape::reshape(tensor, shape)
    }
    fn bool_permute(tensor: T, axes: &[usize]) -> T {
        shape::permute(tensor, axes)
    }
    fn bool_flip(tensor: T, axes: &[usize]) -> T {
        shape::flip(tensor, axes)
    }
    fn bool_expand(tensor: T, shape: Shape) -> T {
        shape::expand(tensor, shape)
    }
    fn bool_slice(tensor: T, slices: &[Slice]) -> T {
        shape::slice(tensor, slices)
    }
    fn bool_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        shape::slice_assign(tensor, slices, value)
    }
    fn bool_cat(tensors: Vec<T>, dim: usize) -> T {
        shape::cat(tensors, dim)
    }
    fn bool_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        shape::repeat_dim(tensor, dim, times)
    }
    fn bool_select(tensor: T, dim: usize, indices: T) -> T {
        index::select(tensor, dim, indices)
    }
    fn bool_gather(dim: usize, tensor: T, indices: T) -> T {
        index::gather(dim, tensor, indices)
    }
    fn bool_mask_where(tensor: T, mask: T, value: T) -> T {
        index::mask_where(tensor, mask, value)
    }

    fn bool_not(tensor: T) -> T {
        unary::bool_not(tensor)
    }
    fn bool_and(lhs: T, rhs: T) -> T {
        binary::bool_binary(BoolOp::And, lhs, rhs)
    }
    fn bool_or(lhs: T, rhs: T) -> T {
        binary::bool_binary(BoolOp::Or, lhs, rhs)
    }
    fn bool_xor(lhs: T, rhs: T) -> T {
        binary::bool_binary(BoolOp::Xor, lhs, rhs)
    }
    fn bool_equal(lhs: T, rhs: T) -> T {
        binary::bool_binary(BoolOp::Eq, lhs, rhs)
    }
    fn bool_argwhere(tensor: T) -> T {
        index::argwhere(tensor)
    }
}
