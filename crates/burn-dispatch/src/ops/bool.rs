//! Bool tensor ops: every method of `BoolTensorOps` routed to the backend
//! holding the operands, composites included.

use alloc::vec::Vec;

use burn_backend::{BoolTensor, BoolTensorOps, Device, ExecutionError, FloatTensor, IntTensor};
use burn_backend_extension::backend_dispatch;
use burn_std::{DType, Shape, Slice, TensorData};

use crate::Dispatch;

#[backend_dispatch]
impl BoolTensorOps<Self> for Dispatch {
    fn bool_from_data(data: TensorData, device: &Device<Self>) -> BoolTensor<Self>;
    fn bool_full(shape: Shape, value: bool, device: &Device<Self>) -> BoolTensor<Self>;
    fn bool_zeros(shape: Shape, device: &Device<Self>) -> BoolTensor<Self>;
    fn bool_ones(shape: Shape, device: &Device<Self>) -> BoolTensor<Self>;
    fn bool_empty(shape: Shape, device: &Device<Self>) -> BoolTensor<Self>;
    fn bool_into_data(tensor: BoolTensor<Self>) -> Result<TensorData, ExecutionError>;
    fn bool_device(tensor: &BoolTensor<Self>) -> Device<Self>;
    #[backend_dispatch(skip)]
    fn bool_to_device(tensor: BoolTensor<Self>, device: &Device<Self>) -> BoolTensor<Self> {
        crate::routing::to_device("bool_to_device", tensor, device)
    }
    fn bool_into_int(tensor: BoolTensor<Self>, dtype: DType) -> IntTensor<Self>;
    fn bool_into_float(tensor: BoolTensor<Self>, dtype: DType) -> FloatTensor<Self>;
    fn bool_reshape(tensor: BoolTensor<Self>, shape: Shape) -> BoolTensor<Self>;
    fn bool_permute(tensor: BoolTensor<Self>, axes: &[usize]) -> BoolTensor<Self>;
    fn bool_swap_dims(tensor: BoolTensor<Self>, dim1: usize, dim2: usize) -> BoolTensor<Self>;
    fn bool_flip(tensor: BoolTensor<Self>, axes: &[usize]) -> BoolTensor<Self>;
    fn bool_expand(tensor: BoolTensor<Self>, shape: Shape) -> BoolTensor<Self>;
    fn bool_slice(tensor: BoolTensor<Self>, slices: &[Slice]) -> BoolTensor<Self>;
    fn bool_slice_assign(
        tensor: BoolTensor<Self>,
        slices: &[Slice],
        value: BoolTensor<Self>,
    ) -> BoolTensor<Self>;
    fn bool_narrow(
        tensor: BoolTensor<Self>,
        dim: usize,
        start: usize,
        length: usize,
    ) -> BoolTensor<Self>;
    fn bool_cat(tensors: Vec<BoolTensor<Self>>, dim: usize) -> BoolTensor<Self>;
    fn bool_repeat_dim(tensor: BoolTensor<Self>, dim: usize, times: usize) -> BoolTensor<Self>;
    fn bool_select(
        tensor: BoolTensor<Self>,
        dim: usize,
        indices: IntTensor<Self>,
    ) -> BoolTensor<Self>;
    fn bool_gather(
        dim: usize,
        tensor: BoolTensor<Self>,
        indices: IntTensor<Self>,
    ) -> BoolTensor<Self>;
    fn bool_mask_where(
        tensor: BoolTensor<Self>,
        mask: BoolTensor<Self>,
        value: BoolTensor<Self>,
    ) -> BoolTensor<Self>;
    fn bool_not(tensor: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_and(lhs: BoolTensor<Self>, rhs: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_or(lhs: BoolTensor<Self>, rhs: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_xor(lhs: BoolTensor<Self>, rhs: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_equal(lhs: BoolTensor<Self>, rhs: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_not_equal(lhs: BoolTensor<Self>, rhs: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_any(tensor: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_any_dim(tensor: BoolTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn bool_all(tensor: BoolTensor<Self>) -> BoolTensor<Self>;
    fn bool_all_dim(tensor: BoolTensor<Self>, dim: usize) -> BoolTensor<Self>;
    fn bool_argwhere(tensor: BoolTensor<Self>) -> IntTensor<Self>;
}
