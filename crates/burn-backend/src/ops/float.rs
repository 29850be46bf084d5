//! Operations on float tensors.

use alloc::vec::Vec;
use core::ops::Range;

use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use crate::{Backend, BoolTensor, Device, ExecutionError, FloatTensor, IntTensor, TensorMetadata};

/// Operations on float tensors (f64, f32, f16, bf16).
///
/// Binary ops broadcast their operands NumPy-style; both operands share a
/// dtype (the tensor API casts). Reductions over a dim keep that dim with
/// size 1. Whole-tensor reductions return a tensor of shape `[1]`.
pub trait FloatTensorOps<B: Backend> {
    // ---------------------------------------------------------------- creation

    /// A tensor holding `data`, keeping its float dtype.
    fn float_from_data(data: TensorData, device: &Device<B>) -> FloatTensor<B>;
    /// A tensor of `dtype` filled from `distribution` with the device's generator.
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<B>,
        dtype: DType,
    ) -> FloatTensor<B>;
    /// A tensor of `dtype` filled with `value`.
    fn float_full(shape: Shape, value: Scalar, device: &Device<B>, dtype: DType) -> FloatTensor<B>;
    /// A tensor of zeros.
    fn float_zeros(shape: Shape, device: &Device<B>, dtype: DType) -> FloatTensor<B> {
        B::float_full(shape, Scalar::Float(0.0), device, dtype)
    }
    /// A tensor of ones.
    fn float_ones(shape: Shape, device: &Device<B>, dtype: DType) -> FloatTensor<B> {
        B::float_full(shape, Scalar::Float(1.0), device, dtype)
    }
    /// A tensor whose contents are unspecified (a backend may skip initialisation).
    fn float_empty(shape: Shape, device: &Device<B>, dtype: DType) -> FloatTensor<B> {
        B::float_zeros(shape, device, dtype)
    }
    /// A float tensor holding `range` as consecutive values.
    fn float_arange(range: Range<i64>, device: &Device<B>, dtype: DType) -> FloatTensor<B> {
        B::int_into_float(B::int_arange(range, device, DType::I64), dtype)
    }

    // ------------------------------------------------------------ data, device

    /// Reads the tensor back as contiguous little-endian data.
    fn float_into_data(tensor: FloatTensor<B>) -> Result<TensorData, ExecutionError>;
    /// The device holding the tensor.
    fn float_device(tensor: &FloatTensor<B>) -> Device<B>;
    /// Moves the tensor to another device of the same backend.
    fn float_to_device(tensor: FloatTensor<B>, device: &Device<B>) -> FloatTensor<B>;
    /// Converts to an int tensor of `dtype`, truncating toward zero.
    fn float_into_int(tensor: FloatTensor<B>, dtype: DType) -> IntTensor<B>;
    /// Converts to another float dtype.
    fn float_cast(tensor: FloatTensor<B>, dtype: DType) -> FloatTensor<B>;

    // -------------------------------------------------------------- shape ops

    /// Same elements, new shape (a view when the layout allows).
    fn float_reshape(tensor: FloatTensor<B>, shape: Shape) -> FloatTensor<B>;
    /// Reorders the dims: output dim `i` is input dim `axes[i]`.
    fn float_permute(tensor: FloatTensor<B>, axes: &[usize]) -> FloatTensor<B>;
    /// Swaps two dims.
    fn float_swap_dims(tensor: FloatTensor<B>, dim1: usize, dim2: usize) -> FloatTensor<B> {
        let mut axes: Vec<usize> = (0..tensor.rank()).collect();
        axes.swap(dim1, dim2);
        B::float_permute(tensor, &axes)
    }
    /// Reverses the order of elements along each of `axes`.
    fn float_flip(tensor: FloatTensor<B>, axes: &[usize]) -> FloatTensor<B>;
    /// Broadcasts size-1 dims (and new leading dims) to `shape` without copying.
    fn float_expand(tensor: FloatTensor<B>, shape: Shape) -> FloatTensor<B>;
    /// Takes a sub-tensor; one [`Slice`] per leading dim, the rest taken whole.
    fn float_slice(tensor: FloatTensor<B>, slices: &[Slice]) -> FloatTensor<B>;
    /// Writes `value` into the region selected by `slices`.
    fn float_slice_assign(
        tensor: FloatTensor<B>,
        slices: &[Slice],
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// `length` elements of `dim` starting at `start`.
    fn float_narrow(
        tensor: FloatTensor<B>,
        dim: usize,
        start: usize,
        length: usize,
    ) -> FloatTensor<B> {
        let mut slices: Vec<Slice> = (0..dim).map(|_| Slice::full()).collect();
        slices.push(Slice::new(
            start as isize,
            Some((start + length) as isize),
            1,
        ));
        B::float_slice(tensor, &slices)
    }
    /// Concatenates along `dim`.
    fn float_cat(tensors: Vec<FloatTensor<B>>, dim: usize) -> FloatTensor<B>;
    /// Repeats the whole tensor `times` along `dim`.
    fn float_repeat_dim(tensor: FloatTensor<B>, dim: usize, times: usize) -> FloatTensor<B>;

    // ---------------------------------------------------------------- indexing

    /// `out[..i..] = tensor[..indices[..i..]..]` along `dim`; `indices` has the output's shape.
    fn float_gather(dim: usize, tensor: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B>;
    /// `tensor[..indices[..i..]..] += value[..i..]` along `dim`.
    fn float_scatter_add(
        dim: usize,
        tensor: FloatTensor<B>,
        indices: IntTensor<B>,
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// Picks whole slices of `dim` by a 1-D index tensor.
    fn float_select(tensor: FloatTensor<B>, dim: usize, indices: IntTensor<B>) -> FloatTensor<B>;
    /// Adds `value`'s slices into the slices of `dim` named by `indices`.
    fn float_select_add(
        tensor: FloatTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// `value` where `mask` is true, `tensor` elsewhere (all three broadcast).
    fn float_mask_where(
        tensor: FloatTensor<B>,
        mask: BoolTensor<B>,
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// `value` where `mask` is true, `tensor` elsewhere (mask broadcasts to the tensor).
    fn float_mask_fill(
        tensor: FloatTensor<B>,
        mask: BoolTensor<B>,
        value: Scalar,
    ) -> FloatTensor<B>;

    // -------------------------------------------------------------- arithmetic

    /// `lhs + rhs`.
    fn float_add(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs + rhs`.
    fn float_add_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs - rhs`.
    fn float_sub(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs - rhs`.
    fn float_sub_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs * rhs`.
    fn float_mul(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs * rhs`.
    fn float_mul_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs / rhs`.
    fn float_div(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs / rhs`.
    fn float_div_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// Remainder with the sign of the divisor (Python's `%`, PyTorch's `remainder`).
    fn float_remainder(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// Remainder with the sign of the divisor.
    fn float_remainder_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs ^ rhs` element-wise.
    fn float_powf(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs ^ rhs`.
    fn float_powf_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs ^ rhs` with integer exponents.
    fn float_powi(lhs: FloatTensor<B>, rhs: IntTensor<B>) -> FloatTensor<B> {
        let dtype = lhs.dtype();
        B::float_powf(lhs, B::int_into_float(rhs, dtype))
    }
    /// `lhs ^ rhs` with an integer exponent.
    fn float_powi_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B> {
        B::float_powf_scalar(lhs, Scalar::Float(rhs.to_f64()))
    }
    /// Four-quadrant arctangent of `lhs / rhs`.
    fn float_atan2(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// Element-wise maximum of two tensors (NaN propagates).
    fn float_max_pair(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_lower(lhs.clone(), rhs.clone());
        B::float_mask_where(lhs, mask, rhs)
    }
    /// Element-wise minimum of two tensors.
    fn float_min_pair(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_greater(lhs.clone(), rhs.clone());
        B::float_mask_where(lhs, mask, rhs)
    }
    /// Matrix product over the last two dims, batch dims broadcast.
    fn float_matmul(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// Values below `min` become `min`.
    fn float_clamp_min(tensor: FloatTensor<B>, min: Scalar) -> FloatTensor<B>;
    /// Values above `max` become `max`.
    fn float_clamp_max(tensor: FloatTensor<B>, max: Scalar) -> FloatTensor<B>;
    /// Clamps into `[min, max]`.
    fn float_clamp(tensor: FloatTensor<B>, min: Scalar, max: Scalar) -> FloatTensor<B> {
        B::float_clamp_max(B::float_clamp_min(tensor, min), max)
    }

    // ------------------------------------------------------------------ unary

    /// `-x`.
    fn float_neg(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `1 / x`.
    fn float_recip(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `|x|`.
    fn float_abs(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `e^x`.
    fn float_exp(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Natural logarithm.
    fn float_log(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `ln(1 + x)`, accurate near zero.
    fn float_log1p(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Square root.
    fn float_sqrt(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Sine.
    fn float_sin(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Cosine.
    fn float_cos(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Tangent.
    fn float_tan(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Hyperbolic sine.
    fn float_sinh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Hyperbolic cosine.
    fn float_cosh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Hyperbolic tangent.
    fn float_tanh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse sine.
    fn float_asin(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse cosine.
    fn float_acos(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse tangent.
    fn float_atan(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse hyperbolic sine.
    fn float_asinh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse hyperbolic cosine.
    fn float_acosh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Inverse hyperbolic tangent.
    fn float_atanh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// The error function.
    fn float_erf(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Rounds half to even, as PyTorch does.
    fn float_round(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Rounds down.
    fn float_floor(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Rounds up.
    fn float_ceil(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Rounds toward zero.
    fn float_trunc(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// -1, 0 or 1 by sign (NaN stays NaN).
    fn float_sign(tensor: FloatTensor<B>) -> FloatTensor<B>;

    // ------------------------------------------------------------ comparisons

    /// `lhs == rhs`.
    fn float_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs != rhs`.
    fn float_not_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::float_equal(lhs, rhs))
    }
    /// `lhs > rhs`.
    fn float_greater(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn float_greater_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn float_lower(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn float_lower_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs == rhs`.
    fn float_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs != rhs`.
    fn float_not_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B> {
        B::bool_not(B::float_equal_elem(lhs, rhs))
    }
    /// `lhs > rhs`.
    fn float_greater_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn float_greater_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn float_lower_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn float_lower_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// Whether each element is NaN.
    fn float_is_nan(tensor: FloatTensor<B>) -> BoolTensor<B> {
        // NaN is the one value unequal to itself.
        B::float_not_equal(tensor.clone(), tensor)
    }
    /// Whether each element is +inf or -inf.
    fn float_is_inf(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::float_equal_elem(B::float_abs(tensor), Scalar::Float(f64::INFINITY))
    }

    // ------------------------------------------------------------- reductions

    /// Sum of all elements, shape `[1]`.
    fn float_sum(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Sum along `dim`, kept with size 1.
    fn float_sum_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Mean of all elements, shape `[1]`.
    fn float_mean(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let n = tensor.shape().num_elements();
        B::float_div_scalar(B::float_sum(tensor), Scalar::Float(n as f64))
    }
    /// Mean along `dim`, kept with size 1.
    fn float_mean_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        let n = tensor.shape().dims[dim];
        B::float_div_scalar(B::float_sum_dim(tensor, dim), Scalar::Float(n as f64))
    }
    /// Product of all elements, shape `[1]`.
    fn float_prod(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Product along `dim`, kept with size 1.
    fn float_prod_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Largest element, shape `[1]` (NaN propagates).
    fn float_max(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Largest element along `dim`.
    fn float_max_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Smallest element, shape `[1]`.
    fn float_min(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Smallest element along `dim`.
    fn float_min_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Index of the largest element along `dim` (first one on ties).
    fn float_argmax(tensor: FloatTensor<B>, dim: usize) -> IntTensor<B>;
    /// Index of the smallest element along `dim` (first one on ties).
    fn float_argmin(tensor: FloatTensor<B>, dim: usize) -> IntTensor<B>;
    /// Largest element along `dim` and its index.
    fn float_max_dim_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let index = B::float_argmax(tensor.clone(), dim);
        let values = B::float_gather(dim, tensor, index.clone());
        (values, index)
    }
    /// Smallest element along `dim` and its index.
    fn float_min_dim_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let index = B::float_argmin(tensor.clone(), dim);
        let values = B::float_gather(dim, tensor, index.clone());
        (values, index)
    }
    /// Largest absolute value, shape `[1]`.
    fn float_max_abs(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_max(B::float_abs(tensor))
    }
    /// Whether any element is non-zero, shape `[1]`.
    fn float_any(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_any(B::float_not_equal_elem(tensor, Scalar::Float(0.0)))
    }
    /// Whether any element along `dim` is non-zero.
    fn float_any_dim(tensor: FloatTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_any_dim(B::float_not_equal_elem(tensor, Scalar::Float(0.0)), dim)
    }
    /// Whether every element is non-zero, shape `[1]`.
    fn float_all(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_all(B::float_not_equal_elem(tensor, Scalar::Float(0.0)))
    }
    /// Whether every element along `dim` is non-zero.
    fn float_all_dim(tensor: FloatTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_all_dim(B::float_not_equal_elem(tensor, Scalar::Float(0.0)), dim)
    }

    // ------------------------------------------------------------ cumulative

    /// Running sum along `dim`.
    fn float_cumsum(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running product along `dim`.
    fn float_cumprod(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running minimum along `dim`.
    fn float_cummin(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running maximum along `dim`.
    fn float_cummax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;

    // ------------------------------------------------------------------ sort

    /// Sorts along `dim` (stable; NaN sorts last ascending, first descending).
    fn float_sort(tensor: FloatTensor<B>, dim: usize, descending: bool) -> FloatTensor<B> {
        B::float_sort_with_indices(tensor, dim, descending).0
    }
    /// Sorted values along `dim` and the indices they came from.
    fn float_sort_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
        descending: bool,
    ) -> (FloatTensor<B>, IntTensor<B>);
    /// The indices that sort `dim`.
    fn float_argsort(tensor: FloatTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        B::float_sort_with_indices(tensor, dim, descending).1
    }
    /// The `k` largest values along `dim`, in descending order, with their indices.
    fn float_topk_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
        k: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let (values, indices) = B::float_sort_with_indices(tensor, dim, true);
        (
            B::float_narrow(values, dim, 0, k),
            B::int_narrow(indices, dim, 0, k),
        )
    }

    // ------------------------------------------------------------- triangles

    /// Keeps elements on and below diagonal `diagonal` of the last two dims, zeros the rest.
    fn float_tril(tensor: FloatTensor<B>, diagonal: i64) -> FloatTensor<B> {
        let mask = crate::ops::int::triangle_mask::<B>(
            &tensor.shape(),
            &B::float_device(&tensor),
            diagonal,
            true,
        );
        B::float_mask_fill(tensor, mask, Scalar::Float(0.0))
    }
    /// Keeps elements on and above diagonal `diagonal` of the last two dims, zeros the rest.
    fn float_triu(tensor: FloatTensor<B>, diagonal: i64) -> FloatTensor<B> {
        let mask = crate::ops::int::triangle_mask::<B>(
            &tensor.shape(),
            &B::float_device(&tensor),
            diagonal,
            false,
        );
        B::float_mask_fill(tensor, mask, Scalar::Float(0.0))
    }

    // --------------------------------------------------------- autodiff hooks

    /// A tensor cut from the graph (identity outside autodiff).
    fn float_detach(tensor: FloatTensor<B>) -> FloatTensor<B> {
        tensor
    }
    /// Marks the tensor as a leaf that wants its gradient (no-op outside autodiff).
    fn float_set_require_grad(tensor: FloatTensor<B>, _require_grad: bool) -> FloatTensor<B> {
        tensor
    }
    /// Whether the tensor wants its gradient.
    fn float_is_require_grad(_tensor: &FloatTensor<B>) -> bool {
        false
    }
}
