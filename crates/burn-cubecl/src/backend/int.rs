use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::{ExecutionError, IntTensorOps, check};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{Cube, CubeDevice};
use crate::CubeTensor;
use crate::ops::binary::{self, BinaryOp, CmpOp};
use crate::ops::reduce::{self, CumOp, ReduceOp};
use crate::ops::unary::{IntUnary, int_unary};
use crate::ops::{creation, index, matmul, shape, sort};

type T = CubeTensor;

impl IntTensorOps<Self> for Cube {
    fn int_from_data(data: TensorData, device: &CubeDevice) -> T {
        check::int_dtype("int_from_data", data.dtype);
        CubeTensor::from_data(data, device)
    }
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &CubeDevice,
        dtype: DType,
    ) -> T {
        check::int_dtype("int_random", dtype);
        creation::random(shape, distribution, device, dtype)
    }
    fn int_full(shape: Shape, value: Scalar, device: &CubeDevice, dtype: DType) -> T {
        check::int_dtype("int_full", dtype);
        creation::full(shape, value, device, dtype)
    }
    fn int_arange(range: Range<i64>, device: &CubeDevice, dtype: DType) -> T {
        check::int_dtype("int_arange", dtype);
        creation::arange(range, device, dtype)
    }
    fn int_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data()
    }
    fn int_device(tensor: &T) -> CubeDevice {
        tensor.device.clone()
    }
    fn int_to_device(tensor: T, device: &CubeDevice) -> T {
        crate::ops::creation::to_device(tensor, device)
    }
    fn int_into_float(tensor: T, dtype: DType) -> T {
        check::float_dtype("int_into_float", dtype);
        creation::cast(tensor, dtype)
    }
    fn int_cast(tensor: T, dtype: DType) -> T {
        check::int_dtype("int_cast", dtype);
        creation::cast(tensor, dtype)
    }

    fn int_reshape(tensor: T, shape: Shape) -> T {
        shape::reshape(tensor, shape)
    }
    fn int_permute(tensor: T, axes: &[usize]) -> T {
        shape::permute(tensor, axes)
    }
    fn int_flip(tensor: T, axes: &[usize]) -> T {
        shape::flip(tensor, axes)
    }
    fn int_expand(tensor: T, shape: Shape) -> T {
        shape::expand(tensor, shape)
    }
    fn int_slice(tensor: T, slices: &[Slice]) -> T {
        shape::slice(tensor, slices)
    }
    fn int_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        shape::slice_assign(tensor, slices, value)
    }
    fn int_cat(tensors: Vec<T>, dim: usize) -> T {
        shape::cat(tensors, dim)
    }
    fn int_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        shape::repeat_dim(tensor, dim, times)
    }

    fn int_gather(dim: usize, tensor: T, indices: T) -> T {
        index::gather(dim, tensor, indices)
    }
    fn int_scatter_add(dim: usize, tensor: T, indices: T, value: T) -> T {
        index::scatter_add(dim, tensor, indices, value)
    }
    fn int_select(tensor: T, dim: usize, indices: T) -> T {
        index::select(tensor, dim, indices)
    }
    fn int_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        index::select_add(tensor, dim, indices, value)
    }
    fn int_mask_where(tensor: T, mask: T, value: T) -> T {
        index::mask_where(tensor, mask, value)
    }
    fn int_mask_fill(tensor: T, mask: T, value: Scalar) -> T {
        index::mask_fill(tensor, mask, value)
    }

    fn int_add(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Add, lhs, rhs)
    }
    fn int_add_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Add, lhs, rhs)
    }
    fn int_sub(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Sub, lhs, rhs)
    }
    fn int_sub_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Sub, lhs, rhs)
    }
    fn int_mul(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Mul, lhs, rhs)
    }
    fn int_mul_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Mul, lhs, rhs)
    }
    fn int_div(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Div, lhs, rhs)
    }
    fn int_div_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Div, lhs, rhs)
    }
    fn int_remainder(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Rem, lhs, rhs)
    }
    fn int_remainder_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Rem, lhs, rhs)
    }
    fn int_powi(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Pow, lhs, rhs)
    }
    fn int_matmul(lhs: T, rhs: T) -> T {
        matmul::matmul(lhs, rhs)
    }
    fn int_neg(tensor: T) -> T {
        int_unary(tensor, IntUnary::Neg)
    }
    fn int_abs(tensor: T) -> T {
        int_unary(tensor, IntUnary::Abs)
    }
    fn int_sign(tensor: T) -> T {
        int_unary(tensor, IntUnary::Sign)
    }
    fn int_clamp_min(tensor: T, min: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Max, tensor, min)
    }
    fn int_clamp_max(tensor: T, max: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Min, tensor, max)
    }
    fn int_max_pair(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Max, lhs, rhs)
    }
    fn int_min_pair(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Min, lhs, rhs)
    }

    fn bitwise_and(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::BitAnd, lhs, rhs)
    }
    fn bitwise_and_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::BitAnd, lhs, rhs)
    }
    fn bitwise_or(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::BitOr, lhs, rhs)
    }
    fn bitwise_or_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::BitOr, lhs, rhs)
    }
    fn bitwise_xor(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::BitXor, lhs, rhs)
    }
    fn bitwise_xor_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::BitXor, lhs, rhs)
    }
    fn bitwise_not(tensor: T) -> T {
        int_unary(tensor, IntUnary::BitNot)
    }
    fn bitwise_left_shift(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Shl, lhs, rhs)
    }
    fn bitwise_right_shift(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Shr, lhs, rhs)
    }

    fn int_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Ne, lhs, rhs)
    }
    fn int_greater(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Ge, lhs, rhs)
    }
    fn int_lower(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Le, lhs, rhs)
    }
    fn int_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Ne, lhs, rhs)
    }
    fn int_greater_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Ge, lhs, rhs)
    }
    fn int_lower_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Le, lhs, rhs)
    }

    fn int_sum(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Sum)
    }
    fn int_sum_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Sum)
    }
    fn int_prod(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Prod)
    }
    fn int_prod_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Prod)
    }
    fn int_max(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Max)
    }
    fn int_max_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Max)
    }
    fn int_min(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Min)
    }
    fn int_min_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Min)
    }
    fn int_argmax(tensor: T, dim: usize) -> T {
        reduce::arg_reduce(tensor, dim, true)
    }
    fn int_argmin(tensor: T, dim: usize) -> T {
        reduce::arg_reduce(tensor, dim, false)
    }

    fn int_cumsum(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Sum)
    }
    fn int_cumprod(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Prod)
    }
    fn int_cummin(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Min)
    }
    fn int_cummax(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Max)
    }

    fn int_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        sort::sort_with_indices(tensor, dim, descending)
    }
}
