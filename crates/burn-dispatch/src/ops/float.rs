//! Float tensor ops: every method of `FloatTensorOps` routed to the backend
//! holding the operands, composites included (so a backend's override is used).

use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::{BoolTensor, Device, ExecutionError, FloatTensor, FloatTensorOps, IntTensor};
use burn_backend_extension::backend_dispatch;
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use crate::Dispatch;

#[backend_dispatch]
impl FloatTensorOps<Self> for Dispatch {
    fn float_from_data(data: TensorData, device: &Device<Self>) -> FloatTensor<Self>;
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<Self>,
        dtype: DType,
    ) -> FloatTensor<Self>;
    fn float_full(
        shape: Shape,
        value: Scalar,
        device: &Device<Self>,
        dtype: DType,
    ) -> FloatTensor<Self>;
    fn float_zeros(shape: Shape, device: &Device<Self>, dtype: DType) -> FloatTensor<Self>;
    fn float_ones(shape: Shape, device: &Device<Self>, dtype: DType) -> FloatTensor<Self>;
    fn float_empty(shape: Shape, device: &Device<Self>, dtype: DType) -> FloatTensor<Self>;
    fn float_arange(range: Range<i64>, device: &Device<Self>, dtype: DType) -> FloatTensor<Self>;
    fn float_into_data(tensor: FloatTensor<Self>) -> Result<TensorData, ExecutionError>;
    fn float_device(tensor: &FloatTensor<Self>) -> Device<Self>;
    #[backend_dispatch(skip)]
    fn float_to_device(tensor: FloatTensor<Self>, device: &Device<Self>) -> FloatTensor<Self> {
        crate::routing::to_device("float_to_device", tensor, device)
    }
    fn float_into_int(tensor: FloatTensor<Self>, dtype: DType) -> IntTensor<Self>;
    fn float_cast(tensor: FloatTensor<Self>, dtype: DType) -> FloatTensor<Self>;
    fn float_reshape(tensor: FloatTensor<Self>, shape: Shape) -> FloatTensor<Self>;
    fn float_permute(tensor: FloatTensor<Self>, axes: &[usize]) -> FloatTensor<Self>;
    fn float_swap_dims(tensor: FloatTensor<Self>, dim1: usize, dim2: usize) -> FloatTensor<Self>;
    fn float_flip(tensor: FloatTensor<Self>, axes: &[usize]) -> FloatTensor<Self>;
    fn float_expand(tensor: FloatTensor<Self>, shape: Shape) -> FloatTensor<Self>;
    fn float_slice(tensor: FloatTensor<Self>, slices: &[Slice]) -> FloatTensor<Self>;
    fn float_slice_assign(
        tensor: FloatTensor<Self>,
        slices: &[Slice],
        value: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_narrow(
        tensor: FloatTensor<Self>,
        dim: usize,
        start: usize,
        length: usize,
    ) -> FloatTensor<Self>;
    fn float_cat(tensors: Vec<FloatTensor<Self>>, dim: usize) -> FloatTensor<Self>;
    fn float_repeat_dim(tensor: FloatTensor<Self>, dim: usize, times: usize) -> FloatTensor<Self>;
    fn float_gather(
        dim: usize,
        tensor: FloatTensor<Self>,
        indices: IntTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_scatter_add(
        dim: usize,
        tensor: FloatTensor<Self>,
        indices: IntTensor<Self>,
        value: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_select(
        tensor: FloatTensor<Self>,
        dim: usize,
        indices: IntTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_select_add(
        tensor: FloatTensor<Self>,
        dim: usize,
        indices: IntTensor<Self>,
        value: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_mask_where(
        tensor: FloatTensor<Self>,
        mask: BoolTensor<Self>,
        value: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
    fn float_mask_fill(
        tensor: FloatTensor<Self>,
        mask: BoolTensor<Self>,
        value: Scalar,
    ) -> FloatTensor<Self>;
    fn float_add(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_add_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_sub(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sub_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_mul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_mul_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_div(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_div_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_remainder(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_remainder_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_powf(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_powf_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_powi(lhs: FloatTensor<Self>, rhs: IntTensor<Self>) -> FloatTensor<Self>;
    fn float_powi_scalar(lhs: FloatTensor<Self>, rhs: Scalar) -> FloatTensor<Self>;
    fn float_atan2(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_max_pair(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_min_pair(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_clamp_min(tensor: FloatTensor<Self>, min: Scalar) -> FloatTensor<Self>;
    fn float_clamp_max(tensor: FloatTensor<Self>, max: Scalar) -> FloatTensor<Self>;
    fn float_clamp(tensor: FloatTensor<Self>, min: Scalar, max: Scalar) -> FloatTensor<Self>;
    fn float_neg(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_recip(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_abs(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_exp(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_log(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_log1p(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sqrt(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sin(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_cos(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_tan(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sinh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_cosh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_tanh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_asin(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_acos(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_atan(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_asinh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_acosh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_atanh(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_erf(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_round(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_floor(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_ceil(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_trunc(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sign(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_equal(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_not_equal(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_greater(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_greater_equal(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_lower(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_lower_equal(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_equal_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_not_equal_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_greater_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_greater_equal_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_lower_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_lower_equal_elem(lhs: FloatTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn float_is_nan(tensor: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_is_inf(tensor: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_sum(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_sum_dim(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_mean(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_mean_dim(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_prod(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_prod_dim(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_max(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_max_dim(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_min(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_min_dim(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_argmax(tensor: FloatTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn float_argmin(tensor: FloatTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn float_max_dim_with_indices(
        tensor: FloatTensor<Self>,
        dim: usize,
    ) -> (FloatTensor<Self>, IntTensor<Self>);
    fn float_min_dim_with_indices(
        tensor: FloatTensor<Self>,
        dim: usize,
    ) -> (FloatTensor<Self>, IntTensor<Self>);
    fn float_max_abs(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_any(tensor: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_any_dim(tensor: FloatTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn float_all(tensor: FloatTensor<Self>) -> BoolTensor<Self>;
    fn float_all_dim(tensor: FloatTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn float_cumsum(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_cumprod(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_cummin(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_cummax(tensor: FloatTensor<Self>, dim: usize) -> FloatTensor<Self>;
    fn float_sort(tensor: FloatTensor<Self>, dim: usize, descending: bool) -> FloatTensor<Self>;
    fn float_sort_with_indices(
        tensor: FloatTensor<Self>,
        dim: usize,
        descending: bool,
    ) -> (FloatTensor<Self>, IntTensor<Self>);
    fn float_argsort(tensor: FloatTensor<Self>, dim: usize, descending: bool) -> IntTensor<Self>;
    fn float_topk_with_indices(
        tensor: FloatTensor<Self>,
        dim: usize,
        k: usize,
    ) -> (FloatTensor<Self>, IntTensor<Self>);
    fn float_tril(tensor: FloatTensor<Self>, diagonal: i64) -> FloatTensor<Self>;
    fn float_triu(tensor: FloatTensor<Self>, diagonal: i64) -> FloatTensor<Self>;
    fn float_detach(tensor: FloatTensor<Self>) -> FloatTensor<Self>;
    fn float_set_require_grad(tensor: FloatTensor<Self>, require_grad: bool) -> FloatTensor<Self>;
    fn float_is_require_grad(tensor: &FloatTensor<Self>) -> bool;
}
