//! [`BoolTensorOps`] of a kernel backend. Methods not listed keep the
//! trait's composites over these: zeros/ones/empty, swap_dims, narrow,
//! not_equal, any/all.

use alloc::vec::Vec;

use burn_std::{DType, Scalar, Shape, Slice, TensorData};

use super::Kernels;
use crate::ops::{BoolOp, BoolTensorOps};
use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, check};

impl<K: Kernels + Backend> BoolTensorOps<K> for K {
    fn bool_from_data(data: TensorData, device: &Device<K>) -> BoolTensor<K> {
        assert!(
            data.dtype.is_bool(),
            "bool_from_data: expected a bool dtype, got {}",
            data.dtype
        );
        K::from_data(data, device)
    }
    fn bool_full(shape: Shape, value: bool, device: &Device<K>) -> BoolTensor<K> {
        K::full(shape, Scalar::Bool(value), device, K::BOOL)
    }
    fn bool_into_data(tensor: BoolTensor<K>) -> Result<TensorData, ExecutionError> {
        K::into_data(tensor)
    }
    fn bool_device(tensor: &BoolTensor<K>) -> Device<K> {
        K::device(tensor)
    }
    fn bool_to_device(tensor: BoolTensor<K>, device: &Device<K>) -> BoolTensor<K> {
        K::to_device(tensor, device)
    }
    fn bool_into_int(tensor: BoolTensor<K>, dtype: DType) -> IntTensor<K> {
        check::int_dtype("bool_into_int", dtype);
        K::cast(tensor, dtype)
    }
    fn bool_into_float(tensor: BoolTensor<K>, dtype: DType) -> FloatTensor<K> {
        check::float_dtype("bool_into_float", dtype);
        K::cast(tensor, dtype)
    }

    fn bool_reshape(tensor: BoolTensor<K>, shape: Shape) -> BoolTensor<K> {
        K::reshape(tensor, shape)
    }
    fn bool_permute(tensor: BoolTensor<K>, axes: &[usize]) -> BoolTensor<K> {
        K::permute(tensor, axes)
    }
    fn bool_flip(tensor: BoolTensor<K>, axes: &[usize]) -> BoolTensor<K> {
        K::flip(tensor, axes)
    }
    fn bool_expand(tensor: BoolTensor<K>, shape: Shape) -> BoolTensor<K> {
        K::expand(tensor, shape)
    }
    fn bool_slice(tensor: BoolTensor<K>, slices: &[Slice]) -> BoolTensor<K> {
        K::slice(tensor, slices)
    }
    fn bool_slice_assign(
        tensor: BoolTensor<K>,
        slices: &[Slice],
        value: BoolTensor<K>,
    ) -> BoolTensor<K> {
        K::slice_assign(tensor, slices, value)
    }
    fn bool_cat(tensors: Vec<BoolTensor<K>>, dim: usize) -> BoolTensor<K> {
        K::cat(tensors, dim)
    }
    fn bool_repeat_dim(tensor: BoolTensor<K>, dim: usize, times: usize) -> BoolTensor<K> {
        K::repeat_dim(tensor, dim, times)
    }
    fn bool_select(tensor: BoolTensor<K>, dim: usize, indices: IntTensor<K>) -> BoolTensor<K> {
        K::select(tensor, dim, indices)
    }
    fn bool_gather(dim: usize, tensor: BoolTensor<K>, indices: IntTensor<K>) -> BoolTensor<K> {
        K::gather(dim, tensor, indices)
    }
    fn bool_mask_where(
        tensor: BoolTensor<K>,
        mask: BoolTensor<K>,
        value: BoolTensor<K>,
    ) -> BoolTensor<K> {
        K::mask_where(tensor, mask, value)
    }

    fn bool_not(tensor: BoolTensor<K>) -> BoolTensor<K> {
        K::logical_not(tensor)
    }
    fn bool_and(lhs: BoolTensor<K>, rhs: BoolTensor<K>) -> BoolTensor<K> {
        K::bool_binary(BoolOp::And, lhs, rhs)
    }
    fn bool_or(lhs: BoolTensor<K>, rhs: BoolTensor<K>) -> BoolTensor<K> {
        K::bool_binary(BoolOp::Or, lhs, rhs)
    }
    fn bool_xor(lhs: BoolTensor<K>, rhs: BoolTensor<K>) -> BoolTensor<K> {
        K::bool_binary(BoolOp::Xor, lhs, rhs)
    }
    fn bool_equal(lhs: BoolTensor<K>, rhs: BoolTensor<K>) -> BoolTensor<K> {
        K::bool_binary(BoolOp::Eq, lhs, rhs)
    }
    fn bool_argwhere(tensor: BoolTensor<K>) -> IntTensor<K> {
        K::argwhere(tensor)
    }
}
