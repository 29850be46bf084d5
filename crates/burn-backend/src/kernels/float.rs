//! [`FloatTensorOps`] of a kernel backend. Methods not listed keep the
//! trait's composites over these: zeros/ones/empty, arange, swap_dims,
//! narrow, powi, clamp, is_nan, is_inf, mean, the `*_with_indices`
//! reductions, max_abs, any/all, sort/argsort, topk, tril/triu.

use alloc::vec::Vec;

use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::Kernels;
use crate::ops::{
    ArgReduceOp, BinaryOp, CmpOp, CumOp, FloatBinaryOp, FloatTensorOps, FloatUnaryOp, ReduceOp,
};
use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, check};

impl<K: Kernels + Backend> FloatTensorOps<K> for K {
    fn float_from_data(data: TensorData, device: &Device<K>) -> FloatTensor<K> {
        check::float_dtype("float_from_data", data.dtype);
        K::from_data(data, device)
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<K>,
        dtype: DType,
    ) -> FloatTensor<K> {
        check::float_dtype("float_random", dtype);
        K::random(shape, distribution, device, dtype)
    }
    fn float_full(shape: Shape, value: Scalar, device: &Device<K>, dtype: DType) -> FloatTensor<K> {
        check::float_dtype("float_full", dtype);
        K::full(shape, value, device, dtype)
    }
    fn float_into_data(tensor: FloatTensor<K>) -> Result<TensorData, ExecutionError> {
        K::into_data(tensor)
    }
    fn float_device(tensor: &FloatTensor<K>) -> Device<K> {
        K::device(tensor)
    }
    fn float_to_device(tensor: FloatTensor<K>, device: &Device<K>) -> FloatTensor<K> {
        K::to_device(tensor, device)
    }
    fn float_into_int(tensor: FloatTensor<K>, dtype: DType) -> IntTensor<K> {
        check::int_dtype("float_into_int", dtype);
        K::cast(tensor, dtype)
    }
    fn float_cast(tensor: FloatTensor<K>, dtype: DType) -> FloatTensor<K> {
        check::float_dtype("float_cast", dtype);
        K::cast(tensor, dtype)
    }

    fn float_reshape(tensor: FloatTensor<K>, shape: Shape) -> FloatTensor<K> {
        K::reshape(tensor, shape)
    }
    fn float_permute(tensor: FloatTensor<K>, axes: &[usize]) -> FloatTensor<K> {
        K::permute(tensor, axes)
    }
    fn float_flip(tensor: FloatTensor<K>, axes: &[usize]) -> FloatTensor<K> {
        K::flip(tensor, axes)
    }
    fn float_expand(tensor: FloatTensor<K>, shape: Shape) -> FloatTensor<K> {
        K::expand(tensor, shape)
    }
    fn float_slice(tensor: FloatTensor<K>, slices: &[Slice]) -> FloatTensor<K> {
        K::slice(tensor, slices)
    }
    fn float_slice_assign(
        tensor: FloatTensor<K>,
        slices: &[Slice],
        value: FloatTensor<K>,
    ) -> FloatTensor<K> {
        K::slice_assign(tensor, slices, value)
    }
    fn float_cat(tensors: Vec<FloatTensor<K>>, dim: usize) -> FloatTensor<K> {
        K::cat(tensors, dim)
    }
    fn float_repeat_dim(tensor: FloatTensor<K>, dim: usize, times: usize) -> FloatTensor<K> {
        K::repeat_dim(tensor, dim, times)
    }

    fn float_gather(dim: usize, tensor: FloatTensor<K>, indices: IntTensor<K>) -> FloatTensor<K> {
        K::gather(dim, tensor, indices)
    }
    fn float_scatter_add(
        dim: usize,
        tensor: FloatTensor<K>,
        indices: IntTensor<K>,
        value: FloatTensor<K>,
    ) -> FloatTensor<K> {
        K::scatter_add(dim, tensor, indices, value)
    }
    fn float_select(tensor: FloatTensor<K>, dim: usize, indices: IntTensor<K>) -> FloatTensor<K> {
        K::select(tensor, dim, indices)
    }
    fn float_select_add(
        tensor: FloatTensor<K>,
        dim: usize,
        indices: IntTensor<K>,
        value: FloatTensor<K>,
    ) -> FloatTensor<K> {
        K::select_add(tensor, dim, indices, value)
    }
    fn float_mask_where(
        tensor: FloatTensor<K>,
        mask: BoolTensor<K>,
        value: FloatTensor<K>,
    ) -> FloatTensor<K> {
        K::mask_where(tensor, mask, value)
    }
    fn float_mask_fill(
        tensor: FloatTensor<K>,
        mask: BoolTensor<K>,
        value: Scalar,
    ) -> FloatTensor<K> {
        K::mask_fill(tensor, mask, value)
    }

    fn float_add(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Add, lhs, rhs)
    }
    fn float_add_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Add, lhs, rhs)
    }
    fn float_sub(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Sub, lhs, rhs)
    }
    fn float_sub_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Sub, lhs, rhs)
    }
    fn float_mul(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Mul, lhs, rhs)
    }
    fn float_mul_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Mul, lhs, rhs)
    }
    fn float_div(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Div, lhs, rhs)
    }
    fn float_div_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Div, lhs, rhs)
    }
    fn float_remainder(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Rem, lhs, rhs)
    }
    fn float_remainder_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Rem, lhs, rhs)
    }
    fn float_powf(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Pow, lhs, rhs)
    }
    fn float_powf_scalar(lhs: FloatTensor<K>, rhs: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Pow, lhs, rhs)
    }
    fn float_atan2(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::float_binary(FloatBinaryOp::Atan2, lhs, rhs)
    }
    fn float_max_pair(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Max, lhs, rhs)
    }
    fn float_min_pair(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::binary(BinaryOp::Min, lhs, rhs)
    }
    fn float_matmul(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> FloatTensor<K> {
        K::matmul(lhs, rhs)
    }
    fn float_clamp_min(tensor: FloatTensor<K>, min: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Max, tensor, min)
    }
    fn float_clamp_max(tensor: FloatTensor<K>, max: Scalar) -> FloatTensor<K> {
        K::binary_scalar(BinaryOp::Min, tensor, max)
    }

    fn float_neg(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Neg, tensor)
    }
    fn float_recip(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Recip, tensor)
    }
    fn float_abs(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Abs, tensor)
    }
    fn float_exp(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Exp, tensor)
    }
    fn float_log(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Log, tensor)
    }
    fn float_log1p(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Log1p, tensor)
    }
    fn float_sqrt(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Sqrt, tensor)
    }
    fn float_sin(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Sin, tensor)
    }
    fn float_cos(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Cos, tensor)
    }
    fn float_tan(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Tan, tensor)
    }
    fn float_sinh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Sinh, tensor)
    }
    fn float_cosh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Cosh, tensor)
    }
    fn float_tanh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Tanh, tensor)
    }
    fn float_asin(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Asin, tensor)
    }
    fn float_acos(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Acos, tensor)
    }
    fn float_atan(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Atan, tensor)
    }
    fn float_asinh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Asinh, tensor)
    }
    fn float_acosh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Acosh, tensor)
    }
    fn float_atanh(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Atanh, tensor)
    }
    fn float_erf(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Erf, tensor)
    }
    fn float_round(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Round, tensor)
    }
    fn float_floor(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Floor, tensor)
    }
    fn float_ceil(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Ceil, tensor)
    }
    fn float_trunc(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Trunc, tensor)
    }
    fn float_sign(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::float_unary(FloatUnaryOp::Sign, tensor)
    }

    fn float_equal(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Ne, lhs, rhs)
    }
    fn float_greater(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Ge, lhs, rhs)
    }
    fn float_lower(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal(lhs: FloatTensor<K>, rhs: FloatTensor<K>) -> BoolTensor<K> {
        K::compare(CmpOp::Le, lhs, rhs)
    }
    fn float_equal_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Eq, lhs, rhs)
    }
    fn float_not_equal_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Ne, lhs, rhs)
    }
    fn float_greater_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Gt, lhs, rhs)
    }
    fn float_greater_equal_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Ge, lhs, rhs)
    }
    fn float_lower_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Lt, lhs, rhs)
    }
    fn float_lower_equal_elem(lhs: FloatTensor<K>, rhs: Scalar) -> BoolTensor<K> {
        K::compare_scalar(CmpOp::Le, lhs, rhs)
    }

    fn float_sum(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::reduce_all(ReduceOp::Sum, tensor)
    }
    fn float_sum_dim(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::reduce_dim(ReduceOp::Sum, tensor, dim)
    }
    fn float_prod(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::reduce_all(ReduceOp::Prod, tensor)
    }
    fn float_prod_dim(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::reduce_dim(ReduceOp::Prod, tensor, dim)
    }
    fn float_max(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::reduce_all(ReduceOp::Max, tensor)
    }
    fn float_max_dim(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::reduce_dim(ReduceOp::Max, tensor, dim)
    }
    fn float_min(tensor: FloatTensor<K>) -> FloatTensor<K> {
        K::reduce_all(ReduceOp::Min, tensor)
    }
    fn float_min_dim(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::reduce_dim(ReduceOp::Min, tensor, dim)
    }
    fn float_argmax(tensor: FloatTensor<K>, dim: usize) -> IntTensor<K> {
        K::arg_reduce(ArgReduceOp::ArgMax, tensor, dim)
    }
    fn float_argmin(tensor: FloatTensor<K>, dim: usize) -> IntTensor<K> {
        K::arg_reduce(ArgReduceOp::ArgMin, tensor, dim)
    }

    fn float_cumsum(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::cumulative(CumOp::Sum, tensor, dim)
    }
    fn float_cumprod(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::cumulative(CumOp::Prod, tensor, dim)
    }
    fn float_cummin(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::cumulative(CumOp::Min, tensor, dim)
    }
    fn float_cummax(tensor: FloatTensor<K>, dim: usize) -> FloatTensor<K> {
        K::cumulative(CumOp::Max, tensor, dim)
    }

    fn float_sort_with_indices(
        tensor: FloatTensor<K>,
        dim: usize,
        descending: bool,
    ) -> (FloatTensor<K>, IntTensor<K>) {
        K::sort_with_indices(tensor, dim, descending)
    }
}
