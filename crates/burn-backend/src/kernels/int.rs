//! [`IntTensorOps`] of a kernel backend. Methods not listed keep the
//! trait's composites over these: zeros/ones/empty, arange_step,
//! swap_dims, narrow, powf, clamp, mean, the `*_with_indices` reductions,
//! any/all, sort/argsort, topk, tril/triu.

use alloc::vec::Vec;
use core::ops::Range;

use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::Kernels;
use crate::ops::{
    ArgReduceOp, BinaryOp, BitwiseOp, CmpOp, CumOp, IntTensorOps, IntUnaryOp, ReduceOp,
};
use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, check};

impl<K: Kernels + Backend> IntTensorOps<K> for K {
    fn int_from_data(data: TensorData, device: &Device<K>) -> IntTensor<K> {
        check::int_dtype("int_from_data", data.dtype);
        K::from_data(data, device)
    }
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<K>,
        dtype: DType,
    ) -> IntTensor<K> {
        check::int_dtype("int_random", dtype);
        K::random(shape, distribution, device, dtype)
    }
    fn int_full(shape: Shape, value: Scalar, device: &Device<K>, dtype: DType) -> IntTensor<K> {
        check::int_dtype("int_full", dtype);
        K::full(shape, value, device, dtype)
    }
    fn int_arange(range: Range<i64>, device: &Device<K>, dtype: DType) -> IntTensor<K> {
        check::int_dtype("int_arange", dtype);
        K::arange(range, device, dtype)
    }
    fn int_into_data(tensor: IntTensor<K>) -> Result<TensorData, ExecutionError> {
        K::into_data(tensor)
    }
    fn int_device(tensor: &IntTensor<K>) -> Device<K> {
        K::device(tensor)
    }
    fn int_to_device(tensor: IntTensor<K>, device: &Device<K>) -> IntTensor<K> {
        K::to_device(tensor, device)
    }
    fn int_into_float(tensor: IntTensor<K>, dtype: DType) -> FloatTensor<K> {
        check::float_dtype("int_into_float", dtype);
        K::cast(tensor, dtype)
    }
    fn int_cast(tensor: IntTensor<K>, dtype: DType) -> IntTensor<K> {
        check::int_dtype("int_cast", dtype);
        K::cast(tensor, dtype)
    }

    fn int_reshape(tensor: IntTensor<K>, shape: Shape) -> IntTensor<K> {
        K::reshape(tensor, shape)
    }
    fn int_permute(tensor: IntTensor<K>, axes: &[usize]) -> IntTensor<K> {
        K::permute(tensor, axes)
    }
    fn int_flip(tensor: IntTensor<K>, axes: &[usize]) -> IntTensor<K> {
        K::flip(tensor, axes)
    }
    fn int_expand(tensor: IntTensor<K>, shape: Shape) -> IntTensor<K> {
        K::expand(tensor, shape)
    }
    fn int_slice(tensor: IntTensor<K>, slices: &[Slice]) -> IntTensor<K> {
        K::slice(tensor, slices)
    }
    fn int_slice_assign(
        tensor: IntTensor<K>,
        slices: &[Slice],
        value: IntTensor<K>,
    ) -> IntTensor<K> {
        K::slice_assign(tensor, slices, value)
    }
    fn int_cat(tensors: Vec<IntTensor<K>>, dim: usize) -> IntTensor<K> {
        K::cat(tensors, dim)
    }
    fn int_repeat_dim(tensor: IntTensor<K>, dim: usize, times: usize) -> IntTensor<K> {
        K::repeat_dim(tensor, dim, times)
    }

    fn int_gather(dim: usize, tensor: IntTensor<K>, indices: IntTensor<K>) -> IntTensor<K> {
        K::gather(dim, tensor, indices)
    }
    fn int_scatter_add(
        dim: usize,
        tensor: IntTensor<K>,
        indices: IntTensor<K>,
        value: IntTensor<K>,
    ) -> IntTensor<K> {
        K::scatter_add(dim, tensor, indices, value)
    }
    fn int_select(tensor: IntTensor<K>, dim: usize, indices: IntTensor<K>) -> IntTensor<K> {
        K::select(tensor, dim, indices)
    }
    fn int_select_add(
        tensor: IntTensor<K>,
        dim: usize,
        indices: IntTensor<K>,
        value: IntTensor<K>,
    ) -> IntTensor<K> {
        K::select_add(tensor, dim, indices, value)
    }
    fn int_mask_where(
        tensor: IntTensor<K>,
        mask: BoolTensor<K>,
        value: IntTensor<K>,
    ) -> IntTensor<K> {
        K::mask_where(tensor, mask, value)
    }
    fn int_mask_fill(tensor: IntTensor<K>, mask: BoolTensor<K>, value: Scalar) -> IntTensor<K> {
        K::mask_fill(tensor, mask, value)
    }

    fn int_add(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Add, lhs, rhs)
    }
    fn int_add_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Add, lhs, rhs)
    }
    fn int_sub(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Sub, lhs, rhs)
    }
    fn int_sub_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Sub, lhs, rhs)
    }
    fn int_mul(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Mul, lhs, rhs)
    }
    fn int_mul_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Mul, lhs, rhs)
    }
    fn int_div(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Div, lhs, rhs)
    }
    fn int_div_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Div, lhs, rhs)
    }
    fn int_remainder(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Rem, lhs, rhs)
    }
    fn int_remainder_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Rem, lhs, rhs)
    }
    fn int_powi(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Pow, lhs, rhs)
    }
    fn int_matmul(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::matmul(lhs, rhs)
    }
    fn int_neg(tensor: IntTensor<K>) -> IntTensor<K> {
        K::int_unary(IntUnaryOp::Neg, tensor)
    }
    fn int_abs(tensor: IntTensor<K>) -> IntTensor<K> {
        K::int_unary(IntUnaryOp::Abs, tensor)
    }
    fn int_sign(tensor: IntTensor<K>) -> IntTensor<K> {
        K::int_unary(IntUnaryOp::Sign, tensor)
    }
    fn int_clamp_min(tensor: IntTensor<K>, min: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Max, tensor, min)
    }
    fn int_clamp_max(tensor: IntTensor<K>, max: Scalar) -> IntTensor<K> {
        K::binary_scalar(BinaryOp::Min, tensor, max)
    }
    fn int_max_pair(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Max, lhs, rhs)
    }
    fn int_min_pair(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::binary(BinaryOp::Min, lhs, rhs)
    }

    fn bitwise_and(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::bitwise(BitwiseOp::And, lhs, rhs)
    }
    fn bitwise_and_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::bitwise_scalar(BitwiseOp::And, lhs, rhs)
    }
    fn bitwise_or(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::bitwise(BitwiseOp::Or, lhs, rhs)
    }
    fn bitwise_or_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::bitwise_scalar(BitwiseOp::Or, lhs, rhs)
    }
    fn bitwise_xor(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::bitwise(BitwiseOp::Xor, lhs, rhs)
    }
    fn bitwise_xor_scalar(lhs: IntTensor<K>, rhs: Scalar) -> IntTensor<K> {
        K::bitwise_scalar(BitwiseOp::Xor, lhs, rhs)
    }
    fn bitwise_not(tensor: IntTensor<K>) -> IntTensor<K> {
        K::int_unary(IntUnaryOp::BitNot, tensor)
    }
    fn bitwise_left_shift(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::bitwise(BitwiseOp::Shl, lhs, rhs)
    }
    fn bitwise_right_shift(lhs: IntTensor<K>, rhs: IntTensor<K>) -> IntTensor<K> {
        K::bitwise(BitwiseOp::Shr, lhs, rhs)
    }

    fn int_equal(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Ne, lhs, rhs)
    }
    fn int_greater(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Ge, lhs, rhs)
    }
    fn int_lower(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal(lhs: IntTensor<K>, rhs: IntTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Le, lhs, rhs)
    }
    fn int_equal_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Ne, lhs, rhs)
    }
    fn int_greater_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Ge, lhs, rhs)
    }
    fn int_lower_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal_elem(lhs: IntTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Le, lhs, rhs)
    }

    fn int_sum(tensor: IntTensor<K>) -> IntTensor<K> {
        K::reduce_all(ReduceOp::Sum, tensor)
    }
    fn int_sum_dim(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::reduce_dim(ReduceOp::Sum, tensor, dim)
    }
    fn int_prod(tensor: IntTensor<K>) -> IntTensor<K> {
        K::reduce_all(ReduceOp::Prod, tensor)
    }
    fn int_prod_dim(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::reduce_dim(ReduceOp::Prod, tensor, dim)
    }
    fn int_max(tensor: IntTensor<K>) -> IntTensor<K> {
        K::reduce_all(ReduceOp::Max, tensor)
    }
    fn int_max_dim(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::reduce_dim(ReduceOp::Max, tensor, dim)
    }
    fn int_min(tensor: IntTensor<K>) -> IntTensor<K> {
        K::reduce_all(ReduceOp::Min, tensor)
    }
    fn int_min_dim(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::reduce_dim(ReduceOp::Min, tensor, dim)
    }
    fn int_argmax(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::arg_reduce(ArgReduceOp::ArgMax, tensor, dim)
    }
    fn int_argmin(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::arg_reduce(ArgReduceOp::ArgMin, tensor, dim)
    }

    fn int_cumsum(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::cumulative(CumOp::Sum, tensor, dim)
    }
    fn int_cumprod(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::cumulative(CumOp::Prod, tensor, dim)
    }
    fn int_cummin(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::cumulative(CumOp::Min, tensor, dim)
    }
    fn int_cummax(tensor: IntTensor<K>, dim: usize) -> IntTensor<K> {
        K::cumulative(CumOp::Max, tensor, dim)
    }

    fn int_sort_with_indices(
        tensor: IntTensor<K>,
        dim: usize,
        descending: bool,
    ) -> (IntTensor<K>, IntTensor<K>) {
        K::sort_with_indices(tensor, dim, descending)
    }
}
