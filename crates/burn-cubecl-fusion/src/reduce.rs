//! The fused row kernel: reductions along the last dim with the
//! element-wise work before and after them, one cube per row.
//!
//! A [`RowBlock`] is a straight-line program over the elements of one row,
//! as [`FusedBlock`](crate::elementwise::FusedBlock) is over the elements of
//! a tensor, with two more kinds of step: row inputs (one value per row,
//! broadcast along it) and row statistics (a reduction along the row,
//! broadcast along it once known). The kernel runs one pass over the row
//! per statistic, in step order: the pass of statistic `k` computes the
//! steps before it (earlier statistics are known by then) and accumulates
//! it, each unit over its share of the row, then the cube combines the
//! units' partials ([`block_reduce`]). A last pass computes every step and
//! writes the outputs. Passes after the first re-read the row, which the
//! cube has just read (from L1/L2 on a GPU); a softmax takes one
//! statistic, its max and sum of exponentials together, kept online as the
//! unfused softmax kernel keeps them. Reductions accumulate in f32 for
//! f16 and bf16.

use alloc::vec::Vec;

use cubecl::prelude::*;

use crate::elementwise::{FusedInput, FusedOp, fused_value};

/// How a cube combines its units' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combine {
    /// The sum.
    Sum,
    /// The product.
    Prod,
    /// The maximum.
    Max,
    /// The minimum.
    Min,
}

/// One step of a [`RowBlock`]; step `i` writes value `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowOp {
    /// An element-wise step; its `Load` reads full input `input` at the
    /// element.
    Map(FusedOp),
    /// Row input `input` at this row, in every lane.
    LoadRow {
        /// The index in the kernel's row inputs.
        input: usize,
    },
    /// The row's `op` over value `input`; it is statistic `slot`.
    Reduce {
        /// The combination.
        op: Combine,
        /// The value reduced.
        input: usize,
        /// Its index among the row's statistics.
        slot: usize,
    },
    /// The row's max of value `input` (statistic `slot`) and the sum of
    /// `exp(input - max)` (statistic `slot + 1`), in one pass; the value is
    /// the max.
    SoftmaxStats {
        /// The value.
        input: usize,
        /// The max's index among the row's statistics.
        slot: usize,
    },
    /// Statistic `slot` of the row, in every lane.
    Statistic {
        /// Its index among the row's statistics.
        slot: usize,
    },
}

/// How a full input is read at vector `i` of row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Read {
    /// Contiguous in the full shape: at `offset + row · row_vecs + i`.
    Linear,
    /// One row broadcast over every row (a `[1, …, 1, n]` operand, as a
    /// layer norm's weight or an attention mask): at `offset + i`.
    SameRow,
    /// Through its strides (no vectors).
    Strided,
}

/// The compile-time configuration of one fused row kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RowBlock {
    /// The steps, in order.
    pub steps: Vec<RowOp>,
    /// How each full input is read.
    pub reads: Vec<Read>,
    /// The values written to full outputs, in order.
    pub outputs: Vec<usize>,
    /// The values written to row outputs (lane 0), in order.
    pub row_outputs: Vec<usize>,
    /// The rank of the full shape.
    pub rank: usize,
    /// Units per cube, a power of two.
    pub block: usize,
    /// Shared-memory slots for plane results (0: no plane operations).
    pub planes: usize,
    /// Values a vector holds (the launch's vector size).
    pub vector: usize,
}

/// Element offset of row-major position `elem` of `t`'s own shape in `t`.
#[cube]
fn own_offset<F: Float, N: Size>(
    t: &Tensor<Vector<F, N>>,
    elem: usize,
    #[comptime] rank: usize,
) -> usize {
    let mut rest = elem;
    let mut offset = 0;
    #[unroll]
    for k in 0..rank {
        let d = comptime![rank - 1 - k];
        offset += (rest % t.shape(d)) * t.stride(d);
        rest /= t.shape(d);
    }
    offset
}

/// `a` and `b` combined by `op`.
#[cube]
fn combine(a: f32, b: f32, #[comptime] op: Combine) -> f32 {
    match op {
        Combine::Sum => a + b,
        Combine::Prod => a * b,
        Combine::Max => select(b > a, b, a),
        Combine::Min => select(b < a, b, a),
    }
}

/// The identity of `op`.
#[cube]
fn identity(#[comptime] op: Combine) -> f32 {
    match op {
        Combine::Sum => 0.0f32,
        Combine::Prod => 1.0f32,
        Combine::Max => f32::min_value(),
        Combine::Min => f32::max_value(),
    }
}

/// Every unit's `v` combined by `op`, returned to every unit. With
/// `planes` > 0 (the device has plane operations and at most that many
/// planes fit in a cube) each plane combines in registers and the plane
/// results meet in shared memory, one barrier; otherwise a shared-memory
/// tree, one barrier a level. `block` is a power of two.
#[cube]
pub fn block_reduce(
    v: f32,
    tid: usize,
    #[comptime] block: usize,
    #[comptime] planes: usize,
    #[comptime] op: Combine,
) -> f32 {
    if comptime![planes > 0 && (op == Combine::Sum || op == Combine::Max || op == Combine::Min)] {
        let w = match op {
            Combine::Sum => plane_sum(v),
            Combine::Max => plane_max(v),
            _ => plane_min(v),
        };
        let mut shared = SharedMemory::<f32>::new(planes);
        let plane_dim = PLANE_DIM as usize;
        if UNIT_POS_PLANE == 0 {
            shared[tid / plane_dim] = w;
        }
        sync_cube();
        let count = block / plane_dim;
        let mut r = shared[0];
        for p in 1..count {
            r = combine(r, shared[p], op);
        }
        r
    } else {
        let mut shared = SharedMemory::<f32>::new(block);
        shared[tid] = v;
        sync_cube();
        let levels = comptime![block.trailing_zeros()];
        #[unroll]
        for level in 0..levels {
            let stride = comptime![block >> (level + 1)];
            if tid < stride {
                shared[tid] = combine(shared[tid], shared[tid + stride], op);
            }
            sync_cube();
        }
        shared[0]
    }
}

/// The position of the statistic step a pass accumulates, or the length
/// of the steps for the last pass.
fn pass_end(steps: &[RowOp], pass: usize) -> usize {
    steps
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, RowOp::Reduce { .. } | RowOp::SoftmaxStats { .. }))
        .map(|(i, _)| i)
        .nth(pass)
        .unwrap_or(steps.len())
}

/// How many passes a block takes: one per statistic step, and the last.
pub fn passes(block: &RowBlock) -> usize {
    1 + block
        .steps
        .iter()
        .filter(|s| matches!(s, RowOp::Reduce { .. } | RowOp::SoftmaxStats { .. }))
        .count()
}

/// The value of step `s` at vector `i` of row `row`, from earlier values.
#[cube]
#[allow(clippy::too_many_arguments)]
fn step_value<F: Float, N: Size>(
    inputs: &Sequence<Tensor<Vector<F, N>>>,
    row_inputs: &Sequence<Tensor<Vector<F, Const<1>>>>,
    offsets: &Sequence<usize>,
    row_offsets: &Sequence<usize>,
    scalars: &Sequence<InputScalar>,
    stats: &Sequence<f32>,
    values: &Sequence<Vector<F, N>>,
    row: usize,
    i: usize,
    row_vecs: usize,
    #[comptime] step: RowOp,
    #[comptime] block: RowBlock,
) -> Vector<F, N> {
    match step {
        RowOp::Map(op) => match op {
            FusedOp::Load { input } => {
                let tensor = inputs.index(input);
                let offset = *offsets.index(input);
                let at = match comptime![block.reads[input]] {
                    Read::Linear => offset + row * row_vecs + i,
                    Read::SameRow => offset + i,
                    Read::Strided => {
                        offset + own_offset::<F, N>(tensor, row * row_vecs + i, block.rank)
                    }
                };
                tensor[at]
            }
            other => fused_value::<F, N>(values, scalars, other),
        },
        RowOp::LoadRow { input } => {
            let tensor = row_inputs.index(input);
            let at = *row_offsets.index(input) + own_offset::<F, Const<1>>(tensor, row, block.rank);
            Vector::<F, N>::new(tensor[at][0])
        }
        RowOp::Reduce { slot, .. }
        | RowOp::SoftmaxStats { slot, .. }
        | RowOp::Statistic { slot } => Vector::<F, N>::new(F::cast_from(*stats.index(slot))),
    }
}

/// The kernel of `block`: cube `r` computes row `r` of `rows`, each row
/// `row_vecs` vectors of `N` values.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub fn fused_rows<F: Float, N: Size>(
    inputs: &Sequence<Tensor<Vector<F, N>>>,
    row_inputs: &Sequence<Tensor<Vector<F, Const<1>>>>,
    outputs: &mut Sequence<Tensor<Vector<F, N>>>,
    row_outputs: &mut Sequence<Tensor<Vector<F, Const<1>>>>,
    offsets: Sequence<usize>,
    row_offsets: Sequence<usize>,
    scalars: Sequence<InputScalar>,
    rows: usize,
    row_vecs: usize,
    #[comptime] block: RowBlock,
    #[define(F)] _dtype: StorageType,
) {
    let row = CUBE_POS;
    if row >= rows {
        terminate!();
    }
    let tid = UNIT_POS as usize;
    let units = comptime![block.block];
    let vs = comptime![block.vector];
    let mut stats = Sequence::<f32>::new();
    #[unroll]
    for pass in 0..comptime![passes(&block)] {
        let end = comptime![pass_end(&block.steps, pass)];
        let last = comptime![end == block.steps.len()];
        // What this pass accumulates: a reduction, a softmax's max and
        // sum, or nothing (the last pass).
        let target = comptime![if last {
            RowOp::Statistic { slot: 0 }
        } else {
            block.steps[end]
        }];
        let mut acc = match comptime![target] {
            RowOp::Reduce { op, .. } => identity(op),
            _ => 0.0f32,
        };
        let mut acc_max = Vector::<f32, N>::new(f32::min_value());
        let mut acc_sum = Vector::<f32, N>::new(0.0f32);
        let mut i = tid;
        while i < row_vecs {
            let mut values = Sequence::<Vector<F, N>>::new();
            #[unroll]
            for s in 0..end {
                let step = comptime![block.steps[s]];
                let value = step_value::<F, N>(
                    inputs,
                    row_inputs,
                    &offsets,
                    &row_offsets,
                    &scalars,
                    &stats,
                    &values,
                    row,
                    i,
                    row_vecs,
                    step,
                    comptime![block.clone()],
                );
                values.push(value);
            }
            match comptime![target] {
                RowOp::Reduce { op, input, .. } => {
                    let x = Vector::<f32, N>::cast_from(*values.index(input));
                    #[unroll]
                    for k in 0..vs {
                        acc = combine(acc, x[k], op);
                    }
                }
                RowOp::SoftmaxStats { input, .. } => {
                    let x = Vector::<f32, N>::cast_from(*values.index(input));
                    let m = select_many(x.greater_than(acc_max), x, acc_max);
                    acc_sum = acc_sum * Vector::exp(acc_max - m) + Vector::exp(x - m);
                    acc_max = m;
                }
                _ => {
                    #[unroll]
                    for j in 0..comptime![block.outputs.len()] {
                        let out = outputs.index_mut(j);
                        out[row * row_vecs + i] = *values.index(comptime![block.outputs[j]]);
                    }
                    if i == 0 {
                        #[unroll]
                        for j in 0..comptime![block.row_outputs.len()] {
                            let out = row_outputs.index_mut(j);
                            let v = *values.index(comptime![block.row_outputs[j]]);
                            out[row] = Vector::<F, Const<1>>::new(v[0]);
                        }
                    }
                }
            }
            i += units;
        }
        match comptime![target] {
            RowOp::Reduce { op, .. } => {
                stats.push(block_reduce(acc, tid, units, block.planes, op));
            }
            RowOp::SoftmaxStats { .. } => {
                let mut mu = acc_max[0];
                #[unroll]
                for k in 1..vs {
                    mu = select(acc_max[k] > mu, acc_max[k], mu);
                }
                let max = block_reduce(mu, tid, units, block.planes, Combine::Max);
                let mut su = 0.0f32;
                #[unroll]
                for k in 0..vs {
                    su += acc_sum[k] * f32::exp(acc_max[k] - max);
                }
                stats.push(max);
                stats.push(block_reduce(su, tid, units, block.planes, Combine::Sum));
            }
            _ => {}
        }
    }
}

/// Launches the kernel of `block` over `rows` rows of `row_vecs` vectors
/// of `vector` values of storage type `dtype`.
///
/// # Safety
///
/// Full inputs' offsets are in vectors of the launch, row inputs' in
/// elements. Every full output is contiguous with `rows * row_vecs * vector`
/// elements, every row output contiguous with `rows`; every full input
/// marked linear holds the full shape contiguously from its offset, every
/// strided one (and every row input) is readable at each coordinate of
/// its own shape (the full shape, the row shape) through its strides;
/// `scalars` and the inputs match what the steps index; `block.block` is
/// the cube's unit count.
#[allow(clippy::too_many_arguments)]
pub unsafe fn launch<R: Runtime>(
    client: &ComputeClient<R>,
    cube_count: CubeCount,
    vector: usize,
    block: RowBlock,
    inputs: Vec<FusedInput<R>>,
    row_inputs: Vec<FusedInput<R>>,
    outputs: Vec<TensorArg<R>>,
    row_outputs: Vec<TensorArg<R>>,
    scalars: Vec<InputScalar>,
    rows: usize,
    row_vecs: usize,
    dtype: StorageType,
) {
    let offsets = inputs.iter().map(|input| input.offset).collect();
    let row_offsets = row_inputs.iter().map(|input| input.offset).collect();
    let tensors = inputs.into_iter().map(|input| input.tensor).collect();
    let row_tensors = row_inputs.into_iter().map(|input| input.tensor).collect();
    let cube_dim = CubeDim::new_1d(block.block as u32);
    // SAFETY: the caller's contract.
    unsafe {
        fused_rows::launch_unchecked::<R>(
            client,
            cube_count,
            cube_dim,
            vector,
            tensors,
            row_tensors,
            outputs.into_iter().collect(),
            row_outputs.into_iter().collect(),
            offsets,
            row_offsets,
            scalars.into_iter().collect(),
            rows,
            row_vecs,
            block,
            dtype,
        );
    }
}

impl From<FusedOp> for RowOp {
    fn from(op: FusedOp) -> Self {
        RowOp::Map(op)
    }
}
