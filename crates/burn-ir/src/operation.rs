//! Every operation of the backend contract as data.
//!
//! One enum family per kind of operation, as the ops traits are split:
//! [`InitOperationIr`] (tensors coming into existence), [`BaseOperationIr`]
//! (layout and indexing ops every kind has), [`NumericOperationIr`] (what
//! float and int tensors share), [`FloatOperationIr`], [`IntOperationIr`],
//! [`BoolOperationIr`], [`ModuleOperationIr`], [`ActivationOperationIr`]
//! and [`QuantizedOperationIr`] (empty until quantized tensors exist).
//! Families shared by several kinds carry the kind beside them in
//! [`OperationIr`], so an executor knows which primitive to take.
//!
//! Element-wise families do not repeat the arithmetic: an addition is
//! `Numeric(kind, Binary { op: BinaryOp::Add, .. })`, with the op from the
//! shared vocabulary (`burn_backend::ops::vocabulary`). Each variant names
//! its inputs and its outputs as [`TensorIr`]s, the outputs with their shape
//! and dtype already computed by the recording side, so a recorder that
//! executes nothing (graph capture) still knows every shape.
//!
//! Reads are not operations: a recorder asks its executor for a tensor's
//! data ([`tensors`](OperationIr::tensors) lists what each op reads and
//! writes); batched reads (the backend's transactions) are several reads.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::ops::vocabulary::{
    ArgReduceOp, BinaryOp, BitwiseOp, BoolOp, CmpOp, CumOp, FloatBinaryOp, FloatUnaryOp,
    IntUnaryOp, ReduceOp,
};
use burn_backend::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateOptions, UnfoldOptions,
};
use burn_std::{Distribution, Slice};
use serde::{Deserialize, Serialize};

use crate::{NumericKind, ScalarIr, TensorIr, TensorKind};

/// One operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OperationIr {
    /// A tensor comes into existence.
    Init(InitOperationIr),
    /// A layout or indexing op of a tensor of the given kind.
    Base(TensorKind, BaseOperationIr),
    /// An op float and int tensors share, on the given kind.
    Numeric(NumericKind, NumericOperationIr),
    /// An op of float tensors.
    Float(FloatOperationIr),
    /// An op of int tensors.
    Int(IntOperationIr),
    /// An op of bool tensors.
    Bool(BoolOperationIr),
    /// A layer op (convolution, pooling, interpolation, attention, …).
    Module(ModuleOperationIr),
    /// An activation function or its derivative.
    Activation(ActivationOperationIr),
    /// An op of quantized tensors.
    Quantized(QuantizedOperationIr),
    /// The tensor is no longer referenced: its buffer can be freed.
    Drop(TensorIr),
    /// An operation of a backend extension (`#[backend_extension]` with
    /// `Fusion`): its tensors, and code only the recording process has.
    Custom(CustomOpIr),
}

/// An operation a backend extension defines. The IR names it and its
/// tensors (the outputs' shapes and dtypes computed when it was recorded);
/// what it computes is [`run`](Self::run), code of the process that
/// recorded it, which only an executor of the same backend in that process
/// can call. Anywhere else (a remote server, a file) executing it fails,
/// naming it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CustomOpIr {
    /// The extension op, `Trait::fn` (e.g. `SquareBackend::square`).
    pub id: alloc::string::String,
    /// The tensors read, in the op's parameter order.
    pub inputs: Vec<TensorIr>,
    /// The tensors created, in the op's result order.
    pub outputs: Vec<TensorIr>,
    /// The code: not data, so neither compared nor serialized.
    #[serde(skip)]
    pub run: CustomRun,
}

/// The code of a [`CustomOpIr`]: a [`CustomFn`] of the executor's backend,
/// type-erased (the IR is not generic over backends). Every two are equal
/// (a recorded op is the same operation whatever values its code
/// captured), and none is serialized.
#[derive(Clone, Default)]
pub struct CustomRun(pub Option<alloc::sync::Arc<dyn core::any::Any + Send + Sync>>);

/// What a custom op's code is on backend `B`: the input handles in order,
/// to the output handles in order.
pub type CustomFn<B> =
    alloc::boxed::Box<dyn Fn(Vec<crate::Handle<B>>) -> Vec<crate::Handle<B>> + Send + Sync>;

impl CustomRun {
    /// The code, as `B`'s function, if it is one.
    pub fn get<B: burn_backend::BackendTypes + 'static>(&self) -> Option<&CustomFn<B>> {
        self.0.as_ref()?.downcast_ref::<CustomFn<B>>()
    }
}

impl core::fmt::Debug for CustomRun {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.is_some() {
            "CustomRun(code)"
        } else {
            "CustomRun(none)"
        })
    }
}

impl PartialEq for CustomRun {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

// ------------------------------------------------------------ descriptors

/// One input, one output.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnaryOpIr {
    /// The input.
    pub input: TensorIr,
    /// The output.
    pub out: TensorIr,
}

/// Two inputs, one output.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BinaryOpIr {
    /// The left operand.
    pub lhs: TensorIr,
    /// The right operand.
    pub rhs: TensorIr,
    /// The output.
    pub out: TensorIr,
}

/// A tensor and a scalar, one output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalarOpIr {
    /// The tensor operand.
    pub lhs: TensorIr,
    /// The scalar operand.
    pub rhs: ScalarIr,
    /// The output.
    pub out: TensorIr,
}

/// One input and a dim, one output.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DimOpIr {
    /// The input.
    pub input: TensorIr,
    /// The dim the op works along.
    pub dim: usize,
    /// The output.
    pub out: TensorIr,
}

// ------------------------------------------------------------------- init

/// Operations that bring a tensor into existence. The kind of the new tensor
/// is the kind of `out.dtype`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum InitOperationIr {
    /// A tensor whose data the recorder handed to its executor out of band
    /// (`*_from_data`, a transfer from another device).
    FromData {
        /// The new tensor.
        out: TensorIr,
    },
    /// Every element `value` (`*_full`, `*_zeros`, `*_ones`).
    Full {
        /// The value.
        value: ScalarIr,
        /// The new tensor.
        out: TensorIr,
    },
    /// Contents unspecified (`*_empty`).
    Empty {
        /// The new tensor.
        out: TensorIr,
    },
    /// Drawn from `distribution` with the device's generator (`*_random`).
    Random {
        /// The distribution.
        distribution: Distribution,
        /// The new tensor.
        out: TensorIr,
    },
    /// `start, start + step, …` below `end` (`int_arange`, `int_arange_step`, `float_arange`).
    Arange {
        /// The first value.
        start: i64,
        /// The bound, excluded.
        end: i64,
        /// The distance between values.
        step: usize,
        /// The new tensor.
        out: TensorIr,
    },
}

// ------------------------------------------------------------------- base

/// Layout and indexing ops of every tensor kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BaseOperationIr {
    /// Same elements, `out.shape`.
    Reshape(UnaryOpIr),
    /// Output dim `i` is input dim `axes[i]`.
    Permute {
        /// The input.
        input: TensorIr,
        /// The permutation.
        axes: Vec<usize>,
        /// The output.
        out: TensorIr,
    },
    /// Two dims exchanged.
    SwapDims {
        /// The input.
        input: TensorIr,
        /// The first dim.
        dim1: usize,
        /// The second dim.
        dim2: usize,
        /// The output.
        out: TensorIr,
    },
    /// Element order reversed along `axes`.
    Flip {
        /// The input.
        input: TensorIr,
        /// The reversed dims.
        axes: Vec<usize>,
        /// The output.
        out: TensorIr,
    },
    /// Broadcast to `out.shape`.
    Expand(UnaryOpIr),
    /// A sub-tensor.
    Slice {
        /// The input.
        input: TensorIr,
        /// One slice per leading dim.
        slices: Vec<Slice>,
        /// The output.
        out: TensorIr,
    },
    /// `value` written into the region `slices` selects.
    SliceAssign {
        /// The tensor written into.
        input: TensorIr,
        /// One slice per leading dim.
        slices: Vec<Slice>,
        /// The values written.
        value: TensorIr,
        /// The output.
        out: TensorIr,
    },
    /// `length` elements of `dim` from `start`.
    Narrow {
        /// The input.
        input: TensorIr,
        /// The dim.
        dim: usize,
        /// The first index kept.
        start: usize,
        /// How many are kept.
        length: usize,
        /// The output.
        out: TensorIr,
    },
    /// Concatenation along `dim`.
    Cat {
        /// The inputs, in order.
        inputs: Vec<TensorIr>,
        /// The dim.
        dim: usize,
        /// The output.
        out: TensorIr,
    },
    /// The whole tensor repeated `times` along `dim`.
    RepeatDim {
        /// The input.
        input: TensorIr,
        /// The dim.
        dim: usize,
        /// How many copies.
        times: usize,
        /// The output.
        out: TensorIr,
    },
    /// `out[..i..] = input[..indices[..i..]..]` along `dim`.
    Gather {
        /// The dim.
        dim: usize,
        /// The tensor read from.
        input: TensorIr,
        /// The int indices, shaped as the output.
        indices: TensorIr,
        /// The output.
        out: TensorIr,
    },
    /// Whole slices of `dim` picked by a 1-d int index tensor.
    Select {
        /// The tensor read from.
        input: TensorIr,
        /// The dim.
        dim: usize,
        /// The int indices.
        indices: TensorIr,
        /// The output.
        out: TensorIr,
    },
    /// `value` where `mask`, `input` elsewhere.
    MaskWhere {
        /// The tensor kept where the mask is false.
        input: TensorIr,
        /// The bool mask.
        mask: TensorIr,
        /// The tensor taken where the mask is true.
        value: TensorIr,
        /// The output.
        out: TensorIr,
    },
}

// ---------------------------------------------------------------- numeric

/// Ops float and int tensors share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NumericOperationIr {
    /// Element-wise arithmetic with broadcasting.
    Binary {
        /// Which arithmetic.
        op: BinaryOp,
        /// The operands and output.
        desc: BinaryOpIr,
    },
    /// Element-wise arithmetic with a scalar.
    BinaryScalar {
        /// Which arithmetic.
        op: BinaryOp,
        /// The operands and output.
        desc: ScalarOpIr,
    },
    /// Element-wise comparison with broadcasting; the output is bool.
    Compare {
        /// Which comparison.
        op: CmpOp,
        /// The operands and output.
        desc: BinaryOpIr,
    },
    /// Element-wise comparison with a scalar; the output is bool.
    CompareScalar {
        /// Which comparison.
        op: CmpOp,
        /// The operands and output.
        desc: ScalarOpIr,
    },
    /// Conversion to `out.dtype`, of the same kind.
    Cast(UnaryOpIr),
    /// Matrix product over the last two dims, batch dims broadcast.
    Matmul(BinaryOpIr),
    /// Values clamped to `[min, max]`; a missing bound is not applied.
    Clamp {
        /// The input.
        input: TensorIr,
        /// The lower bound.
        min: Option<ScalarIr>,
        /// The upper bound.
        max: Option<ScalarIr>,
        /// The output.
        out: TensorIr,
    },
    /// A reduction of the whole tensor, shape `[1]`.
    Reduce {
        /// Which reduction.
        op: ReduceOp,
        /// The input and output.
        desc: UnaryOpIr,
    },
    /// A reduction along a dim, kept with size 1.
    ReduceDim {
        /// Which reduction.
        op: ReduceOp,
        /// The input, dim and output.
        desc: DimOpIr,
    },
    /// The mean of the whole tensor, shape `[1]`.
    Mean(UnaryOpIr),
    /// The mean along a dim, kept with size 1.
    MeanDim(DimOpIr),
    /// The index of the extreme along a dim (int output).
    ArgReduce {
        /// Which extreme.
        op: ArgReduceOp,
        /// The input, dim and output.
        desc: DimOpIr,
    },
    /// The extreme along a dim and its index.
    ReduceDimWithIndices {
        /// Which extreme.
        op: ArgReduceOp,
        /// The input, dim and values.
        desc: DimOpIr,
        /// The int indices.
        indices: TensorIr,
    },
    /// Whether any element (along `dim`, or of the whole tensor) is non-zero.
    Any {
        /// The input.
        input: TensorIr,
        /// The dim, or `None` for the whole tensor.
        dim: Option<usize>,
        /// The bool output.
        out: TensorIr,
    },
    /// Whether every element (along `dim`, or of the whole tensor) is non-zero.
    All {
        /// The input.
        input: TensorIr,
        /// The dim, or `None` for the whole tensor.
        dim: Option<usize>,
        /// The bool output.
        out: TensorIr,
    },
    /// A running scan along a dim.
    Cumulative {
        /// Which scan.
        op: CumOp,
        /// The input, dim and output.
        desc: DimOpIr,
    },
    /// Sorted along a dim.
    Sort {
        /// The input, dim and output.
        desc: DimOpIr,
        /// Largest first.
        descending: bool,
    },
    /// Sorted along a dim, with the indices the values came from.
    SortWithIndices {
        /// The input, dim and values.
        desc: DimOpIr,
        /// Largest first.
        descending: bool,
        /// The int indices.
        indices: TensorIr,
    },
    /// The indices that sort a dim.
    Argsort {
        /// The input, dim and int output.
        desc: DimOpIr,
        /// Largest first.
        descending: bool,
    },
    /// The `k` largest along a dim, largest first, with their indices.
    TopkWithIndices {
        /// The input, dim and values.
        desc: DimOpIr,
        /// How many.
        k: usize,
        /// The int indices.
        indices: TensorIr,
    },
    /// `input[..indices[..i..]..] += value[..i..]` along `dim`.
    ScatterAdd {
        /// The dim.
        dim: usize,
        /// The tensor added into.
        input: TensorIr,
        /// The int indices.
        indices: TensorIr,
        /// The values added.
        value: TensorIr,
        /// The output.
        out: TensorIr,
    },
    /// `value`'s slices added into the slices of `dim` that `indices` names.
    SelectAdd {
        /// The tensor added into.
        input: TensorIr,
        /// The dim.
        dim: usize,
        /// The 1-d int indices.
        indices: TensorIr,
        /// The values added.
        value: TensorIr,
        /// The output.
        out: TensorIr,
    },
    /// A scalar where `mask`, `input` elsewhere.
    MaskFill {
        /// The input.
        input: TensorIr,
        /// The bool mask.
        mask: TensorIr,
        /// The value written.
        value: ScalarIr,
        /// The output.
        out: TensorIr,
    },
    /// Elements on and below diagonal `diagonal` kept, the rest zero.
    Tril {
        /// The input.
        input: TensorIr,
        /// The diagonal (0: the main one).
        diagonal: i64,
        /// The output.
        out: TensorIr,
    },
    /// Elements on and above diagonal `diagonal` kept, the rest zero.
    Triu {
        /// The input.
        input: TensorIr,
        /// The diagonal (0: the main one).
        diagonal: i64,
        /// The output.
        out: TensorIr,
    },
}

// ------------------------------------------------------------------ float

/// Ops of float tensors only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FloatOperationIr {
    /// An element-wise function.
    Unary {
        /// Which function.
        op: FloatUnaryOp,
        /// The input and output.
        desc: UnaryOpIr,
    },
    /// An element-wise binary op defined for floats only.
    Binary {
        /// Which op.
        op: FloatBinaryOp,
        /// The operands and output.
        desc: BinaryOpIr,
    },
    /// Conversion to the int dtype `out.dtype`, truncating toward zero.
    IntoInt(UnaryOpIr),
    /// `lhs ^ rhs` with an int exponent tensor.
    PowInt(BinaryOpIr),
    /// `lhs ^ rhs` with an integer scalar exponent.
    PowIntScalar(ScalarOpIr),
    /// Whether each element is NaN.
    IsNan(UnaryOpIr),
    /// Whether each element is infinite.
    IsInf(UnaryOpIr),
    /// The largest absolute value, shape `[1]`.
    MaxAbs(UnaryOpIr),
}

// -------------------------------------------------------------------- int

/// Ops of int tensors only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum IntOperationIr {
    /// An element-wise function.
    Unary {
        /// Which function.
        op: IntUnaryOp,
        /// The input and output.
        desc: UnaryOpIr,
    },
    /// An element-wise bitwise op with broadcasting.
    Bitwise {
        /// Which op.
        op: BitwiseOp,
        /// The operands and output.
        desc: BinaryOpIr,
    },
    /// An element-wise bitwise op with a scalar.
    BitwiseScalar {
        /// Which op.
        op: BitwiseOp,
        /// The operands and output.
        desc: ScalarOpIr,
    },
    /// Conversion to the float dtype `out.dtype`.
    IntoFloat(UnaryOpIr),
    /// `lhs ^ rhs` with a float exponent tensor (int result).
    PowFloat(BinaryOpIr),
    /// `lhs ^ rhs` with a float scalar exponent (int result).
    PowFloatScalar(ScalarOpIr),
}

// ------------------------------------------------------------------- bool

/// Ops of bool tensors only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BoolOperationIr {
    /// Element-wise logic with broadcasting.
    Binary {
        /// Which op.
        op: BoolOp,
        /// The operands and output.
        desc: BinaryOpIr,
    },
    /// Logical not.
    Not(UnaryOpIr),
    /// Conversion to the int dtype `out.dtype` (0 or 1).
    IntoInt(UnaryOpIr),
    /// Conversion to the float dtype `out.dtype` (0 or 1).
    IntoFloat(UnaryOpIr),
    /// Whether any element (along `dim`, or of the whole tensor) is true.
    Any {
        /// The input.
        input: TensorIr,
        /// The dim, or `None` for the whole tensor.
        dim: Option<usize>,
        /// The output.
        out: TensorIr,
    },
    /// Whether every element (along `dim`, or of the whole tensor) is true.
    All {
        /// The input.
        input: TensorIr,
        /// The dim, or `None` for the whole tensor.
        dim: Option<usize>,
        /// The output.
        out: TensorIr,
    },
}

// ----------------------------------------------------------------- module

/// The window of a 2-d pooling op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool2dIr {
    /// Window size.
    pub kernel_size: [usize; 2],
    /// Step between windows.
    pub stride: [usize; 2],
    /// Padding on both sides.
    pub padding: [usize; 2],
    /// Spacing of window taps (1 for average pooling).
    pub dilation: [usize; 2],
    /// Whether the last partial window counts.
    pub ceil_mode: bool,
}

/// The window of a 1-d pooling op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool1dIr {
    /// Window size.
    pub kernel_size: usize,
    /// Step between windows.
    pub stride: usize,
    /// Padding on both sides.
    pub padding: usize,
    /// Spacing of window taps (1 for average pooling).
    pub dilation: usize,
    /// Whether the last partial window counts.
    pub ceil_mode: bool,
}

/// A convolution of spatial rank `N`: input, weight, optional bias, output.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConvIr<const N: usize> {
    /// `[batch, channels, ..spatial]`.
    pub x: TensorIr,
    /// The kernel.
    pub weight: TensorIr,
    /// `[out_channels]`.
    pub bias: Option<TensorIr>,
    /// Stride, padding, dilation, groups.
    pub options: ConvOptions<N>,
    /// The output.
    pub out: TensorIr,
}

/// A transposed convolution of spatial rank `N`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConvTransposeIr<const N: usize> {
    /// `[batch, channels, ..spatial]`.
    pub x: TensorIr,
    /// The kernel.
    pub weight: TensorIr,
    /// `[out_channels]`.
    pub bias: Option<TensorIr>,
    /// Stride, padding, output padding, dilation, groups.
    pub options: ConvTransposeOptions<N>,
    /// The output.
    pub out: TensorIr,
}

/// Ops of neural-network layers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ModuleOperationIr {
    /// Rows of `weights` looked up by `indices`.
    Embedding {
        /// `[n_embeddings, d_model]`.
        weights: TensorIr,
        /// `[batch, seq]` int indices.
        indices: TensorIr,
        /// `[batch, seq, d_model]`.
        out: TensorIr,
    },
    /// The gradient of an embedding with respect to its weights.
    EmbeddingBackward {
        /// The forward weights.
        weights: TensorIr,
        /// The gradient of the output.
        output_grad: TensorIr,
        /// The forward indices.
        indices: TensorIr,
        /// The gradient of the weights.
        out: TensorIr,
    },
    /// 1-d convolution.
    Conv1d(ConvIr<1>),
    /// 2-d convolution.
    Conv2d(ConvIr<2>),
    /// 3-d convolution.
    Conv3d(ConvIr<3>),
    /// The gradient of a 3-d convolution with respect to its weight
    /// (`out.shape` is the weight's shape).
    Conv3dWeightBackward {
        /// The convolution's input.
        x: TensorIr,
        /// The gradient of its output.
        output_grad: TensorIr,
        /// Its options.
        options: ConvOptions<3>,
        /// The weight gradient.
        out: TensorIr,
    },
    /// 1-d transposed convolution.
    ConvTranspose1d(ConvTransposeIr<1>),
    /// 2-d transposed convolution.
    ConvTranspose2d(ConvTransposeIr<2>),
    /// 3-d transposed convolution.
    ConvTranspose3d(ConvTransposeIr<3>),
    /// Sliding windows (im2col).
    Unfold4d {
        /// `[batch, channels, height, width]`.
        x: TensorIr,
        /// The window.
        kernel_size: [usize; 2],
        /// Stride, padding, dilation.
        options: UnfoldOptions,
        /// `[batch, channels · kh · kw, windows]`.
        out: TensorIr,
    },
    /// 1-d max pooling.
    MaxPool1d {
        /// The input.
        x: TensorIr,
        /// The window.
        pool: Pool1dIr,
        /// The output.
        out: TensorIr,
    },
    /// 1-d max pooling with the positions of the maxima.
    MaxPool1dWithIndices {
        /// The input.
        x: TensorIr,
        /// The window.
        pool: Pool1dIr,
        /// The output.
        out: TensorIr,
        /// The int positions.
        indices: TensorIr,
    },
    /// 2-d max pooling.
    MaxPool2d {
        /// The input.
        x: TensorIr,
        /// The window.
        pool: Pool2dIr,
        /// The output.
        out: TensorIr,
    },
    /// 2-d max pooling with the positions of the maxima.
    MaxPool2dWithIndices {
        /// The input.
        x: TensorIr,
        /// The window.
        pool: Pool2dIr,
        /// The output.
        out: TensorIr,
        /// The int positions.
        indices: TensorIr,
    },
    /// The gradient of 2-d max pooling with respect to its input.
    MaxPool2dWithIndicesBackward {
        /// The forward input.
        x: TensorIr,
        /// The window.
        pool: Pool2dIr,
        /// The gradient of the output.
        output_grad: TensorIr,
        /// The forward positions.
        indices: TensorIr,
        /// The input gradient.
        out: TensorIr,
    },
    /// 1-d average pooling.
    AvgPool1d {
        /// The input.
        x: TensorIr,
        /// The window (dilation 1).
        pool: Pool1dIr,
        /// Whether padding counts in the divisor.
        count_include_pad: bool,
        /// The output.
        out: TensorIr,
    },
    /// 2-d average pooling.
    AvgPool2d {
        /// The input.
        x: TensorIr,
        /// The window (dilation 1).
        pool: Pool2dIr,
        /// Whether padding counts in the divisor.
        count_include_pad: bool,
        /// The output.
        out: TensorIr,
    },
    /// The gradient of 2-d average pooling with respect to its input.
    AvgPool2dBackward {
        /// The forward input.
        x: TensorIr,
        /// The gradient of the output.
        grad: TensorIr,
        /// The window (dilation 1).
        pool: Pool2dIr,
        /// Whether padding counts in the divisor.
        count_include_pad: bool,
        /// The input gradient.
        out: TensorIr,
    },
    /// 1-d adaptive average pooling to `out`'s length.
    AdaptiveAvgPool1d(UnaryOpIr),
    /// 2-d adaptive average pooling to `out`'s height and width.
    AdaptiveAvgPool2d(UnaryOpIr),
    /// The gradient of 2-d adaptive average pooling.
    AdaptiveAvgPool2dBackward {
        /// The forward input.
        x: TensorIr,
        /// The gradient of the output.
        grad: TensorIr,
        /// The input gradient.
        out: TensorIr,
    },
    /// Planes resized to `out`'s height and width.
    Interpolate {
        /// The input.
        x: TensorIr,
        /// Mode and corner alignment.
        options: InterpolateOptions,
        /// The output.
        out: TensorIr,
    },
    /// The gradient of an interpolation with respect to its input.
    InterpolateBackward {
        /// The forward input.
        x: TensorIr,
        /// The gradient of the output (its height and width are the output size).
        grad: TensorIr,
        /// Mode and corner alignment.
        options: InterpolateOptions,
        /// The input gradient.
        out: TensorIr,
    },
    /// Scaled dot-product attention.
    Attention {
        /// `[batch, heads, seq_q, d]`.
        query: TensorIr,
        /// `[batch, heads, seq_k, d]`.
        key: TensorIr,
        /// `[batch, heads, seq_k, d_v]`.
        value: TensorIr,
        /// True where a query must not attend to a key.
        mask: Option<TensorIr>,
        /// Scale and causality.
        options: AttentionOptions,
        /// `[batch, heads, seq_q, d_v]`.
        out: TensorIr,
    },
}

// ------------------------------------------------------------- activation

/// Activation functions and the derivatives autodiff asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ActivationOperationIr {
    /// `max(x, 0)`.
    Relu(UnaryOpIr),
    /// The gradient of relu given its output (`lhs`) and the output gradient (`rhs`).
    ReluBackward(BinaryOpIr),
    /// `x` for positive `x`, `slope · x` otherwise.
    LeakyRelu(ScalarOpIr),
    /// The Gaussian error linear unit.
    Gelu(UnaryOpIr),
    /// The gradient of gelu given its input (`lhs`) and the output gradient (`rhs`).
    GeluBackward(BinaryOpIr),
    /// `1 / (1 + e^-x)`.
    Sigmoid(UnaryOpIr),
    /// The gradient of sigmoid given its output (`lhs`) and the output gradient (`rhs`).
    SigmoidBackward(BinaryOpIr),
    /// `clamp(alpha · x + beta, 0, 1)`.
    HardSigmoid {
        /// The input.
        input: TensorIr,
        /// The slope.
        alpha: ScalarIr,
        /// The offset.
        beta: ScalarIr,
        /// The output.
        out: TensorIr,
    },
    /// `ln(sigmoid(x))`.
    LogSigmoid(UnaryOpIr),
    /// The gradient of log-sigmoid given its input (`lhs`) and the output gradient (`rhs`).
    LogSigmoidBackward(BinaryOpIr),
    /// `x · sigmoid(x)`.
    Silu(UnaryOpIr),
    /// Softmax along a dim.
    Softmax(DimOpIr),
    /// Log-softmax along a dim.
    LogSoftmax(DimOpIr),
}

// -------------------------------------------------------------- quantized

/// Ops of quantized tensors. Empty until the backend contract has quantized
/// tensors; matching it is already exhaustive (`match op {}`), so adding the
/// first variant fails to compile in every consumer that must handle it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum QuantizedOperationIr {}

// ------------------------------------------------------------------ tensors

/// The tensors an operation reads and the tensors it creates.
#[derive(Debug, Default, PartialEq)]
pub struct OperationTensors<'a> {
    /// What the operation reads, in argument order.
    pub inputs: Vec<&'a TensorIr>,
    /// What it creates, in result order.
    pub outputs: Vec<&'a TensorIr>,
}

/// [`OperationTensors`], mutable: to renumber ids or update statuses.
#[derive(Debug, Default, PartialEq)]
pub struct OperationTensorsMut<'a> {
    /// What the operation reads, in argument order.
    pub inputs: Vec<&'a mut TensorIr>,
    /// What it creates, in result order.
    pub outputs: Vec<&'a mut TensorIr>,
}

impl<'a> OperationTensors<'a> {
    fn new(inputs: Vec<&'a TensorIr>, outputs: Vec<&'a TensorIr>) -> Self {
        Self { inputs, outputs }
    }
}

impl<'a> OperationTensorsMut<'a> {
    fn new(inputs: Vec<&'a mut TensorIr>, outputs: Vec<&'a mut TensorIr>) -> Self {
        Self { inputs, outputs }
    }
}

/// The visitors `tensors` (`&self`) and `tensors_mut` (`&mut self`) from one
/// body: with match ergonomics the same patterns bind shared or mutable
/// references, so the two cannot disagree about which field is an input.
macro_rules! tensor_visitors {
    ($name:ident, $ret:ident, $iter:ident $(, $m:tt)?) => {
        impl UnaryOpIr {
            fn $name(& $($m)? self) -> $ret<'_> {
                $ret::new(vec![& $($m)? self.input], vec![& $($m)? self.out])
            }
        }

        impl BinaryOpIr {
            fn $name(& $($m)? self) -> $ret<'_> {
                $ret::new(vec![& $($m)? self.lhs, & $($m)? self.rhs], vec![& $($m)? self.out])
            }
        }

        impl ScalarOpIr {
            fn $name(& $($m)? self) -> $ret<'_> {
                $ret::new(vec![& $($m)? self.lhs], vec![& $($m)? self.out])
            }
        }

        impl DimOpIr {
            fn $name(& $($m)? self) -> $ret<'_> {
                $ret::new(vec![& $($m)? self.input], vec![& $($m)? self.out])
            }
        }

        impl<const N: usize> ConvIr<N> {
            fn $name(& $($m)? self) -> $ret<'_> {
                let mut inputs = vec![& $($m)? self.x, & $($m)? self.weight];
                inputs.extend(& $($m)? self.bias);
                $ret::new(inputs, vec![& $($m)? self.out])
            }
        }

        impl<const N: usize> ConvTransposeIr<N> {
            fn $name(& $($m)? self) -> $ret<'_> {
                let mut inputs = vec![& $($m)? self.x, & $($m)? self.weight];
                inputs.extend(& $($m)? self.bias);
                $ret::new(inputs, vec![& $($m)? self.out])
            }
        }

        impl OperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                match self {
                    OperationIr::Init(op) => op.$name(),
                    OperationIr::Base(_, op) => op.$name(),
                    OperationIr::Numeric(_, op) => op.$name(),
                    OperationIr::Float(op) => op.$name(),
                    OperationIr::Int(op) => op.$name(),
                    OperationIr::Bool(op) => op.$name(),
                    OperationIr::Module(op) => op.$name(),
                    OperationIr::Activation(op) => op.$name(),
                    OperationIr::Quantized(op) => match *op {},
                    OperationIr::Drop(tensor) => $ret::new(vec![tensor], vec![]),
                    OperationIr::Custom(op) => $ret::new(
                        op.inputs.$iter().collect(),
                        op.outputs.$iter().collect(),
                    ),
                }
            }
        }

        impl InitOperationIr {
            /// The tensors the operation reads (none) and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                match self {
                    InitOperationIr::FromData { out }
                    | InitOperationIr::Full { out, .. }
                    | InitOperationIr::Empty { out }
                    | InitOperationIr::Random { out, .. }
                    | InitOperationIr::Arange { out, .. } => $ret::new(vec![], vec![out]),
                }
            }
        }

        impl BaseOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use BaseOperationIr as B;
                match self {
                    B::Reshape(desc) | B::Expand(desc) => desc.$name(),
                    B::Permute { input, out, .. }
                    | B::SwapDims { input, out, .. }
                    | B::Flip { input, out, .. }
                    | B::Slice { input, out, .. }
                    | B::Narrow { input, out, .. }
                    | B::RepeatDim { input, out, .. } => $ret::new(vec![input], vec![out]),
                    B::SliceAssign {
                        input, value, out, ..
                    } => $ret::new(vec![input, value], vec![out]),
                    B::Cat { inputs, out, .. } => $ret::new(inputs.$iter().collect(), vec![out]),
                    B::Gather {
                        input, indices, out, ..
                    }
                    | B::Select {
                        input, indices, out, ..
                    } => $ret::new(vec![input, indices], vec![out]),
                    B::MaskWhere {
                        input,
                        mask,
                        value,
                        out,
                    } => $ret::new(vec![input, mask, value], vec![out]),
                }
            }
        }

        impl NumericOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use NumericOperationIr as N;
                match self {
                    N::Binary { desc, .. } | N::Compare { desc, .. } | N::Matmul(desc) => desc.$name(),
                    N::BinaryScalar { desc, .. } | N::CompareScalar { desc, .. } => desc.$name(),
                    N::Cast(desc) | N::Reduce { desc, .. } | N::Mean(desc) => desc.$name(),
                    N::ReduceDim { desc, .. }
                    | N::MeanDim(desc)
                    | N::ArgReduce { desc, .. }
                    | N::Cumulative { desc, .. }
                    | N::Sort { desc, .. }
                    | N::Argsort { desc, .. } => desc.$name(),
                    N::ReduceDimWithIndices { desc, indices, .. }
                    | N::SortWithIndices { desc, indices, .. }
                    | N::TopkWithIndices { desc, indices, .. } => {
                        $ret::new(vec![& $($m)? desc.input], vec![& $($m)? desc.out, indices])
                    }
                    N::Clamp { input, out, .. }
                    | N::Any { input, out, .. }
                    | N::All { input, out, .. }
                    | N::Tril { input, out, .. }
                    | N::Triu { input, out, .. } => $ret::new(vec![input], vec![out]),
                    N::ScatterAdd {
                        input,
                        indices,
                        value,
                        out,
                        ..
                    }
                    | N::SelectAdd {
                        input,
                        indices,
                        value,
                        out,
                        ..
                    } => $ret::new(vec![input, indices, value], vec![out]),
                    N::MaskFill {
                        input, mask, out, ..
                    } => $ret::new(vec![input, mask], vec![out]),
                }
            }
        }

        impl FloatOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use FloatOperationIr as F;
                match self {
                    F::Unary { desc, .. } => desc.$name(),
                    F::Binary { desc, .. } | F::PowInt(desc) => desc.$name(),
                    F::PowIntScalar(desc) => desc.$name(),
                    F::IntoInt(desc) | F::IsNan(desc) | F::IsInf(desc) | F::MaxAbs(desc) => desc.$name(),
                }
            }
        }

        impl IntOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use IntOperationIr as I;
                match self {
                    I::Unary { desc, .. } | I::IntoFloat(desc) => desc.$name(),
                    I::Bitwise { desc, .. } | I::PowFloat(desc) => desc.$name(),
                    I::BitwiseScalar { desc, .. } | I::PowFloatScalar(desc) => desc.$name(),
                }
            }
        }

        impl BoolOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use BoolOperationIr as B;
                match self {
                    B::Binary { desc, .. } => desc.$name(),
                    B::Not(desc) | B::IntoInt(desc) | B::IntoFloat(desc) => desc.$name(),
                    B::Any { input, out, .. } | B::All { input, out, .. } => $ret::new(vec![input], vec![out]),
                }
            }
        }

        impl ModuleOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use ModuleOperationIr as M;
                match self {
                    M::Embedding {
                        weights,
                        indices,
                        out,
                    } => $ret::new(vec![weights, indices], vec![out]),
                    M::EmbeddingBackward {
                        weights,
                        output_grad,
                        indices,
                        out,
                    } => $ret::new(vec![weights, output_grad, indices], vec![out]),
                    M::Conv1d(desc) => desc.$name(),
                    M::Conv2d(desc) => desc.$name(),
                    M::Conv3d(desc) => desc.$name(),
                    M::ConvTranspose1d(desc) => desc.$name(),
                    M::ConvTranspose2d(desc) => desc.$name(),
                    M::ConvTranspose3d(desc) => desc.$name(),
                    M::Conv3dWeightBackward {
                        x,
                        output_grad,
                        out,
                        ..
                    } => $ret::new(vec![x, output_grad], vec![out]),
                    M::Unfold4d { x, out, .. }
                    | M::MaxPool1d { x, out, .. }
                    | M::MaxPool2d { x, out, .. }
                    | M::AvgPool1d { x, out, .. }
                    | M::AvgPool2d { x, out, .. }
                    | M::Interpolate { x, out, .. } => $ret::new(vec![x], vec![out]),
                    M::MaxPool1dWithIndices {
                        x, out, indices, ..
                    }
                    | M::MaxPool2dWithIndices {
                        x, out, indices, ..
                    } => $ret::new(vec![x], vec![out, indices]),
                    M::MaxPool2dWithIndicesBackward {
                        x,
                        output_grad,
                        indices,
                        out,
                        ..
                    } => $ret::new(vec![x, output_grad, indices], vec![out]),
                    M::AvgPool2dBackward { x, grad, out, .. }
                    | M::AdaptiveAvgPool2dBackward { x, grad, out }
                    | M::InterpolateBackward { x, grad, out, .. } => $ret::new(vec![x, grad], vec![out]),
                    M::AdaptiveAvgPool1d(desc) | M::AdaptiveAvgPool2d(desc) => desc.$name(),
                    M::Attention {
                        query,
                        key,
                        value,
                        mask,
                        out,
                        ..
                    } => {
                        let mut inputs = vec![query, key, value];
                        inputs.extend(mask);
                        $ret::new(inputs, vec![out])
                    }
                }
            }
        }

        impl ActivationOperationIr {
            /// The tensors the operation reads and creates.
            pub fn $name(& $($m)? self) -> $ret<'_> {
                use ActivationOperationIr as A;
                match self {
                    A::Relu(desc) | A::Gelu(desc) | A::Sigmoid(desc) | A::LogSigmoid(desc) | A::Silu(desc) => {
                        desc.$name()
                    }
                    A::ReluBackward(desc)
                    | A::GeluBackward(desc)
                    | A::SigmoidBackward(desc)
                    | A::LogSigmoidBackward(desc) => desc.$name(),
                    A::LeakyRelu(desc) => desc.$name(),
                    A::HardSigmoid { input, out, .. } => $ret::new(vec![input], vec![out]),
                    A::Softmax(desc) | A::LogSoftmax(desc) => desc.$name(),
                }
            }
        }
    };
}

tensor_visitors!(tensors, OperationTensors, iter);
tensor_visitors!(tensors_mut, OperationTensorsMut, iter_mut, mut);

// ------------------------------------------------------------------ scalars

impl OperationIr {
    /// The scalar arguments of the operation, mutable: the values a fused
    /// kernel takes at run time rather than compiles in (a cache keyed by
    /// the operations ignores them).
    pub fn scalars_mut(&mut self) -> Vec<&mut ScalarIr> {
        use ActivationOperationIr as A;
        use NumericOperationIr as N;
        match self {
            OperationIr::Init(InitOperationIr::Full { value, .. }) => vec![value],
            OperationIr::Init(
                InitOperationIr::FromData { .. }
                | InitOperationIr::Empty { .. }
                | InitOperationIr::Random { .. }
                | InitOperationIr::Arange { .. },
            ) => vec![],
            OperationIr::Numeric(_, op) => match op {
                N::BinaryScalar { desc, .. } | N::CompareScalar { desc, .. } => vec![&mut desc.rhs],
                N::Clamp { min, max, .. } => min.iter_mut().chain(max.iter_mut()).collect(),
                N::MaskFill { value, .. } => vec![value],
                N::Binary { .. }
                | N::Compare { .. }
                | N::Cast(_)
                | N::Matmul(_)
                | N::Reduce { .. }
                | N::ReduceDim { .. }
                | N::Mean(_)
                | N::MeanDim(_)
                | N::ArgReduce { .. }
                | N::ReduceDimWithIndices { .. }
                | N::Any { .. }
                | N::All { .. }
                | N::Cumulative { .. }
                | N::Sort { .. }
                | N::SortWithIndices { .. }
                | N::Argsort { .. }
                | N::TopkWithIndices { .. }
                | N::ScatterAdd { .. }
                | N::SelectAdd { .. }
                | N::Tril { .. }
                | N::Triu { .. } => vec![],
            },
            OperationIr::Float(FloatOperationIr::PowIntScalar(desc))
            | OperationIr::Int(
                IntOperationIr::BitwiseScalar { desc, .. } | IntOperationIr::PowFloatScalar(desc),
            )
            | OperationIr::Activation(A::LeakyRelu(desc)) => vec![&mut desc.rhs],
            OperationIr::Activation(A::HardSigmoid { alpha, beta, .. }) => vec![alpha, beta],
            OperationIr::Float(
                FloatOperationIr::Unary { .. }
                | FloatOperationIr::Binary { .. }
                | FloatOperationIr::IntoInt(_)
                | FloatOperationIr::PowInt(_)
                | FloatOperationIr::IsNan(_)
                | FloatOperationIr::IsInf(_)
                | FloatOperationIr::MaxAbs(_),
            )
            | OperationIr::Int(
                IntOperationIr::Unary { .. }
                | IntOperationIr::Bitwise { .. }
                | IntOperationIr::IntoFloat(_)
                | IntOperationIr::PowFloat(_),
            )
            | OperationIr::Activation(
                A::Relu(_)
                | A::ReluBackward(_)
                | A::Gelu(_)
                | A::GeluBackward(_)
                | A::Sigmoid(_)
                | A::SigmoidBackward(_)
                | A::LogSigmoid(_)
                | A::LogSigmoidBackward(_)
                | A::Silu(_)
                | A::Softmax(_)
                | A::LogSoftmax(_),
            )
            | OperationIr::Base(..)
            | OperationIr::Bool(_)
            | OperationIr::Module(_)
            | OperationIr::Drop(_)
            // A custom op's scalars are captured by its code.
            | OperationIr::Custom(_) => vec![],
            OperationIr::Quantized(op) => match *op {},
        }
    }
}
