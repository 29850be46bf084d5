//! Int tensor ops: every method of `IntTensorOps` routed to the backend
//! holding the operands, composites included.

use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::{BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, IntTensorOps};
use burn_backend_extension::backend_dispatch;
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use crate::Dispatch;

#[backend_dispatch]
impl IntTensorOps<Self> for Dispatch {
    fn int_from_data(data: TensorData, device: &Device<Self>) -> IntTensor<Self>;
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<Self>,
        dtype: DType,
    ) -> IntTensor<Self>;
    fn int_full(
        shape: Shape,
        value: Scalar,
        device: &Device<Self>,
        dtype: DType,
    ) -> IntTensor<Self>;
    fn int_zeros(shape: Shape, device: &Device<Self>, dtype: DType) -> IntTensor<Self>;
    fn int_ones(shape: Shape, device: &Device<Self>, dtype: DType) -> IntTensor<Self>;
    fn int_empty(shape: Shape, device: &Device<Self>, dtype: DType) -> IntTensor<Self>;
    fn int_arange(range: Range<i64>, device: &Device<Self>, dtype: DType) -> IntTensor<Self>;
    fn int_arange_step(
        range: Range<i64>,
        step: usize,
        device: &Device<Self>,
        dtype: DType,
    ) -> IntTensor<Self>;
    fn int_into_data(tensor: IntTensor<Self>) -> Result<TensorData, ExecutionError>;
    fn int_device(tensor: &IntTensor<Self>) -> Device<Self>;
    #[backend_dispatch(skip)]
    fn int_to_device(tensor: IntTensor<Self>, device: &Device<Self>) -> IntTensor<Self> {
        crate::routing::to_device("int_to_device", tensor, device)
    }
    fn int_into_float(tensor: IntTensor<Self>, dtype: DType) -> FloatTensor<Self>;
    fn int_cast(tensor: IntTensor<Self>, dtype: DType) -> IntTensor<Self>;
    fn int_reshape(tensor: IntTensor<Self>, shape: Shape) -> IntTensor<Self>;
    fn int_permute(tensor: IntTensor<Self>, axes: &[usize]) -> IntTensor<Self>;
    fn int_swap_dims(tensor: IntTensor<Self>, dim1: usize, dim2: usize) -> IntTensor<Self>;
    fn int_flip(tensor: IntTensor<Self>, axes: &[usize]) -> IntTensor<Self>;
    fn int_expand(tensor: IntTensor<Self>, shape: Shape) -> IntTensor<Self>;
    fn int_slice(tensor: IntTensor<Self>, slices: &[Slice]) -> IntTensor<Self>;
    fn int_slice_assign(
        tensor: IntTensor<Self>,
        slices: &[Slice],
        value: IntTensor<Self>,
    ) -> IntTensor<Self>;
    fn int_narrow(
        tensor: IntTensor<Self>,
        dim: usize,
        start: usize,
        length: usize,
    ) -> IntTensor<Self>;
    fn int_cat(tensors: Vec<IntTensor<Self>>, dim: usize) -> IntTensor<Self>;
    fn int_repeat_dim(tensor: IntTensor<Self>, dim: usize, times: usize) -> IntTensor<Self>;
    fn int_gather(dim: usize, tensor: IntTensor<Self>, indices: IntTensor<Self>)
    -> IntTensor<Self>;
    fn int_scatter_add(
        dim: usize,
        tensor: IntTensor<Self>,
        indices: IntTensor<Self>,
        value: IntTensor<Self>,
    ) -> IntTensor<Self>;
    fn int_select(tensor: IntTensor<Self>, dim: usize, indices: IntTensor<Self>)
    -> IntTensor<Self>;
    fn int_select_add(
        tensor: IntTensor<Self>,
        dim: usize,
        indices: IntTensor<Self>,
        value: IntTensor<Self>,
    ) -> IntTensor<Self>;
    fn int_mask_where(
        tensor: IntTensor<Self>,
        mask: BoolTensor<Self>,
        value: IntTensor<Self>,
    ) -> IntTensor<Self>;
    fn int_mask_fill(
        tensor: IntTensor<Self>,
        mask: BoolTensor<Self>,
        value: Scalar,
    ) -> IntTensor<Self>;
    fn int_add(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_add_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_sub(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_sub_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_mul(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_mul_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_div(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_div_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_remainder(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_remainder_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_powi(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_powf(lhs: IntTensor<Self>, rhs: FloatTensor<Self>) -> IntTensor<Self>;
    fn int_powf_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn int_matmul(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_neg(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_abs(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_sign(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_clamp_min(tensor: IntTensor<Self>, min: Scalar) -> IntTensor<Self>;
    fn int_clamp_max(tensor: IntTensor<Self>, max: Scalar) -> IntTensor<Self>;
    fn int_clamp(tensor: IntTensor<Self>, min: Scalar, max: Scalar) -> IntTensor<Self>;
    fn int_max_pair(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_min_pair(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_and(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_and_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn bitwise_or(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_or_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn bitwise_xor(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_xor_scalar(lhs: IntTensor<Self>, rhs: Scalar) -> IntTensor<Self>;
    fn bitwise_not(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_left_shift(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn bitwise_right_shift(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> IntTensor<Self>;
    fn int_equal(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_not_equal(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_greater(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_greater_equal(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_lower(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_lower_equal(lhs: IntTensor<Self>, rhs: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_equal_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_not_equal_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_greater_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_greater_equal_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_lower_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_lower_equal_elem(lhs: IntTensor<Self>, rhs: Scalar) -> BoolTensor<Self>;
    fn int_sum(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_sum_dim(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_mean(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_mean_dim(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_prod(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_prod_dim(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_max(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_max_dim(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_min(tensor: IntTensor<Self>) -> IntTensor<Self>;
    fn int_min_dim(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_argmax(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_argmin(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_max_dim_with_indices(
        tensor: IntTensor<Self>,
        dim: usize,
    ) -> (IntTensor<Self>, IntTensor<Self>);
    fn int_min_dim_with_indices(
        tensor: IntTensor<Self>,
        dim: usize,
    ) -> (IntTensor<Self>, IntTensor<Self>);
    fn int_any(tensor: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_any_dim(tensor: IntTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn int_all(tensor: IntTensor<Self>) -> BoolTensor<Self>;
    fn int_all_dim(tensor: IntTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn int_cumsum(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_cumprod(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_cummin(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_cummax(tensor: IntTensor<Self>, dim: usize) -> IntTensor<Self>;
    fn int_sort(tensor: IntTensor<Self>, dim: usize, descending: bool) -> IntTensor<Self>;
    fn int_sort_with_indices(
        tensor: IntTensor<Self>,
        dim: usize,
        descending: bool,
    ) -> (IntTensor<Self>, IntTensor<Self>);
    fn int_argsort(tensor: IntTensor<Self>, dim: usize, descending: bool) -> IntTensor<Self>;
    fn int_topk_with_indices(
        tensor: IntTensor<Self>,
        dim: usize,
        k: usize,
    ) -> (IntTensor<Self>, IntTensor<Self>);
    fn int_tril(tensor: IntTensor<Self>, diagonal: i64) -> IntTensor<Self>;
    fn int_triu(tensor: IntTensor<Self>, diagonal: i64) -> IntTensor<Self>;
}
