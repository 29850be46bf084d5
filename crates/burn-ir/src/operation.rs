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

impl<'a> OperationTensors<'a> {
    fn new(inputs: Vec<&'a TensorIr>, outputs: Vec<&'a TensorIr>) -> Self {
        Self { inputs, outputs }
    }
}

impl UnaryOpIr {
    fn tensors(&self) -> OperationTensors<'_> {
        OperationTensors::new(vec![&self.input], vec![&self.out])
    }
}

impl BinaryOpIr {
    fn tensors(&self) -> OperationTensors<'_> {
        OperationTensors::new(vec![&self.lhs, &self.rhs], vec![&self.out])
    }
}

impl ScalarOpIr {
    fn tensors(&self) -> OperationTensors<'_> {
        OperationTensors::new(vec![&self.lhs], vec![&self.out])
    }
}

impl DimOpIr {
    fn tensors(&self) -> OperationTensors<'_> {
        OperationTensors::new(vec![&self.input], vec![&self.out])
    }
}

impl<const N: usize> ConvIr<N> {
    fn tensors(&self) -> OperationTensors<'_> {
        let mut inputs = vec![&self.x, &self.weight];
        inputs.extend(&self.bias);
        OperationTensors::new(inputs, vec![&self.out])
    }
}

impl<const N: usize> ConvTransposeIr<N> {
    fn tensors(&self) -> OperationTensors<'_> {
        let mut inputs = vec![&self.x, &self.weight];
        inputs.extend(&self.bias);
        OperationTensors::new(inputs, vec![&self.out])
    }
}

/// `(inputs) -> (outputs)` as an [`OperationTensors`].
macro_rules! io {
    ([$($input:expr),*] -> [$($output:expr),*]) => {
        OperationTensors::new(vec![$($input),*], vec![$($output),*])
    };
}

impl OperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        match self {
            OperationIr::Init(op) => op.tensors(),
            OperationIr::Base(_, op) => op.tensors(),
            OperationIr::Numeric(_, op) => op.tensors(),
            OperationIr::Float(op) => op.tensors(),
            OperationIr::Int(op) => op.tensors(),
            OperationIr::Bool(op) => op.tensors(),
            OperationIr::Module(op) => op.tensors(),
            OperationIr::Activation(op) => op.tensors(),
            OperationIr::Quantized(op) => match *op {},
            OperationIr::Drop(tensor) => io!([tensor] -> []),
        }
    }
}

impl InitOperationIr {
    /// The tensors the operation reads (none) and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        match self {
            InitOperationIr::FromData { out }
            | InitOperationIr::Full { out, .. }
            | InitOperationIr::Empty { out }
            | InitOperationIr::Random { out, .. }
            | InitOperationIr::Arange { out, .. } => io!([] -> [out]),
        }
    }
}

impl BaseOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use BaseOperationIr as B;
        match self {
            B::Reshape(desc) | B::Expand(desc) => desc.tensors(),
            B::Permute { input, out, .. }
            | B::SwapDims { input, out, .. }
            | B::Flip { input, out, .. }
            | B::Slice { input, out, .. }
            | B::Narrow { input, out, .. }
            | B::RepeatDim { input, out, .. } => io!([input] -> [out]),
            B::SliceAssign {
                input, value, out, ..
            } => io!([input, value] -> [out]),
            B::Cat { inputs, out, .. } => OperationTensors::new(inputs.iter().collect(), vec![out]),
            B::Gather {
                input,
                indices,
                out,
                ..
            }
            | B::Select {
                input,
                indices,
                out,
                ..
            } => io!([input, indices] -> [out]),
            B::MaskWhere {
                input,
                mask,
                value,
                out,
            } => io!([input, mask, value] -> [out]),
        }
    }
}

impl NumericOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use NumericOperationIr as N;
        match self {
            N::Binary { desc, .. } | N::Compare { desc, .. } | N::Matmul(desc) => desc.tensors(),
            N::BinaryScalar { desc, .. } | N::CompareScalar { desc, .. } => desc.tensors(),
            N::Cast(desc) | N::Reduce { desc, .. } | N::Mean(desc) => desc.tensors(),
            N::ReduceDim { desc, .. }
            | N::MeanDim(desc)
            | N::ArgReduce { desc, .. }
            | N::Cumulative { desc, .. }
            | N::Sort { desc, .. }
            | N::Argsort { desc, .. } => desc.tensors(),
            N::ReduceDimWithIndices { desc, indices, .. }
            | N::SortWithIndices { desc, indices, .. }
            | N::TopkWithIndices { desc, indices, .. } => {
                io!([&desc.input] -> [&desc.out, indices])
            }
            N::Clamp { input, out, .. }
            | N::Any { input, out, .. }
            | N::All { input, out, .. }
            | N::Tril { input, out, .. }
            | N::Triu { input, out, .. } => io!([input] -> [out]),
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
            } => io!([input, indices, value] -> [out]),
            N::MaskFill {
                input, mask, out, ..
            } => io!([input, mask] -> [out]),
        }
    }
}

impl FloatOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use FloatOperationIr as F;
        match self {
            F::Unary { desc, .. } => desc.tensors(),
            F::Binary { desc, .. } | F::PowInt(desc) => desc.tensors(),
            F::PowIntScalar(desc) => desc.tensors(),
            F::IntoInt(desc) | F::IsNan(desc) | F::IsInf(desc) | F::MaxAbs(desc) => desc.tensors(),
        }
    }
}

impl IntOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use IntOperationIr as I;
        match self {
            I::Unary { desc, .. } | I::IntoFloat(desc) => desc.tensors(),
            I::Bitwise { desc, .. } | I::PowFloat(desc) => desc.tensors(),
            I::BitwiseScalar { desc, .. } | I::PowFloatScalar(desc) => desc.tensors(),
        }
    }
}

impl BoolOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use BoolOperationIr as B;
        match self {
            B::Binary { desc, .. } => desc.tensors(),
            B::Not(desc) | B::IntoInt(desc) | B::IntoFloat(desc) => desc.tensors(),
            B::Any { input, out, .. } | B::All { input, out, .. } => io!([input] -> [out]),
        }
    }
}

impl ModuleOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use ModuleOperationIr as M;
        match self {
            M::Embedding {
                weights,
                indices,
                out,
            } => io!([weights, indices] -> [out]),
            M::EmbeddingBackward {
                weights,
                output_grad,
                indices,
                out,
            } => io!([weights, output_grad, indices] -> [out]),
            M::Conv1d(desc) => desc.tensors(),
            M::Conv2d(desc) => desc.tensors(),
            M::Conv3d(desc) => desc.tensors(),
            M::ConvTranspose1d(desc) => desc.tensors(),
            M::ConvTranspose2d(desc) => desc.tensors(),
            M::ConvTranspose3d(desc) => desc.tensors(),
            M::Conv3dWeightBackward {
                x,
                output_grad,
                out,
                ..
            } => io!([x, output_grad] -> [out]),
            M::Unfold4d { x, out, .. }
            | M::MaxPool1d { x, out, .. }
            | M::MaxPool2d { x, out, .. }
            | M::AvgPool1d { x, out, .. }
            | M::AvgPool2d { x, out, .. }
            | M::Interpolate { x, out, .. } => io!([x] -> [out]),
            M::MaxPool1dWithIndices {
                x, out, indices, ..
            }
            | M::MaxPool2dWithIndices {
                x, out, indices, ..
            } => io!([x] -> [out, indices]),
            M::MaxPool2dWithIndicesBackward {
                x,
                output_grad,
                indices,
                out,
                ..
            } => io!([x, output_grad, indices] -> [out]),
            M::AvgPool2dBackward { x, grad, out, .. }
            | M::AdaptiveAvgPool2dBackward { x, grad, out }
            | M::InterpolateBackward { x, grad, out, .. } => io!([x, grad] -> [out]),
            M::AdaptiveAvgPool1d(desc) | M::AdaptiveAvgPool2d(desc) => desc.tensors(),
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
                OperationTensors::new(inputs, vec![out])
            }
        }
    }
}

impl ActivationOperationIr {
    /// The tensors the operation reads and creates.
    pub fn tensors(&self) -> OperationTensors<'_> {
        use ActivationOperationIr as A;
        match self {
            A::Relu(desc)
            | A::Gelu(desc)
            | A::Sigmoid(desc)
            | A::LogSigmoid(desc)
            | A::Silu(desc) => desc.tensors(),
            A::ReluBackward(desc)
            | A::GeluBackward(desc)
            | A::SigmoidBackward(desc)
            | A::LogSigmoidBackward(desc) => desc.tensors(),
            A::LeakyRelu(desc) => desc.tensors(),
            A::HardSigmoid { input, out, .. } => io!([input] -> [out]),
            A::Softmax(desc) | A::LogSoftmax(desc) => desc.tensors(),
        }
    }
}
