//! The fused element-wise kernel: one kernel per [`FusedBlock`], generated
//! by unrolling the block's steps at compile time.
//!
//! A block is a straight-line program over one output shape: step `i`
//! computes value `i` of every output position from earlier values, input
//! tensors (each read once per position, broadcast through zero strides)
//! and scalar arguments. The block is the kernel's compile-time
//! configuration, so each distinct block compiles once (CubeCL caches it);
//! scalars are run-time arguments, so a changed learning rate, say, runs
//! the same kernel. Every value stays in registers; only the block's
//! outputs are written.
//!
//! The steps are the primitives the unfused kernels compute (the same
//! [`math`](crate::math) functions), so a fused chain computes what the
//! chain of kernels would, up to the compiler contracting a multiply and an
//! add that the unfused kernels round between.

use alloc::vec::Vec;

use burn_backend::FloatUnaryOp;
use cubecl::prelude::*;

use crate::math::{FloatOp, float_binary, float_powi, float_unary, strided_offset};

/// How `Select` compares a value with its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `value < bound`.
    Lower,
    /// `value <= bound`.
    LowerEqual,
}

/// One step of a [`FusedBlock`]; step `i` writes value `i`, and every
/// operand names an earlier step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusedOp {
    /// Input tensor `input` at this position.
    Load {
        /// The index in the kernel's inputs.
        input: usize,
    },
    /// Scalar argument `scalar`, in every lane.
    Scalar {
        /// The index in the kernel's scalars.
        scalar: usize,
    },
    /// `op(input)`.
    Unary {
        /// The function.
        op: FloatUnaryOp,
        /// The operand.
        input: usize,
    },
    /// `lhs op rhs`.
    Binary {
        /// The arithmetic.
        op: FloatOp,
        /// The left operand.
        lhs: usize,
        /// The right operand.
        rhs: usize,
    },
    /// `input^exponent` by products (see [`float_powi`]).
    PowI {
        /// The base.
        input: usize,
        /// The exponent.
        exponent: i32,
    },
    /// `input cmp bound ? then : input`.
    Select {
        /// The value compared and kept where the comparison is false.
        input: usize,
        /// The comparison.
        cmp: Comparison,
        /// The bound.
        bound: usize,
        /// The value taken where the comparison is true.
        then: usize,
    },
}

/// The compile-time configuration of one fused kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FusedBlock {
    /// The steps, in order.
    pub steps: Vec<FusedOp>,
    /// Per input: read through its strides (`true`) or at `offset +
    /// position` (its layout is the output's, contiguous).
    pub strided: Vec<bool>,
    /// The values written, one per output tensor, in order.
    pub outputs: Vec<usize>,
    /// The rank of the output shape, for strided reads (at least 1).
    pub rank: usize,
}

/// Input tensor `input` at output position `pos`.
#[cube]
fn load<F: Float, N: Size>(
    inputs: &Sequence<Tensor<Vector<F, N>>>,
    outputs: &Sequence<Tensor<Vector<F, N>>>,
    offsets: &Sequence<usize>,
    pos: usize,
    #[comptime] input: usize,
    #[comptime] strided: bool,
    #[comptime] rank: usize,
) -> Vector<F, N> {
    let tensor = inputs.index(input);
    let offset = *offsets.index(input);
    let mut at = offset + pos;
    if comptime![strided] {
        at = offset + strided_offset::<F, N, F, N>(tensor, outputs.index(0usize), pos, rank);
    }
    tensor[at]
}

/// The value of a computing step (every step but a load, which each kernel
/// addresses its own way) from the earlier `values` and the `scalars`.
#[cube]
pub fn fused_value<F: Float, N: Size>(
    values: &Sequence<Vector<F, N>>,
    scalars: &Sequence<InputScalar>,
    #[comptime] step: FusedOp,
) -> Vector<F, N> {
    match step {
        FusedOp::Load { .. } => {
            comptime![unreachable!(
                "fused_value: a load is read by its kernel, not computed"
            )]
        }
        FusedOp::Scalar { scalar } => Vector::<F, N>::new(scalars.index(scalar).get::<F>()),
        FusedOp::Unary { op, input } => float_unary::<F, N>(*values.index(input), op),
        FusedOp::Binary { op, lhs, rhs } => {
            float_binary::<F, N>(*values.index(lhs), *values.index(rhs), op)
        }
        FusedOp::PowI { input, exponent } => float_powi::<F, N>(*values.index(input), exponent),
        FusedOp::Select {
            input,
            cmp,
            bound,
            then,
        } => {
            let x = *values.index(input);
            let b = *values.index(bound);
            let when = match cmp {
                Comparison::Lower => x.less_than(b),
                Comparison::LowerEqual => x.less_equal(b),
            };
            select_many(when, *values.index(then), x)
        }
    }
}

/// The kernel of `block` over `len` positions (vectors of `N` values).
#[cube(launch_unchecked)]
pub fn fused_elementwise<F: Float, N: Size>(
    inputs: &Sequence<Tensor<Vector<F, N>>>,
    outputs: &mut Sequence<Tensor<Vector<F, N>>>,
    offsets: Sequence<usize>,
    scalars: Sequence<InputScalar>,
    len: usize,
    #[comptime] block: FusedBlock,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut values = Sequence::<Vector<F, N>>::new();
    #[unroll]
    for i in 0..comptime![block.steps.len()] {
        let step = comptime![block.steps[i]];
        let value = match step {
            FusedOp::Load { input } => load::<F, N>(
                inputs,
                outputs,
                &offsets,
                pos,
                input,
                comptime![block.strided[input]],
                comptime![block.rank],
            ),
            other => fused_value::<F, N>(&values, &scalars, other),
        };
        values.push(value);
    }
    #[unroll]
    for j in 0..comptime![block.outputs.len()] {
        let out = outputs.index_mut(j);
        out[pos] = *values.index(comptime![block.outputs[j]]);
    }
}

/// One input of a launch: the tensor and its offset, in vectors.
pub struct FusedInput<R: Runtime> {
    /// The tensor (its strides broadcast to the output shape).
    pub tensor: TensorArg<R>,
    /// Where its first element is, in vectors of the launch.
    pub offset: usize,
}

/// Launches the kernel of `block` over `units` positions of `vector`
/// values of storage type `dtype`.
///
/// # Safety
///
/// Every output is contiguous with `units * vector` elements; every input
/// marked linear in `block` holds `units * vector` elements from its offset
/// in the output's layout, every strided one is readable at each output
/// coordinate through its strides (zero where it broadcasts); `scalars`
/// and the inputs match what the block's steps index.
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch<R: Runtime>(
    client: &ComputeClient<R>,
    cube_count: CubeCount,
    cube_dim: CubeDim,
    vector: usize,
    block: FusedBlock,
    inputs: Vec<FusedInput<R>>,
    outputs: Vec<TensorArg<R>>,
    scalars: Vec<InputScalar>,
    units: usize,
    dtype: StorageType,
) {
    let offsets = inputs.iter().map(|input| input.offset).collect();
    let tensors = inputs.into_iter().map(|input| input.tensor).collect();
    let outs = outputs.into_iter().collect();
    let args = scalars.into_iter().collect();
    // SAFETY: the caller's contract.
    unsafe {
        fused_elementwise::launch_unchecked::<R>(
            client, cube_count, cube_dim, vector, tensors, outs, offsets, args, units, block, dtype,
        );
    }
}
