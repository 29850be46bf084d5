//! The kernel interface of a backend whose float, int and bool tensors
//! share one primitive, with the dtype a run-time value (Flex's
//! `FlexTensor`, CubeCL's `CubeTensor`).
//!
//! Such a backend needs one kernel per op family, not one per trait
//! method: `float_add`, `int_add` and `float_add_scalar` are all
//! `binary(BinaryOp::Add, ..)` (or its scalar form) on the same primitive.
//! So it implements the traits below, one per family as its kernel files
//! are laid out, and gets [`FloatTensorOps`](crate::FloatTensorOps),
//! [`IntTensorOps`](crate::IntTensorOps), [`BoolTensorOps`](crate::BoolTensorOps)
//! and [`ModuleOps`](crate::ModuleOps) from the adapters of this module,
//! written once (`float.rs`, `int.rs`, `bool.rs`, `module.rs`): each trait
//! method is one line mapping onto a kernel, after the dtype checks of the
//! contract.
//!
//! | trait | kernels |
//! |---|---|
//! | [`DeviceKernels`] | the primitive, its bool dtype, data in and out, devices |
//! | [`CreationKernels`] | full, random, arange, cast |
//! | [`ShapeKernels`] | reshape, permute, flip, expand, slice, slice_assign, cat, repeat_dim |
//! | [`IndexKernels`] | gather, scatter_add, select, select_add, mask_where, mask_fill, argwhere |
//! | [`BinaryKernels`] | arithmetic, bitwise, comparisons, bool logic (tensor and scalar) |
//! | [`UnaryKernels`] | float and int functions, logical not |
//! | [`MatmulKernels`] | matmul |
//! | [`ReduceKernels`] | reductions, argmax/argmin, cumulative scans |
//! | [`SortKernels`] | stable sort with indices |
//! | [`ConvKernels`] | 3-d convolution, its weight gradient, 3-d transposed convolution |
//! | [`PoolKernels`] | 2-d max, average and adaptive average pooling and their gradients |
//! | [`InterpolateKernels`] | 2-d interpolation and its gradient |
//!
//! [`Kernels`] names them all (`impl Kernels for MyBackend {}`). What a
//! backend still writes itself is what really differs: [`DeviceKernels`]
//! (its device handling), the
//! [`Backend`](crate::Backend) impl, its [`ActivationOps`](crate::ActivationOps)
//! overrides and [`TransactionOps`](crate::TransactionOps).
//!
//! Ops come as vocabulary values ([`BinaryOp`], [`CmpOp`], …), split by the
//! dtypes they apply to: a kernel that takes [`BinaryOp`] must compute every
//! variant for float and int dtypes, [`FloatBinaryOp`] is only ever asked
//! of float tensors and [`BitwiseOp`] of int ones, so a kernel's `match`
//! needs no arm for an op it cannot compute.
//!
//! Design notes:
//! - The adapters are blanket impls (`impl<K: Kernels + Backend>
//!   FloatTensorOps<K> for K`). Coherence accepts them beside the impls of
//!   the decorators (`Autodiff<B, C>`, `Dispatch`): those types are local to
//!   their crates, which implement no kernel trait for them.
//! - The family traits carry the kernel bodies themselves (each backend
//!   implements `ShapeKernels` in its `ops/shape.rs`, …), so there is no
//!   forwarding layer to write, per backend, a second time.
//! - Kernels are not generic: a trait method is a plain function of the
//!   backend crate, and the adapters' one-line generic methods are all a
//!   caller crate instantiates.
//!
//! Conventions: operands of a binary kernel share a dtype and broadcast
//! NumPy-style; a reduction along a dim keeps it with size 1; a whole-tensor
//! reduction gives shape `[1]`; index tensors hold any int dtype.

mod bool;
mod float;
mod int;
mod module;
mod qtensor;

use alloc::vec::Vec;
use core::ops::Range;

use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use crate::ops::{
    ArgReduceOp, BinaryOp, BitwiseOp, BoolOp, CmpOp, ConvOptions, ConvTransposeOptions, CumOp,
    FloatBinaryOp, FloatUnaryOp, IntUnaryOp, InterpolateOptions, PoolWindow, ReduceOp,
};
use crate::{BackendTypes, ExecutionError, TensorMetadata};

/// The shared primitive and the device of a kernel backend: every kernel
/// takes and returns [`Tensor`](DeviceKernels::Tensor)s, the backend's
/// float, int and bool primitive alike.
pub trait DeviceKernels:
    BackendTypes<
        FloatTensorPrimitive = <Self as DeviceKernels>::Tensor,
        IntTensorPrimitive = <Self as DeviceKernels>::Tensor,
        BoolTensorPrimitive = <Self as DeviceKernels>::Tensor,
        QuantizedTensorPrimitive = <Self as DeviceKernels>::Tensor,
    >
{
    /// The one primitive of every tensor kind.
    type Tensor: TensorMetadata;
    /// The dtype bool tensors are stored as.
    const BOOL: DType;

    /// A tensor holding `data` on `device`, in the dtype of `data`.
    fn from_data(data: TensorData, device: &Self::Device) -> Self::Tensor;
    /// Reads the tensor back as contiguous data of its dtype.
    fn into_data(tensor: Self::Tensor) -> Result<TensorData, ExecutionError>;
    /// The device holding the tensor.
    fn device(tensor: &Self::Tensor) -> Self::Device;
    /// The tensor on `device`.
    fn to_device(tensor: Self::Tensor, device: &Self::Device) -> Self::Tensor;
}

/// Creation and dtype conversion.
pub trait CreationKernels: DeviceKernels {
    /// A tensor of `dtype` (any dtype, bool included) filled with `value`.
    fn full(shape: Shape, value: Scalar, device: &Self::Device, dtype: DType) -> Self::Tensor;
    /// A tensor of `dtype` sampled from `distribution` with the backend's
    /// generator.
    fn random(
        shape: Shape,
        distribution: Distribution,
        device: &Self::Device,
        dtype: DType,
    ) -> Self::Tensor;
    /// `range` as consecutive values of `dtype`.
    fn arange(range: Range<i64>, device: &Self::Device, dtype: DType) -> Self::Tensor;
    /// Converts between any two dtypes: float to int truncates toward
    /// zero, anything to bool is `!= 0`, bool to numeric is 0 or 1.
    fn cast(tensor: Self::Tensor, dtype: DType) -> Self::Tensor;
}

/// Layout ops, for every dtype.
pub trait ShapeKernels: DeviceKernels {
    /// Same elements, new shape.
    fn reshape(tensor: Self::Tensor, shape: Shape) -> Self::Tensor;
    /// Output dim `i` is input dim `axes[i]`.
    fn permute(tensor: Self::Tensor, axes: &[usize]) -> Self::Tensor;
    /// Reverses the order of elements along each of `axes`.
    fn flip(tensor: Self::Tensor, axes: &[usize]) -> Self::Tensor;
    /// Broadcasts size-1 dims (and new leading dims) to `shape`.
    fn expand(tensor: Self::Tensor, shape: Shape) -> Self::Tensor;
    /// The sub-tensor of one [`Slice`] per leading dim, the rest whole.
    fn slice(tensor: Self::Tensor, slices: &[Slice]) -> Self::Tensor;
    /// `tensor` with `value` written into the region of `slices`.
    fn slice_assign(tensor: Self::Tensor, slices: &[Slice], value: Self::Tensor) -> Self::Tensor;
    /// Concatenation along `dim`.
    fn cat(tensors: Vec<Self::Tensor>, dim: usize) -> Self::Tensor;
    /// The whole tensor `times` over along `dim`.
    fn repeat_dim(tensor: Self::Tensor, dim: usize, times: usize) -> Self::Tensor;
}

/// Indexing and masking, for every dtype.
pub trait IndexKernels: DeviceKernels {
    /// `out[..i..] = tensor[..indices[..i..]..]` along `dim`.
    fn gather(dim: usize, tensor: Self::Tensor, indices: Self::Tensor) -> Self::Tensor;
    /// `tensor[..indices[..i..]..] += value[..i..]` along `dim`.
    fn scatter_add(
        dim: usize,
        tensor: Self::Tensor,
        indices: Self::Tensor,
        value: Self::Tensor,
    ) -> Self::Tensor;
    /// The slices of `dim` named by a 1-d index tensor.
    fn select(tensor: Self::Tensor, dim: usize, indices: Self::Tensor) -> Self::Tensor;
    /// `value`'s slices added into the slices of `dim` named by `indices`.
    fn select_add(
        tensor: Self::Tensor,
        dim: usize,
        indices: Self::Tensor,
        value: Self::Tensor,
    ) -> Self::Tensor;
    /// `value` where `mask` is true, `tensor` elsewhere (all three broadcast).
    fn mask_where(tensor: Self::Tensor, mask: Self::Tensor, value: Self::Tensor) -> Self::Tensor;
    /// `value` where `mask` is true, `tensor` elsewhere.
    fn mask_fill(tensor: Self::Tensor, mask: Self::Tensor, value: Scalar) -> Self::Tensor;
    /// The coordinates of the true elements of a bool tensor, `[count, rank]`,
    /// in row-major order.
    fn argwhere(tensor: Self::Tensor) -> Self::Tensor;
}

/// Element-wise binary ops, broadcasting; a scalar converts to the
/// tensor's dtype.
pub trait BinaryKernels: DeviceKernels {
    /// `lhs op rhs` of float or int tensors.
    fn binary(op: BinaryOp, lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;
    /// `lhs op rhs` of a float or int tensor and a scalar.
    fn binary_scalar(op: BinaryOp, lhs: Self::Tensor, rhs: Scalar) -> Self::Tensor;
    /// `lhs op rhs` of float tensors.
    fn float_binary(op: FloatBinaryOp, lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;
    /// `lhs op rhs` of int tensors.
    fn bitwise(op: BitwiseOp, lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;
    /// `lhs op rhs` of an int tensor and a scalar.
    fn bitwise_scalar(op: BitwiseOp, lhs: Self::Tensor, rhs: Scalar) -> Self::Tensor;
    /// `lhs op rhs` as a bool tensor, for any dtype.
    fn compare(op: CmpOp, lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;
    /// `lhs op rhs` of a tensor and a scalar, as a bool tensor.
    fn compare_scalar(op: CmpOp, lhs: Self::Tensor, rhs: Scalar) -> Self::Tensor;
    /// `lhs op rhs` of bool tensors.
    fn bool_binary(op: BoolOp, lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;
}

/// Element-wise functions.
pub trait UnaryKernels: DeviceKernels {
    /// `op(x)` of a float tensor.
    fn float_unary(op: FloatUnaryOp, tensor: Self::Tensor) -> Self::Tensor;
    /// `op(x)` of an int tensor, wrapping.
    fn int_unary(op: IntUnaryOp, tensor: Self::Tensor) -> Self::Tensor;
    /// `!x` of a bool tensor.
    fn logical_not(tensor: Self::Tensor) -> Self::Tensor;
}

/// Matrix products.
pub trait MatmulKernels: DeviceKernels {
    /// The product over the last two dims of float or int tensors, batch
    /// dims broadcast.
    fn matmul(lhs: Self::Tensor, rhs: Self::Tensor) -> Self::Tensor;

    /// `lhs @ rhs` for a float `lhs` and a quantized `rhs` (a weight),
    /// computed on the packed values, or `None` when this backend has no
    /// kernel for the scheme or the layout (the product then runs on the
    /// dequantized weight through [`matmul`](Self::matmul)).
    fn quantized_matmul(_lhs: &Self::Tensor, _rhs: &Self::Tensor) -> Option<Self::Tensor> {
        None
    }
}

/// Reductions and scans of float and int tensors.
pub trait ReduceKernels: DeviceKernels {
    /// `op` over every element, shape `[1]`.
    fn reduce_all(op: ReduceOp, tensor: Self::Tensor) -> Self::Tensor;
    /// `op` along `dim`, kept with size 1.
    fn reduce_dim(op: ReduceOp, tensor: Self::Tensor, dim: usize) -> Self::Tensor;
    /// The index of the extreme along `dim` (the first on ties), kept with
    /// size 1, in the backend's index dtype.
    fn arg_reduce(op: ArgReduceOp, tensor: Self::Tensor, dim: usize) -> Self::Tensor;
    /// The running `op` along `dim`.
    fn cumulative(op: CumOp, tensor: Self::Tensor, dim: usize) -> Self::Tensor;
}

/// Sorting.
pub trait SortKernels: DeviceKernels {
    /// Stable sort along `dim`: the values and the indices they came from.
    fn sort_with_indices(
        tensor: Self::Tensor,
        dim: usize,
        descending: bool,
    ) -> (Self::Tensor, Self::Tensor);
}

/// Convolutions; the 1-d and 2-d ones are these over size-1 dims (see
/// [`ModuleOps`](crate::ModuleOps)).
pub trait ConvKernels: DeviceKernels {
    /// 3-d convolution, `x` `[batch, channels, depth, height, width]`.
    fn conv3d(
        x: Self::Tensor,
        weight: Self::Tensor,
        bias: Option<Self::Tensor>,
        options: ConvOptions<3>,
    ) -> Self::Tensor;
    /// The gradient of [`conv3d`](ConvKernels::conv3d) with respect to its
    /// weight, of shape `weight_shape`.
    fn conv3d_weight_backward(
        x: Self::Tensor,
        output_grad: Self::Tensor,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> Self::Tensor;
    /// 3-d transposed convolution (the gradient of `conv3d` with respect to
    /// its input).
    fn conv_transpose3d(
        x: Self::Tensor,
        weight: Self::Tensor,
        bias: Option<Self::Tensor>,
        options: ConvTransposeOptions<3>,
    ) -> Self::Tensor;
}

/// 2-d pooling of `[batch, channels, height, width]` and its gradients.
pub trait PoolKernels: DeviceKernels {
    /// Max pooling with the plane index `h * width + w` of each maximum.
    fn max_pool2d_with_indices(
        x: Self::Tensor,
        window: PoolWindow,
        ceil_mode: bool,
    ) -> (Self::Tensor, Self::Tensor);
    /// The gradient of max pooling of an input of `x_shape`: each output
    /// gradient added at the position its index names.
    fn max_pool2d_backward(
        x_shape: &Shape,
        grad: Self::Tensor,
        indices: Self::Tensor,
    ) -> Self::Tensor;
    /// Average pooling over zero-padded windows.
    fn avg_pool2d(
        x: Self::Tensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> Self::Tensor;
    /// The gradient of average pooling of an input of `x_shape`.
    fn avg_pool2d_backward(
        x_shape: &Shape,
        grad: Self::Tensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> Self::Tensor;
    /// Adaptive average pooling to `output_size`.
    fn adaptive_avg_pool2d(x: Self::Tensor, output_size: [usize; 2]) -> Self::Tensor;
    /// The gradient of adaptive average pooling of an input of `x_shape`.
    fn adaptive_avg_pool2d_backward(x_shape: &Shape, grad: Self::Tensor) -> Self::Tensor;
}

/// 2-d resizing of `[batch, channels, height, width]` and its gradient.
pub trait InterpolateKernels: DeviceKernels {
    /// The planes of `x` resized to `output_size`.
    fn interpolate(
        x: Self::Tensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> Self::Tensor;
    /// The gradient of [`interpolate`](InterpolateKernels::interpolate) of
    /// an input of `x_shape`.
    fn interpolate_backward(
        x_shape: &Shape,
        grad: Self::Tensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> Self::Tensor;
}

/// Every kernel family: what the adapters of this module need to provide
/// the ops traits. A backend opts in with an empty impl once it implements
/// the families (an explicit impl, not a blanket one, so the family list is
/// written once, here).
pub trait Kernels:
    CreationKernels
    + ShapeKernels
    + IndexKernels
    + BinaryKernels
    + UnaryKernels
    + MatmulKernels
    + ReduceKernels
    + SortKernels
    + ConvKernels
    + PoolKernels
    + InterpolateKernels
{
}
