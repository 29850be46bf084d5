//! Operations on integer tensors.

use alloc::vec::Vec;
use core::ops::Range;

use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, TensorMetadata};

/// Operations on integer tensors (i64, i32, i16, i8, u64, u32, u16, u8).
///
/// Arithmetic wraps on overflow, as two's-complement hardware does. Integer
/// division rounds toward negative infinity and the remainder takes the sign
/// of the divisor, as PyTorch's `floor_divide` and `remainder` do. Division by
/// zero panics with the op's name.
pub trait IntTensorOps<B: Backend> {
    // ---------------------------------------------------------------- creation

    /// A tensor holding `data`, keeping its integer dtype.
    fn int_from_data(data: TensorData, device: &Device<B>) -> IntTensor<B>;
    /// A tensor of `dtype` sampled from `distribution` (values truncated toward zero).
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<B>,
        dtype: DType,
    ) -> IntTensor<B>;
    /// A tensor of `dtype` filled with `value`.
    fn int_full(shape: Shape, value: Scalar, device: &Device<B>, dtype: DType) -> IntTensor<B>;
    /// A tensor of zeros.
    fn int_zeros(shape: Shape, device: &Device<B>, dtype: DType) -> IntTensor<B> {
        B::int_full(shape, Scalar::Int(0), device, dtype)
    }
    /// A tensor of ones.
    fn int_ones(shape: Shape, device: &Device<B>, dtype: DType) -> IntTensor<B> {
        B::int_full(shape, Scalar::Int(1), device, dtype)
    }
    /// A tensor whose contents are unspecified.
    fn int_empty(shape: Shape, device: &Device<B>, dtype: DType) -> IntTensor<B> {
        B::int_zeros(shape, device, dtype)
    }
    /// `range.start, range.start + 1, …, range.end - 1`.
    fn int_arange(range: Range<i64>, device: &Device<B>, dtype: DType) -> IntTensor<B>;
    /// `range` with a step (`step > 0`).
    fn int_arange_step(
        range: Range<i64>,
        step: usize,
        device: &Device<B>,
        dtype: DType,
    ) -> IntTensor<B> {
        assert!(step > 0, "int_arange_step: step must be positive");
        let n = if range.end > range.start {
            ((range.end - range.start) as u64).div_ceil(step as u64) as i64
        } else {
            0
        };
        let base = B::int_arange(0..n, device, dtype);
        B::int_add_scalar(
            B::int_mul_scalar(base, Scalar::Int(step as i64)),
            Scalar::Int(range.start),
        )
    }

    // ------------------------------------------------------------ data, device

    /// Reads the tensor back as contiguous little-endian data.
    fn int_into_data(tensor: IntTensor<B>) -> Result<TensorData, ExecutionError>;
    /// The device holding the tensor.
    fn int_device(tensor: &IntTensor<B>) -> Device<B>;
    /// Moves the tensor to another device of the same backend.
    fn int_to_device(tensor: IntTensor<B>, device: &Device<B>) -> IntTensor<B>;
    /// Converts to a float tensor of `dtype`.
    fn int_into_float(tensor: IntTensor<B>, dtype: DType) -> FloatTensor<B>;
    /// Converts to another integer dtype (wrapping, as Rust's `as`).
    fn int_cast(tensor: IntTensor<B>, dtype: DType) -> IntTensor<B>;

    // -------------------------------------------------------------- shape ops

    /// Same elements, new shape.
    fn int_reshape(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
    /// Reorders the dims.
    fn int_permute(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
    /// Swaps two dims.
    fn int_swap_dims(tensor: IntTensor<B>, dim1: usize, dim2: usize) -> IntTensor<B> {
        let mut axes: Vec<usize> = (0..tensor.rank()).collect();
        axes.swap(dim1, dim2);
        B::int_permute(tensor, &axes)
    }
    /// Reverses along each of `axes`.
    fn int_flip(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
    /// Broadcasts to `shape` without copying.
    fn int_expand(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
    /// Takes a sub-tensor.
    fn int_slice(tensor: IntTensor<B>, slices: &[Slice]) -> IntTensor<B>;
    /// Writes `value` into the selected region.
    fn int_slice_assign(
        tensor: IntTensor<B>,
        slices: &[Slice],
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// `length` elements of `dim` starting at `start`.
    fn int_narrow(tensor: IntTensor<B>, dim: usize, start: usize, length: usize) -> IntTensor<B> {
        let mut slices: Vec<Slice> = (0..dim).map(|_| Slice::full()).collect();
        slices.push(Slice::new(
            start as isize,
            Some((start + length) as isize),
            1,
        ));
        B::int_slice(tensor, &slices)
    }
    /// Concatenates along `dim`.
    fn int_cat(tensors: Vec<IntTensor<B>>, dim: usize) -> IntTensor<B>;
    /// Repeats the tensor `times` along `dim`.
    fn int_repeat_dim(tensor: IntTensor<B>, dim: usize, times: usize) -> IntTensor<B>;

    // ---------------------------------------------------------------- indexing

    /// Gathers along `dim`.
    fn int_gather(dim: usize, tensor: IntTensor<B>, indices: IntTensor<B>) -> IntTensor<B>;
    /// Scatters with addition along `dim`.
    fn int_scatter_add(
        dim: usize,
        tensor: IntTensor<B>,
        indices: IntTensor<B>,
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// Picks slices of `dim` by a 1-D index tensor.
    fn int_select(tensor: IntTensor<B>, dim: usize, indices: IntTensor<B>) -> IntTensor<B>;
    /// Adds `value`'s slices into the slices of `dim` named by `indices`.
    fn int_select_add(
        tensor: IntTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// `value` where `mask`, `tensor` elsewhere.
    fn int_mask_where(
        tensor: IntTensor<B>,
        mask: BoolTensor<B>,
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// `value` where `mask`, `tensor` elsewhere.
    fn int_mask_fill(tensor: IntTensor<B>, mask: BoolTensor<B>, value: Scalar) -> IntTensor<B>;

    // -------------------------------------------------------------- arithmetic

    /// `lhs + rhs`.
    fn int_add(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs + rhs`.
    fn int_add_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs - rhs`.
    fn int_sub(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs - rhs`.
    fn int_sub_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs * rhs`.
    fn int_mul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs * rhs`.
    fn int_mul_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// Floor division.
    fn int_div(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Floor division.
    fn int_div_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// Remainder with the sign of the divisor.
    fn int_remainder(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Remainder with the sign of the divisor.
    fn int_remainder_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs ^ rhs` element-wise (negative exponents give 0 except for bases ±1).
    fn int_powi(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs ^ rhs` with a float exponent, computed in f64 and truncated back.
    fn int_powf(lhs: IntTensor<B>, rhs: FloatTensor<B>) -> IntTensor<B> {
        let dtype = lhs.dtype();
        let float = B::int_into_float(lhs, DType::F64);
        let rhs = B::float_cast(rhs, DType::F64);
        B::float_into_int(B::float_powf(float, rhs), dtype)
    }
    /// `lhs ^ rhs` with a scalar exponent.
    fn int_powf_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B> {
        let dtype = lhs.dtype();
        let float = B::int_into_float(lhs, DType::F64);
        B::float_into_int(B::float_powf_scalar(float, rhs), dtype)
    }
    /// Integer matrix product over the last two dims.
    fn int_matmul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `-x` (wrapping).
    fn int_neg(tensor: IntTensor<B>) -> IntTensor<B> {
        B::int_mul_scalar(tensor, Scalar::Int(-1))
    }
    /// `|x|`.
    fn int_abs(tensor: IntTensor<B>) -> IntTensor<B>;
    /// -1, 0 or 1 by sign.
    fn int_sign(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Values below `min` become `min`.
    fn int_clamp_min(tensor: IntTensor<B>, min: Scalar) -> IntTensor<B>;
    /// Values above `max` become `max`.
    fn int_clamp_max(tensor: IntTensor<B>, max: Scalar) -> IntTensor<B>;
    /// Clamps into `[min, max]`.
    fn int_clamp(tensor: IntTensor<B>, min: Scalar, max: Scalar) -> IntTensor<B> {
        B::int_clamp_max(B::int_clamp_min(tensor, min), max)
    }
    /// Element-wise maximum.
    fn int_max_pair(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B> {
        let mask = B::int_lower(lhs.clone(), rhs.clone());
        B::int_mask_where(lhs, mask, rhs)
    }
    /// Element-wise minimum.
    fn int_min_pair(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B> {
        let mask = B::int_greater(lhs.clone(), rhs.clone());
        B::int_mask_where(lhs, mask, rhs)
    }

    // ---------------------------------------------------------------- bitwise

    /// Bitwise and.
    fn bitwise_and(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Bitwise and with a scalar.
    fn bitwise_and_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// Bitwise or.
    fn bitwise_or(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Bitwise or with a scalar.
    fn bitwise_or_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// Bitwise xor.
    fn bitwise_xor(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Bitwise xor with a scalar.
    fn bitwise_xor_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// Bitwise not.
    fn bitwise_not(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Left shift (shift amounts past the width give 0).
    fn bitwise_left_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Right shift (arithmetic for signed dtypes).
    fn bitwise_right_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;

    // ------------------------------------------------------------ comparisons

    /// `lhs == rhs`.
    fn int_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs != rhs`.
    fn int_not_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::int_equal(lhs, rhs))
    }
    /// `lhs > rhs`.
    fn int_greater(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn int_greater_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn int_lower(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn int_lower_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs == rhs`.
    fn int_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs != rhs`.
    fn int_not_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B> {
        B::bool_not(B::int_equal_elem(lhs, rhs))
    }
    /// `lhs > rhs`.
    fn int_greater_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn int_greater_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn int_lower_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn int_lower_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;

    // ------------------------------------------------------------- reductions

    /// Sum of all elements, shape `[1]` (wrapping).
    fn int_sum(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Sum along `dim`.
    fn int_sum_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Mean of all elements, floor-divided, shape `[1]`.
    fn int_mean(tensor: IntTensor<B>) -> IntTensor<B> {
        let n = tensor.shape().num_elements();
        B::int_div_scalar(B::int_sum(tensor), Scalar::Int(n as i64))
    }
    /// Mean along `dim`, floor-divided.
    fn int_mean_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B> {
        let n = tensor.shape().dims[dim];
        B::int_div_scalar(B::int_sum_dim(tensor, dim), Scalar::Int(n as i64))
    }
    /// Product of all elements, shape `[1]`.
    fn int_prod(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Product along `dim`.
    fn int_prod_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Largest element, shape `[1]`.
    fn int_max(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Largest element along `dim`.
    fn int_max_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Smallest element, shape `[1]`.
    fn int_min(tensor: IntTensor<B>) -> IntTensor<B>;
    /// Smallest element along `dim`.
    fn int_min_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Index of the largest element along `dim`.
    fn int_argmax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Index of the smallest element along `dim`.
    fn int_argmin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Largest element along `dim` and its index.
    fn int_max_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>) {
        let index = B::int_argmax(tensor.clone(), dim);
        (B::int_gather(dim, tensor, index.clone()), index)
    }
    /// Smallest element along `dim` and its index.
    fn int_min_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>) {
        let index = B::int_argmin(tensor.clone(), dim);
        (B::int_gather(dim, tensor, index.clone()), index)
    }
    /// Whether any element is non-zero, shape `[1]`.
    fn int_any(tensor: IntTensor<B>) -> BoolTensor<B> {
        B::bool_any(B::int_not_equal_elem(tensor, Scalar::Int(0)))
    }
    /// Whether any element along `dim` is non-zero.
    fn int_any_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_any_dim(B::int_not_equal_elem(tensor, Scalar::Int(0)), dim)
    }
    /// Whether every element is non-zero, shape `[1]`.
    fn int_all(tensor: IntTensor<B>) -> BoolTensor<B> {
        B::bool_all(B::int_not_equal_elem(tensor, Scalar::Int(0)))
    }
    /// Whether every element along `dim` is non-zero.
    fn int_all_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_all_dim(B::int_not_equal_elem(tensor, Scalar::Int(0)), dim)
    }

    // ------------------------------------------------------------ cumulative

    /// Running sum along `dim`.
    fn int_cumsum(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running product along `dim`.
    fn int_cumprod(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running minimum along `dim`.
    fn int_cummin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running maximum along `dim`.
    fn int_cummax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;

    // ------------------------------------------------------------------ sort

    /// Sorts along `dim` (stable).
    fn int_sort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        B::int_sort_with_indices(tensor, dim, descending).0
    }
    /// Sorted values and their source indices.
    fn int_sort_with_indices(
        tensor: IntTensor<B>,
        dim: usize,
        descending: bool,
    ) -> (IntTensor<B>, IntTensor<B>);
    /// The indices that sort `dim`.
    fn int_argsort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        B::int_sort_with_indices(tensor, dim, descending).1
    }
    /// The `k` largest values along `dim`, descending, with their indices.
    fn int_topk_with_indices(
        tensor: IntTensor<B>,
        dim: usize,
        k: usize,
    ) -> (IntTensor<B>, IntTensor<B>) {
        let (values, indices) = B::int_sort_with_indices(tensor, dim, true);
        (
            B::int_narrow(values, dim, 0, k),
            B::int_narrow(indices, dim, 0, k),
        )
    }

    // ------------------------------------------------------------- triangles

    /// Keeps elements on and below the diagonal of the last two dims.
    fn int_tril(tensor: IntTensor<B>, diagonal: i64) -> IntTensor<B> {
        let mask = triangle_mask::<B>(&tensor.shape(), &B::int_device(&tensor), diagonal, true);
        B::int_mask_fill(tensor, mask, Scalar::Int(0))
    }
    /// Keeps elements on and above the diagonal of the last two dims.
    fn int_triu(tensor: IntTensor<B>, diagonal: i64) -> IntTensor<B> {
        let mask = triangle_mask::<B>(&tensor.shape(), &B::int_device(&tensor), diagonal, false);
        B::int_mask_fill(tensor, mask, Scalar::Int(0))
    }
}

/// The mask of elements to zero for `tril` (`lower`) or `triu` of a tensor of
/// `shape`: shape `[1, …, 1, rows, cols]`, true where `col - row` lies beyond
/// `diagonal`.
#[track_caller]
pub(crate) fn triangle_mask<B: Backend>(
    shape: &Shape,
    device: &Device<B>,
    diagonal: i64,
    lower: bool,
) -> BoolTensor<B> {
    let rank = shape.num_dims();
    let op = if lower { "tril" } else { "triu" };
    assert!(rank >= 2, "{op}: needs at least 2 dims, got shape {shape}");
    let rows = super::positions::<B>(shape.dims[rank - 2], rank - 2, rank, device);
    let cols = super::positions::<B>(shape.dims[rank - 1], rank - 1, rank, device);
    let offset = B::int_sub(cols, rows);
    if lower {
        B::int_greater_elem(offset, Scalar::Int(diagonal))
    } else {
        B::int_lower_elem(offset, Scalar::Int(diagonal))
    }
}
