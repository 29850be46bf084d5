//! `FloatTensorOps` of the router: one recorded operation a method.

use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::ops::vocabulary::{
    ArgReduceOp, BinaryOp, CmpOp, CumOp, FloatBinaryOp, FloatUnaryOp, ReduceOp,
};
use burn_backend::{ExecutionError, FloatTensorOps, TensorMetadata};
use burn_ir::{FloatOperationIr, NumericKind, OperationIr, TensorKind};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{base, binary, numeric as num, scalar, scalar_shape, unary, unary_same, unary_to};
use crate::{BackendRouter, RouterTensor, RunnerChannel};

type T = RouterTensor;
const N: NumericKind = NumericKind::Float;
const K: TensorKind = TensorKind::Float;

fn float(op: FloatOperationIr) -> OperationIr {
    OperationIr::Float(op)
}

/// An element-wise function.
fn unary_op(op: FloatUnaryOp, tensor: T) -> T {
    unary_same(op.name(), tensor, |desc| {
        float(FloatOperationIr::Unary { op, desc })
    })
}

impl<C: RunnerChannel> FloatTensorOps<Self> for BackendRouter<C> {
    fn float_from_data(data: TensorData, device: &C::Device) -> T {
        burn_backend::check::float_dtype("float_from_data", data.dtype);
        base::from_data(C::client(device), data)
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &C::Device,
        dtype: DType,
    ) -> T {
        base::random(C::client(device), shape, distribution, dtype)
    }
    fn float_full(shape: Shape, value: Scalar, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, value, dtype)
    }
    fn float_zeros(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, Scalar::Float(0.0), dtype)
    }
    fn float_ones(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::full(C::client(device), shape, Scalar::Float(1.0), dtype)
    }
    fn float_empty(shape: Shape, device: &C::Device, dtype: DType) -> T {
        base::empty(C::client(device), shape, dtype)
    }
    fn float_arange(range: Range<i64>, device: &C::Device, dtype: DType) -> T {
        base::arange(C::client(device), range.start, range.end, 1, dtype)
    }
    fn float_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        base::into_data(tensor)
    }
    fn float_device(tensor: &T) -> C::Device {
        C::device(&**tensor.client())
    }
    fn float_to_device(tensor: T, device: &C::Device) -> T {
        base::to_client("float_to_device", tensor, C::client(device))
    }
    fn float_into_int(tensor: T, dtype: DType) -> T {
        unary("float_into_int", tensor, dtype, |desc| {
            float(FloatOperationIr::IntoInt(desc))
        })
    }
    fn float_cast(tensor: T, dtype: DType) -> T {
        num::cast(N, tensor, dtype)
    }

    fn float_reshape(tensor: T, shape: Shape) -> T {
        base::reshape(K, tensor, shape)
    }
    fn float_permute(tensor: T, axes: &[usize]) -> T {
        base::permute(K, tensor, axes)
    }
    fn float_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        base::swap_dims(K, tensor, dim1, dim2)
    }
    fn float_flip(tensor: T, axes: &[usize]) -> T {
        base::flip(K, tensor, axes)
    }
    fn float_expand(tensor: T, shape: Shape) -> T {
        base::expand(K, tensor, shape)
    }
    fn float_slice(tensor: T, slices: &[Slice]) -> T {
        base::slice(K, tensor, slices)
    }
    fn float_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        base::slice_assign(K, tensor, slices, value)
    }
    fn float_narrow(tensor: T, dim: usize, start: usize, length: usize) -> T {
        base::narrow(K, tensor, dim, start, length)
    }
    fn float_cat(tensors: Vec<T>, dim: usize) -> T {
        base::cat(K, tensors, dim)
    }
    fn float_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        base::repeat_dim(K, tensor, dim, times)
    }

    fn float_gather(dim: usize, tensor: T, indices: T) -> T {
        base::gather(K, dim, tensor, indices)
    }
    fn float_scatter_add(dim: usize, tensor: T, indices: T, value: T) -> T {
        num::scatter_add(N, dim, tensor, indices, value)
    }
    fn float_select(tensor: T, dim: usize, indices: T) -> T {
        base::select(K, tensor, dim, indices)
    }
    fn float_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        num::select_add(N, tensor, dim, indices, value)
    }
    fn float_mask_where(tensor: T, mask: T, value: T) -> T {
        base::mask_where(K, tensor, mask, value)
    }
    fn float_mask_fill(tensor: T, mask: T, value: Scalar) -> T {
        num::mask_fill(N, tensor, mask, value)
    }

    fn float_add(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Add, lhs, rhs)
    }
    fn float_add_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Add, lhs, rhs)
    }
    fn float_sub(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Sub, lhs, rhs)
    }
    fn float_sub_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Sub, lhs, rhs)
    }
    fn float_mul(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Mul, lhs, rhs)
    }
    fn float_mul_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Mul, lhs, rhs)
    }
    fn float_div(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Div, lhs, rhs)
    }
    fn float_div_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Div, lhs, rhs)
    }
    fn float_remainder(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Rem, lhs, rhs)
    }
    fn float_remainder_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Rem, lhs, rhs)
    }
    fn float_powf(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Pow, lhs, rhs)
    }
    fn float_powf_scalar(lhs: T, rhs: Scalar) -> T {
        num::binary_scalar(N, BinaryOp::Pow, lhs, rhs)
    }
    fn float_powi(lhs: T, rhs: T) -> T {
        let dtype = lhs.dtype();
        binary("float_powi", lhs, rhs, dtype, |desc| {
            float(FloatOperationIr::PowInt(desc))
        })
    }
    fn float_powi_scalar(lhs: T, rhs: Scalar) -> T {
        let dtype = lhs.dtype();
        scalar("float_powi_scalar", lhs, rhs, dtype, |desc| {
            float(FloatOperationIr::PowIntScalar(desc))
        })
    }
    fn float_atan2(lhs: T, rhs: T) -> T {
        let (op, dtype) = (FloatBinaryOp::Atan2, lhs.dtype());
        binary(op.name(), lhs, rhs, dtype, |desc| {
            float(FloatOperationIr::Binary { op, desc })
        })
    }
    fn float_max_pair(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Max, lhs, rhs)
    }
    fn float_min_pair(lhs: T, rhs: T) -> T {
        num::binary_op(N, BinaryOp::Min, lhs, rhs)
    }
    fn float_matmul(lhs: T, rhs: T) -> T {
        num::matmul(N, lhs, rhs)
    }
    fn float_clamp_min(tensor: T, min: Scalar) -> T {
        num::clamp(N, tensor, Some(min), None)
    }
    fn float_clamp_max(tensor: T, max: Scalar) -> T {
        num::clamp(N, tensor, None, Some(max))
    }
    fn float_clamp(tensor: T, min: Scalar, max: Scalar) -> T {
        num::clamp(N, tensor, Some(min), Some(max))
    }

    fn float_neg(tensor: T) -> T {
        unary_op(FloatUnaryOp::Neg, tensor)
    }
    fn float_recip(tensor: T) -> T {
        unary_op(FloatUnaryOp::Recip, tensor)
    }
    fn float_abs(tensor: T) -> T {
        unary_op(FloatUnaryOp::Abs, tensor)
    }
    fn float_exp(tensor: T) -> T {
        unary_op(FloatUnaryOp::Exp, tensor)
    }
    fn float_log(tensor: T) -> T {
        unary_op(FloatUnaryOp::Log, tensor)
    }
    fn float_log1p(tensor: T) -> T {
        unary_op(FloatUnaryOp::Log1p, tensor)
    }
    fn float_sqrt(tensor: T) -> T {
        unary_op(FloatUnaryOp::Sqrt, tensor)
    }
    fn float_sin(tensor: T) -> T {
        unary_op(FloatUnaryOp::Sin, tensor)
    }
    fn float_cos(tensor: T) -> T {
        unary_op(FloatUnaryOp::Cos, tensor)
    }
    fn float_tan(tensor: T) -> T {
        unary_op(FloatUnaryOp::Tan, tensor)
    }
    fn float_sinh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Sinh, tensor)
    }
    fn float_cosh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Cosh, tensor)
    }
    fn float_tanh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Tanh, tensor)
    }
    fn float_asin(tensor: T) -> T {
        unary_op(FloatUnaryOp::Asin, tensor)
    }
    fn float_acos(tensor: T) -> T {
        unary_op(FloatUnaryOp::Acos, tensor)
    }
    fn float_atan(tensor: T) -> T {
        unary_op(FloatUnaryOp::Atan, tensor)
    }
    fn float_asinh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Asinh, tensor)
    }
    fn float_acosh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Acosh, tensor)
    }
    fn float_atanh(tensor: T) -> T {
        unary_op(FloatUnaryOp::Atanh, tensor)
    }
    fn float_erf(tensor: T) -> T {
        unary_op(FloatUnaryOp::Erf, tensor)
    }
    fn float_round(tensor: T) -> T {
        unary_op(FloatUnaryOp::Round, tensor)
    }
    fn float_floor(tensor: T) -> T {
        unary_op(FloatUnaryOp::Floor, tensor)
    }
    fn float_ceil(tensor: T) -> T {
        unary_op(FloatUnaryOp::Ceil, tensor)
    }
    fn float_trunc(tensor: T) -> T {
        unary_op(FloatUnaryOp::Trunc, tensor)
    }
    fn float_sign(tensor: T) -> T {
        unary_op(FloatUnaryOp::Sign, tensor)
    }

    fn float_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Ne, lhs, rhs)
    }
    fn float_greater(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Ge, lhs, rhs)
    }
    fn float_lower(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal(lhs: T, rhs: T) -> T {
        num::compare(N, CmpOp::Le, lhs, rhs)
    }
    fn float_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Ne, lhs, rhs)
    }
    fn float_greater_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Ge, lhs, rhs)
    }
    fn float_lower_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal_elem(lhs: T, rhs: Scalar) -> T {
        num::compare_scalar(N, CmpOp::Le, lhs, rhs)
    }
    fn float_is_nan(tensor: T) -> T {
        let dtype = tensor.client().bool_dtype();
        unary("float_is_nan", tensor, dtype, |desc| {
            float(FloatOperationIr::IsNan(desc))
        })
    }
    fn float_is_inf(tensor: T) -> T {
        let dtype = tensor.client().bool_dtype();
        unary("float_is_inf", tensor, dtype, |desc| {
            float(FloatOperationIr::IsInf(desc))
        })
    }

    fn float_sum(tensor: T) -> T {
        num::reduce(N, ReduceOp::Sum, tensor)
    }
    fn float_sum_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Sum, tensor, dim)
    }
    fn float_mean(tensor: T) -> T {
        num::mean(N, tensor)
    }
    fn float_mean_dim(tensor: T, dim: usize) -> T {
        num::mean_dim(N, tensor, dim)
    }
    fn float_prod(tensor: T) -> T {
        num::reduce(N, ReduceOp::Prod, tensor)
    }
    fn float_prod_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Prod, tensor, dim)
    }
    fn float_max(tensor: T) -> T {
        num::reduce(N, ReduceOp::Max, tensor)
    }
    fn float_max_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Max, tensor, dim)
    }
    fn float_min(tensor: T) -> T {
        num::reduce(N, ReduceOp::Min, tensor)
    }
    fn float_min_dim(tensor: T, dim: usize) -> T {
        num::reduce_dim(N, ReduceOp::Min, tensor, dim)
    }
    fn float_argmax(tensor: T, dim: usize) -> T {
        num::arg_reduce(N, ArgReduceOp::ArgMax, tensor, dim)
    }
    fn float_argmin(tensor: T, dim: usize) -> T {
        num::arg_reduce(N, ArgReduceOp::ArgMin, tensor, dim)
    }
    fn float_max_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        num::reduce_dim_with_indices(N, ArgReduceOp::ArgMax, tensor, dim)
    }
    fn float_min_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        num::reduce_dim_with_indices(N, ArgReduceOp::ArgMin, tensor, dim)
    }
    fn float_max_abs(tensor: T) -> T {
        let dtype = tensor.dtype();
        unary_to("float_max_abs", tensor, scalar_shape(), dtype, |desc| {
            float(FloatOperationIr::MaxAbs(desc))
        })
    }
    fn float_any(tensor: T) -> T {
        num::any_all(N, tensor, None, false)
    }
    fn float_any_dim(tensor: T, dim: usize) -> T {
        num::any_all(N, tensor, Some(dim), false)
    }
    fn float_all(tensor: T) -> T {
        num::any_all(N, tensor, None, true)
    }
    fn float_all_dim(tensor: T, dim: usize) -> T {
        num::any_all(N, tensor, Some(dim), true)
    }

    fn float_cumsum(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Sum, tensor, dim)
    }
    fn float_cumprod(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Prod, tensor, dim)
    }
    fn float_cummin(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Min, tensor, dim)
    }
    fn float_cummax(tensor: T, dim: usize) -> T {
        num::cumulative(N, CumOp::Max, tensor, dim)
    }

    fn float_sort(tensor: T, dim: usize, descending: bool) -> T {
        num::sort(N, tensor, dim, descending)
    }
    fn float_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        num::sort_with_indices(N, tensor, dim, descending)
    }
    fn float_argsort(tensor: T, dim: usize, descending: bool) -> T {
        num::argsort(N, tensor, dim, descending)
    }
    fn float_topk_with_indices(tensor: T, dim: usize, k: usize) -> (T, T) {
        num::topk_with_indices(N, tensor, dim, k)
    }

    fn float_tril(tensor: T, diagonal: i64) -> T {
        num::triangle(N, tensor, diagonal, false)
    }
    fn float_triu(tensor: T, diagonal: i64) -> T {
        num::triangle(N, tensor, diagonal, true)
    }
}
