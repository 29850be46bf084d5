//! `IntTensorOps` of the router: one recorded operation a method.

use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::ops::vocabulary::{
    ArgReduceOp, BinaryOp, BitwiseOp, CmpOp, CumOp, IntUnaryOp, ReduceOp,
};
use burn_backend::{ExecutionError, IntTensorOps, TensorMetadata};
use burn_ir::{IntOperationIr, NumericKind, OperationIr, TensorKind};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{base, binary, numeric as num, scalar, unary, unary_same};
use crate::{BackendRouter, RouterTensor, RunnerChannel};

type T = RouterTensor;
const N: NumericKind = NumericKind::Int;
const K: TensorKind = TensorKind::Int;

fn int(op: IntOperationIr) -> OperationIr {
    OperationIr::Int(op)
}

/// An element-wise function.
fn unary_op(op: IntUnaryOp, tensor: T) -> T {
    unary_same(op.name(), tensor, |desc| {
        int(IntOperationIr::Unary { op, desc })
    })
}

/// An element-wise bitwise op with broadcasting.
fn bitwise(op: BitwiseOp, lhs: T, rhs: T) -> T {
    let dtype = lhs.dtype();
    binary(op.name(), lhs, rhs, dtype, |desc| {
        int(IntOperationIr::Bitwise { op, desc })
    })
}

/// An element-wise bitwise op with a scalar.
fn bitwise_scalar(op: BitwiseOp, lhs: T, rhs: Scalar) -> T {
    let dtype = lhs.dtype();
    scalar(op.name(), lhs, rhs, dtype, |desc| {
        int(IntOperationIr::BitwiseScalar { op, desc })
    })
}

impl<C: RunnerChannel> IntTensorOps<Self> for BackendRouter<C> {
    fn int_from_data(data: TensorData, device: &C::Device) -> T {
        burn_backend::check::int_dtype("int_from_data", data.dtype);
        base::from_data(C::client(device), data)
    }
    fn int_random(shape: Shape, distribution: Distribution, device: &C::Device, dtype: DType) -> T {
        base::random(C::client(device), shape, distribution, dtype)
    }
    fn int_full(shape: Shape, value: Scalar, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, value, dtype)
    }
    fn int_zeros(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, Scalar::Int(0), dtype)
    }
    fn int_ones(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, Scalar::Int(1), dtype)
    }
    fn int_empty(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::empty(C::client(device), shape, dtype)
    }
    fn int_arange(range: Range<i64>, device: &C::Device, dtype: DType) -> T {
        base::arange(C::client(device), range.start, range.end, 1, dtype)
    }
    fn int_arange_step(range: Range<i64>, step: usize, device: &C::Device, dtype: DType) -> T {
        base::arange(C::client(device), range.start, range.end, step, dtype)
    }
    fn int_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        base::into_data(tensor)
    }
    fn int_device(tensor: &T) -> C::Device {
        C::device(&**tensor.client())
    }
    fn int_to_device(tensor: T, device: &C::Device) -> T {
        base::to_client("int_to_device", tensor, C::client(device))
    }
    fn int_into_float(tensor: T, dtype: DType) -> T {
        unary("int_into_float", tensor, dtype, |desc| {
            int(IntOperationIr::IntoFloat(desc))
        })
    }
    fn int_cast(tensor: T, dtype: DType) -> T {
        num::cast(N, tensor, dtype)
    }

    fn int_reshape(tensor: T, shape: Shape) -> T {
        base::reshape(K, tensor, shape)
    }
    fn int_permute(tensor: T, axes: &[usize]) -> T {
        base::permute(K, tensor, axes)
    }
    fn int_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        base::swap_dims(K, tensor, dim1, dim2)
    }
    fn int_flip(tensor: T, axes: &[usize]) -> T {
        base::flip(K, tensor, axes)
    }
    fn int_expand(tensor: T, shape: Shape) -> T {
        base::expand(K, tensor, shape)
    }
    fn int_slice(tensor: T, slices: &[Slice]) -> T {
        base::slice(K, tensor, slices)
    }
    fn int_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        base::slice_assign(K, tensor, slices, value)
    }
    fn int_narrow(tensor: T, dim: usize, start: usize, length: usize) -> T {
        base::narrow(K, tensor, dim, start, length)
    }
    fn int_cat(tensors: Vec<T>, dim: usize) -> T {
        base::cat(K, tensors, dim)
    }
    fn int_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        base::repeat_dim(K, tensor, dim, times)
    }

    fn int_gather(dim: usize, tensor: T, indices: T) -> T {
        base::gather(K, dim, tensor, indices)
    }
    fn int_scatter_add(dim: usize, tensor: T, indices: T, value: T) -> T {
        num::scatter_add(N, dim, tensor, indices, value)
    }
    fn int_select(tensor: T, dim: usize, indices: T) -> T {
        base::select(K, tensor, dim, indices)
    }
    fn int_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        num::select_add(N, tensor, dim, indices, value)
    }
    fn int_mask_where(tensor: T, mask: T, value: T) -> T {
        base::mask_where(K, tensor, mask, value)
    }
    fn int_mask_fill(tensor: T, mask: T, value: Scalar) -> T {
        num::mask_fill(N, tensor, mask, value)
    }

    fn int_add(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Add, lhs, rhs)
    }
    fn int_add_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Add, lhs, rhs)
    }
    fn int_sub(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Sub, lhs, rhs)
    }
    fn int_sub_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Sub, lhs, rhs)
    }
    fn int_mul(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Mul, lhs, rhs)
    }
    fn int_mul_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Mul, lhs, rhs)
    }
    fn int_div(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Div, lhs, rhs)
    }
    fn int_div_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Div, lhs, rhs)
    }
    fn int_remainder(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Rem, lhs, rhs)
    }
    fn int_remainder_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Rem, lhs, rhs)
    }
    fn int_powi(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Pow, lhs, rhs)
    }
    fn int_powf(lhs: T, rhs: T) -> T {
        let dtype = lhs.dtype();
        binary("int_powf", lhs, rhs, dtype, |desc| {
            int(IntOperationIr::PowFloat(desc))
        })
    }
    fn int_powf_scalar(lhs: T, rhs: Scalar) -> T {
        let dtype = lhs.dtype();
        scalar("int_powf_scalar", lhs, rhs, dtype, |desc| {
            int(IntOperationIr::PowFloatScalar(desc))
        })
    }
    fn int_matmul(lhs: T, rhs: T) -> T {
        num::matmul(N, lhs, rhs)
    }
    fn int_neg(tensor: T) -> T {
        unary_op(IntUnaryOp::Neg, tensor)
    }
    fn int_abs(tensor: T) -> T {
        unary_op(IntUnaryOp::Abs, tensor)
    }
    fn int_sign(tensor: T) -> T {
        unary_op(IntUnaryOp::Sign, tensor)
    }
    fn int_clamp_min(tensor: T, min: Scalar) -> T {
        num::clamp(N, tensor, Some(min), None)
    }
    fn int_clamp_max(tensor: T, max: Scalar) -> T {
        num::clamp(N, tensor, None, Some(max))
    }
    fn int_clamp(tensor: T, min: Scalar, max: Scalar) -> T {
        num::clamp(N, tensor, Some(min), Some(max))
    }
    fn int_max_pair(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Max, lhs, rhs)
    }
    fn int_min_pair(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Min, lhs, rhs)
    }

    fn bitwise_and(lhs: T, rhs: T) -> T {
        bitwise(BitwiseOp::And, lhs, rhs)
    }
    fn bitwise_and_scalar(lhs: T, rhs: Scalar) -> T {
        bitwise_scalar(BitwiseOp::And, lhs, rhs)
    }
    fn bitwise_or(lhs: T, rhs: T) -> T {
        bitwise(BitwiseOp::Or, lhs, rhs)
    }
    fn bitwise_or_scalar(lhs: T, rhs: Scalar) -> T {
        bitwise_scalar(BitwiseOp::Or, lhs, rhs)
    }
    fn bitwise_xor(lhs: T, rhs: T) -> T {
        bitwise(BitwiseOp::Xor, lhs, rhs)
    }
    fn bitwise_xor_scalar(lhs: T, rhs: Scalar) -> T {
        bitwise_scalar(BitwiseOp::Xor, lhs, rhs)
    }
    fn bitwise_not(tensor: T) -> T {
        unary_op(IntUnaryOp::BitNot, tensor)
    }
    fn bitwise_left_shift(lhs: T, rhs: T) -> T {
        bitwise(BitwiseOp::Shl, lhs, rhs)
    }
    fn bitwise_right_shift(lhs: T, rhs: T) -> T {
        bitwise(BitwiseOp::Shr, lhs, rhs)
    }

    fn int_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Ne, lhs, rhs)
    }
    fn int_greater(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Ge, lhs, rhs)
    }
    fn int_lower(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Le, lhs, rhs)
    }
    fn int_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Eq, lhs, rhs)
    }
    fn int_not_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Ne, lhs, rhs)
    }
    fn int_greater_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Gt, lhs, rhs)
    }
    fn int_greater_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Ge, lhs, rhs)
    }
    fn int_lower_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Lt, lhs, rhs)
    }
    fn int_lower_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Le, lhs, rhs)
    }

    fn int_sum(tensor: T) -> T {
        num::reduce(N, ReduceOp::Sum, tensor)
    }
    fn int_sum_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Sum, tensor, dim)
    }
    fn int_mean(tensor: T) -> T {
        num::mean(N, tensor)
    }
    fn int_mean_dim(tensor: T, dim: usize) -> T {
        num::mean_dim(N, tensor, dim)
    }
    fn int_prod(tensor: T) -> T {
        num::reduce(N, ReduceOp::Prod, tensor)
    }
    fn int_prod_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Prod, tensor, dim)
    }
    fn int_max(tensor: T) -> T {
        num::reduce(N, ReduceOp::Max, tensor)
    }
    fn int_max_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Max, tensor, dim)
    }
    fn int_min(tensor: T) -> T {
        num::reduce(N, ReduceOp::Min, tensor)
    }
    fn int_min_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Min, tensor, dim)
    }
    fn int_argmax(tensor: T, dim: usize) -> T {
        num::arg_reduce(N, ArgReduceOp::ArgMax, tensor, dim)
    }
    fn int_argmin(tensor: T, dim: usize) -> T {
        num::arg_reduce(N, ArgReduceOp::ArgMin, tensor, dim)
    }
    fn int_max_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        num::reduce_dim_with_indices(N, ArgReduceOp::ArgMax, tensor, dim)
    }
    fn int_min_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        num::reduce_dim_with_indices(N, ArgReduceOp::ArgMin, tensor, dim)
    }
    fn int_any(tensor: T) -> T {
        num::any_all(N, tensor, None, false)
    }
    fn int_any_dim(tensor: T, dim: usize) -> T {
        num::any_all(N, tensor, Some(dim), false)
    }
    fn int_all(tensor: T) -> T {
        num::any_all(N, tensor, None, true)
    }
    fn int_all_dim(tensor: T, dim: usize) -> T {
        num::any_all(N, tensor, Some(dim), true)
    }

    fn int_cumsum(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Sum, tensor, dim)
    }
    fn int_cumprod(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Prod, tensor, dim)
    }
    fn int_cummin(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Min, tensor, dim)
    }
    fn int_cummax(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Max, tensor, dim)
    }

    fn int_sort(tensor: T, dim: usize, descending: bool) -> T {
        num::sort(N, tensor, dim, descending)
    }
    fn int_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        num::sort_with_indices(N, tensor, dim, descending)
    }
    fn int_argsort(tensor: T, dim: usize, descending: bool) -> T {
        num::argsort(N, tensor, dim, descending)
    }
    fn int_topk_with_indices(tensor: T, dim: usize, k: usize) -> (T, T) {
        num::topk_with_indices(N, tensor, dim, k)
    }

    fn int_tril(tensor: T, diagonal: i64) -> T {
        num::triangle(N, tensor, diagonal, false)
    }
    fn int_triu(tensor: T, diagonal: i64) -> T {
        num::triangle(N, tensor, diagonal, true)
    }
}
