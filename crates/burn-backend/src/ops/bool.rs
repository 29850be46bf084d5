//! Operations on boolean tensors.

use alloc::vec::Vec;

use burn_std::{DType, Scalar, Shape, Slice, TensorData};

use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, TensorMetadata};

/// Operations on boolean tensors.
pub trait BoolTensorOps<B: Backend> {
    /// A tensor holding `data` (any bool storage is accepted).
    fn bool_from_data(data: TensorData, device: &Device<B>) -> BoolTensor<B>;
    /// A tensor filled with `value`.
    fn bool_full(shape: Shape, value: bool, device: &Device<B>) -> BoolTensor<B>;
    /// All false.
    fn bool_zeros(shape: Shape, device: &Device<B>) -> BoolTensor<B> {
        B::bool_full(shape, false, device)
    }
    /// All true.
    fn bool_ones(shape: Shape, device: &Device<B>) -> BoolTensor<B> {
        B::bool_full(shape, true, device)
    }
    /// Unspecified contents.
    fn bool_empty(shape: Shape, device: &Device<B>) -> BoolTensor<B> {
        B::bool_zeros(shape, device)
    }
    /// Reads the tensor back as `Bool(Native)` data.
    fn bool_into_data(tensor: BoolTensor<B>) -> Result<TensorData, ExecutionError>;
    /// The device holding the tensor.
    fn bool_device(tensor: &BoolTensor<B>) -> Device<B>;
    /// Moves the tensor to another device of the same backend.
    fn bool_to_device(tensor: BoolTensor<B>, device: &Device<B>) -> BoolTensor<B>;
    /// 1 for true, 0 for false, as an int tensor of `dtype`.
    fn bool_into_int(tensor: BoolTensor<B>, dtype: DType) -> IntTensor<B>;
    /// 1.0 for true, 0.0 for false, as a float tensor of `dtype`.
    fn bool_into_float(tensor: BoolTensor<B>, dtype: DType) -> FloatTensor<B>;

    /// Same elements, new shape.
    fn bool_reshape(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
    /// Reorders the dims.
    fn bool_permute(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
    /// Swaps two dims.
    fn bool_swap_dims(tensor: BoolTensor<B>, dim1: usize, dim2: usize) -> BoolTensor<B> {
        let mut axes: Vec<usize> = (0..tensor.rank()).collect();
        axes.swap(dim1, dim2);
        B::bool_permute(tensor, &axes)
    }
    /// Reverses along each of `axes`.
    fn bool_flip(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
    /// Broadcasts to `shape` without copying.
    fn bool_expand(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
    /// Takes a sub-tensor.
    fn bool_slice(tensor: BoolTensor<B>, slices: &[Slice]) -> BoolTensor<B>;
    /// Writes `value` into the selected region.
    fn bool_slice_assign(
        tensor: BoolTensor<B>,
        slices: &[Slice],
        value: BoolTensor<B>,
    ) -> BoolTensor<B>;
    /// `length` elements of `dim` starting at `start`.
    fn bool_narrow(
        tensor: BoolTensor<B>,
        dim: usize,
        start: usize,
        length: usize,
    ) -> BoolTensor<B> {
        let mut slices: Vec<Slice> = (0..dim).map(|_| Slice::full()).collect();
        slices.push(Slice::new(
            start as isize,
            Some((start + length) as isize),
            1,
        ));
        B::bool_slice(tensor, &slices)
    }
    /// Concatenates along `dim`.
    fn bool_cat(tensors: Vec<BoolTensor<B>>, dim: usize) -> BoolTensor<B>;
    /// Repeats the tensor `times` along `dim`.
    fn bool_repeat_dim(tensor: BoolTensor<B>, dim: usize, times: usize) -> BoolTensor<B>;
    /// Picks slices of `dim` by a 1-D index tensor.
    fn bool_select(tensor: BoolTensor<B>, dim: usize, indices: IntTensor<B>) -> BoolTensor<B>;
    /// Gathers along `dim`.
    fn bool_gather(dim: usize, tensor: BoolTensor<B>, indices: IntTensor<B>) -> BoolTensor<B>;
    /// `value` where `mask`, `tensor` elsewhere.
    fn bool_mask_where(
        tensor: BoolTensor<B>,
        mask: BoolTensor<B>,
        value: BoolTensor<B>,
    ) -> BoolTensor<B>;

    /// Logical not.
    fn bool_not(tensor: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical and.
    fn bool_and(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical or.
    fn bool_or(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical xor.
    fn bool_xor(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not_equal(lhs, rhs)
    }
    /// `lhs == rhs`.
    fn bool_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
    /// `lhs != rhs`.
    fn bool_not_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::bool_equal(lhs, rhs))
    }

    /// Whether any element is true, shape `[1]`.
    fn bool_any(tensor: BoolTensor<B>) -> BoolTensor<B> {
        let count = B::int_sum(B::bool_into_int(tensor, DType::I64));
        B::int_greater_elem(count, Scalar::Int(0))
    }
    /// Whether any element along `dim` is true.
    fn bool_any_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B> {
        let count = B::int_sum_dim(B::bool_into_int(tensor, DType::I64), dim);
        B::int_greater_elem(count, Scalar::Int(0))
    }
    /// Whether every element is true, shape `[1]` (true when empty).
    fn bool_all(tensor: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::bool_any(B::bool_not(tensor)))
    }
    /// Whether every element along `dim` is true.
    fn bool_all_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_not(B::bool_any_dim(B::bool_not(tensor), dim))
    }
    /// The coordinates of true elements, shape `[count, rank]`, in row-major order.
    fn bool_argwhere(tensor: BoolTensor<B>) -> IntTensor<B>;
}
