use alloc::vec::Vec;

use burn_backend::{ExecutionError, FloatTensorOps, check};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{Cube, CubeDevice};
use crate::CubeTensor;
use crate::ops::binary::{self, BinaryOp, CmpOp};
use crate::ops::reduce::{self, CumOp, ReduceOp};
use crate::ops::unary::{FloatUnary, float_unary};
use crate::ops::{creation, index, matmul, shape, sort};

type T = CubeTensor;

// Methods not listed use the trait's composites over these primitives: mean,
// mean_dim, narrow, swap_dims, clamp, powi, is_nan, is_inf, any/all, topk,
// tril/triu, max_abs.
impl FloatTensorOps<Self> for Cube {
    fn float_from_data(data: TensorData, device: &CubeDevice) -> T {
        check::float_dtype("float_from_data", data.dtype);
        CubeTensor::from_data(data, device)
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &CubeDevice,
        dtype: DType,
    ) -> T {
        check::float_dtype("float_random", dtype);
        creation::random(shape, distribution, device, dtype)
    }
    fn float_full(shape: Shape, value: Scalar, device: &CubeDevice, dtype: DType) -> T {
        check::float_dtype("float_full", dtype);
        creation::full(shape, value, device, dtype)
    }
    fn float_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data()
    }
    fn float_device(tensor: &T) -> CubeDevice {
        tensor.device.clone()
    }
    fn float_to_device(tensor: T, device: &CubeDevice) -> T {
        crate::ops::creation::to_device(tensor, device)
    }
    fn float_into_int(tensor: T, dtype: DType) -> T {
        check::int_dtype("float_into_int", dtype);
        creation::cast(tensor, dtype)
    }
    fn float_cast(tensor: T, dtype: DType) -> T {
        check::float_dtype("float_cast", dtype);
        creation::cast(tensor, dtype)
    }

    fn float_reshape(tensor: T, shape: Shape) -> T {
        shape::reshape(tensor, shape)
    }
    fn float_permute(tensor: T, axes: &[usize]) -> T {
        shape::permute(tensor, axes)
    }
    fn float_flip(tensor: T, axes: &[usize]) -> T {
        shape::flip(tensor, axes)
    }
    fn float_expand(tensor: T, shape: Shape) -> T {
        shape::expand(tensor, shape)
    }
    fn float_slice(tensor: T, slices: &[Slice]) -> T {
        shape::slice(tensor, slices)
    }
    fn float_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        shape::slice_assign(tensor, slices, value)
    }
    fn float_cat(tensors: Vec<T>, dim: usize) -> T {
        shape::cat(tensors, dim)
    }
    fn float_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        shape::repeat_dim(tensor, dim, times)
    }

    fn float_gather(dim: usize, tensor: T, indices: T) -> T {
        index::gather(dim, tensor, indices)
    }
    fn float_scatter_add(dim: usize, tensor: T, indices: T, value: T) -> T {
        index::scatter_add(dim, tensor, indices, value)
    }
    fn float_select(tensor: T, dim: usize, indices: T) -> T {
        index::select(tensor, dim, indices)
    }
    fn float_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        index::select_add(tensor, dim, indices, value)
    }
    fn float_mask_where(tensor: T, mask: T, value: T) -> T {
        index::mask_where(tensor, mask, value)
    }
    fn float_mask_fill(tensor: T, mask: T, value: Scalar) -> T {
        index::mask_fill(tensor, mask, value)
    }

    fn float_add(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Add, lhs, rhs)
    }
    fn float_add_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Add, lhs, rhs)
    }
    fn float_sub(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Sub, lhs, rhs)
    }
    fn float_sub_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Sub, lhs, rhs)
    }
    fn float_mul(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Mul, lhs, rhs)
    }
    fn float_mul_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Mul, lhs, rhs)
    }
    fn float_div(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Div, lhs, rhs)
    }
    fn float_div_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Div, lhs, rhs)
    }
    fn float_remainder(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Rem, lhs, rhs)
    }
    fn float_remainder_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Rem, lhs, rhs)
    }
    fn float_powf(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Pow, lhs, rhs)
    }
    fn float_powf_scalar(lhs: T, rhs: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Pow, lhs, rhs)
    }
    fn float_atan2(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Atan2, lhs, rhs)
    }
    fn float_max_pair(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Max, lhs, rhs)
    }
    fn float_min_pair(lhs: T, rhs: T) -> T {
        binary::binary(BinaryOp::Min, lhs, rhs)
    }
    fn float_matmul(lhs: T, rhs: T) -> T {
        matmul::matmul(lhs, rhs)
    }
    fn float_clamp_min(tensor: T, min: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Max, tensor, min)
    }
    fn float_clamp_max(tensor: T, max: Scalar) -> T {
        binary::binary_scalar(BinaryOp::Min, tensor, max)
    }

    fn float_neg(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Neg)
    }
    fn float_recip(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Recip)
    }
    fn float_abs(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Abs)
    }
    fn float_exp(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Exp)
    }
    fn float_log(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Log)
    }
    fn float_log1p(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Log1p)
    }
    fn float_sqrt(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Sqrt)
    }
    fn float_sin(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Sin)
    }
    fn float_cos(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Cos)
    }
    fn float_tan(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Tan)
    }
    fn float_sinh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Sinh)
    }
    fn float_cosh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Cosh)
    }
    fn float_tanh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Tanh)
    }
    fn float_asin(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Asin)
    }
    fn float_acos(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Acos)
    }
    fn float_atan(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Atan)
    }
    fn float_asinh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Asinh)
    }
    fn float_acosh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Acosh)
    }
    fn float_atanh(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Atanh)
    }
    fn float_erf(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Erf)
    }
    fn float_round(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Round)
    }
    fn float_floor(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Floor)
    }
    fn float_ceil(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Ceil)
    }
    fn float_trunc(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Trunc)
    }
    fn float_sign(tensor: T) -> T {
        float_unary(tensor, FloatUnary::Sign)
    }

    fn float_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Ne, lhs, rhs)
    }
    fn float_greater(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Ge, lhs, rhs)
    }
    fn float_lower(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal(lhs: T, rhs: T) -> T {
        binary::compare(CmpOp::Le, lhs, rhs)
    }
    fn float_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Ne, lhs, rhs)
    }
    fn float_greater_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Ge, lhs, rhs)
    }
    fn float_lower_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal_elem(lhs: T, rhs: Scalar) -> T {
        binary::compare_scalar(CmpOp::Le, lhs, rhs)
    }

    fn float_sum(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Sum)
    }
    fn float_sum_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Sum)
    }
    fn float_prod(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Prod)
    }
    fn float_prod_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Prod)
    }
    fn float_max(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Max)
    }
    fn float_max_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Max)
    }
    fn float_min(tensor: T) -> T {
        reduce::reduce_all(tensor, ReduceOp::Min)
    }
    fn float_min_dim(tensor: T, dim: usize) -> T {
        reduce::reduce_dim(tensor, dim, ReduceOp::Min)
    }
    fn float_argmax(tensor: T, dim: usize) -> T {
        reduce::arg_reduce(tensor, dim, true)
    }
    fn float_argmin(tensor: T, dim: usize) -> T {
        reduce::arg_reduce(tensor, dim, false)
    }

    fn float_cumsum(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Sum)
    }
    fn float_cumprod(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Prod)
    }
    fn float_cummin(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Min)
    }
    fn float_cummax(tensor: T, dim: usize) -> T {
        reduce::cumulative(tensor, dim, CumOp::Max)
    }

    fn float_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        sort::sort_with_indices(tensor, dim, descending)
    }
}
