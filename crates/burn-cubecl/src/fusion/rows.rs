//! Row blocks on CubeCL: a [`ReduceProgram`] lowered to one
//! [`fused_rows`](burn_cubecl_fusion::reduce::fused_rows) kernel.
//!
//! Element-wise instructions lower as in element-wise blocks (the same
//! [`Lowering`]); a row register is a value that is the same in every lane
//! of its row. A mean is the sum divided by the row length, as
//! `mean_dim` is; a softmax is one statistic (the row's max and sum of
//! exponentials, online) and `exp(x - max) / sum` (`x - max - ln sum` for
//! log-softmax), as the unfused softmax kernel computes it.

use alloc::vec::Vec;

use burn_backend::ops::vocabulary::{BinaryOp, FloatUnaryOp};
use burn_cubecl_fusion::elementwise::{FusedInput, FusedOp};
use burn_cubecl_fusion::reduce::{self, Combine, Read, RowBlock, RowOp};
use burn_fusion::elementwise::Instruction;
use burn_fusion::reduce::{Extent, ReduceInstruction, ReduceProgram, RowReduce};
use burn_std::Scalar;

use super::{Lowering, kernel_args, vector_size};
use crate::client::with_runtime;
use crate::ops::broadcast_to;
use crate::ops::reduce::{line_cubes, max_block};
use crate::ops::softmax::plane_slots;
use crate::{CubeTensor, dtype};

/// Most units per cube of a row kernel.
const MAX_UNITS: usize = 1024;
/// Vectors a unit covers in a pass, at least (fewer units on shorter rows).
const VECTORS_PER_UNIT: usize = 4;

/// The row block's steps, its kernel scalars, and where each program
/// register's value is.
struct Lowered {
    steps: Vec<RowOp>,
    scalars: Vec<Scalar>,
    registers: Vec<usize>,
}

/// Lowers `program`; `full` and `row` number each program input among the
/// kernel's full and row inputs.
fn lower(program: &ReduceProgram, scalars: &[Scalar], full: &[usize], row: &[usize]) -> Lowered {
    let mut lowering = Lowering::<RowOp>::new(program.extents.len());
    let mut slots = 0;
    let n = program.row_len() as f64;
    for instruction in &program.instructions {
        let step = match *instruction {
            ReduceInstruction::Map(Instruction::Load { input, .. }) => {
                match program.input_extent(input) {
                    Extent::Full => lowering.push(FusedOp::Load { input: full[input] }),
                    Extent::Row => lowering.push_row(RowOp::LoadRow { input: row[input] }),
                }
            }
            ReduceInstruction::Map(step) => lowering.instruction(&step, scalars),
            ReduceInstruction::Reduce { op, input, .. } => {
                let input = lowering.registers[input];
                let combine = match op {
                    RowReduce::Sum | RowReduce::Mean => Combine::Sum,
                    RowReduce::Prod => Combine::Prod,
                    RowReduce::Max => Combine::Max,
                    RowReduce::Min => Combine::Min,
                };
                let total = lowering.push_row(RowOp::Reduce {
                    op: combine,
                    input,
                    slot: slots,
                });
                slots += 1;
                if op == RowReduce::Mean {
                    let len = lowering.constant(n);
                    lowering.binary(BinaryOp::Div, total, len)
                } else {
                    total
                }
            }
            ReduceInstruction::Softmax { log, input, .. } => {
                let x = lowering.registers[input];
                let max = lowering.push_row(RowOp::SoftmaxStats {
                    input: x,
                    slot: slots,
                });
                let sum = lowering.push_row(RowOp::Statistic { slot: slots + 1 });
                slots += 2;
                let centered = lowering.binary(BinaryOp::Sub, x, max);
                if log {
                    let log_sum = lowering.unary(FloatUnaryOp::Log, sum);
                    lowering.binary(BinaryOp::Sub, centered, log_sum)
                } else {
                    let exp = lowering.unary(FloatUnaryOp::Exp, centered);
                    lowering.binary(BinaryOp::Div, exp, sum)
                }
            }
        };
        lowering.registers[instruction.out()] = step;
    }
    Lowered {
        steps: lowering.steps,
        scalars: lowering.scalars,
        registers: lowering.registers,
    }
}

impl Lowering<RowOp> {
    fn push_row(&mut self, op: RowOp) -> usize {
        self.steps.push(op);
        self.steps.len() - 1
    }
}

/// How the kernel reads `t`, broadcast to the full shape: linearly when it
/// is contiguous in it, at the position in the row when it is one
/// contiguous row repeated (stride 1 along the row, 0 elsewhere), else
/// through its strides.
fn read_of(t: &CubeTensor, full: &burn_std::Shape) -> Read {
    let rank = full.num_dims();
    if t.shape == *full && t.is_contiguous() {
        Read::Linear
    } else if t.strides[rank - 1] == 1 && t.strides[..rank - 1].iter().all(|&s| s == 0) {
        Read::SameRow
    } else {
        Read::Strided
    }
}

/// Runs `program` as one kernel.
pub(super) fn run(
    program: &ReduceProgram,
    inputs: Vec<CubeTensor>,
    scalars: &[Scalar],
) -> Vec<CubeTensor> {
    let full_shape = &program.shape;
    let row_shape = program.row_shape();
    let first = inputs
        .first()
        .expect("a row program reads at least one tensor");
    let outputs: Vec<CubeTensor> = program
        .outputs
        .iter()
        .map(|o| {
            let shape = match program.extents[o.register] {
                Extent::Full => full_shape.clone(),
                Extent::Row => row_shape.clone(),
            };
            first.empty_like(shape, program.dtype)
        })
        .collect();
    let rows = program.rows();
    let row_len = program.row_len();
    if rows == 0 {
        return outputs;
    }
    // Full inputs broadcast to the full shape, row inputs to the row shape,
    // each numbered in its own list.
    let (mut full, mut row) = (Vec::new(), Vec::new());
    let (mut full_index, mut row_index) = (Vec::new(), Vec::new());
    for (i, t) in inputs.iter().enumerate() {
        match program.input_extent(i) {
            Extent::Full => {
                full_index.push(full.len());
                row_index.push(usize::MAX);
                full.push(broadcast_to(t, full_shape, "fused row block"));
            }
            Extent::Row => {
                row_index.push(row.len());
                full_index.push(usize::MAX);
                row.push(broadcast_to(t, &row_shape, "fused row block"));
            }
        }
    }
    let lowered = lower(program, scalars, &full_index, &row_index);
    let reads: Vec<Read> = full.iter().map(|t| read_of(t, full_shape)).collect();
    let strided: Vec<bool> = reads.iter().map(|r| *r == Read::Strided).collect();
    let (mut written, mut written_rows) = (Vec::new(), Vec::new());
    let (mut full_outputs, mut row_outputs) = (Vec::new(), Vec::new());
    for (output, tensor) in program.outputs.iter().zip(&outputs) {
        let value = lowered.registers[output.register];
        match program.extents[output.register] {
            Extent::Full => {
                written.push(value);
                full_outputs.push(tensor);
            }
            Extent::Row => {
                written_rows.push(value);
                row_outputs.push(tensor);
            }
        }
    }
    let dtype = program.dtype;
    let ty = dtype::storage(dtype);
    let args = kernel_args(lowered.scalars, dtype);
    with_runtime!(&first.client, R, c => {
        let vector = vector_size(c, dtype, row_len, &strided, &full);
        let row_vecs = row_len / vector;
        let units = row_vecs
            .div_ceil(VECTORS_PER_UNIT)
            .next_power_of_two()
            .clamp(32, MAX_UNITS)
            .min(max_block(c));
        let block = RowBlock {
            steps: lowered.steps,
            reads,
            outputs: written,
            row_outputs: written_rows,
            rank: full_shape.num_dims(),
            block: units,
            planes: plane_slots(c, units),
            vector,
        };
        let launch_inputs = full
            .iter()
            .map(|t| FusedInput {
                tensor: t.arg::<R>(),
                offset: t.offset / vector,
            })
            .collect();
        let row_args = row
            .iter()
            .map(|t| FusedInput {
                tensor: t.arg::<R>(),
                offset: t.offset,
            })
            .collect();
        let full_args = full_outputs.iter().map(|t| t.arg::<R>()).collect();
        let row_out_args = row_outputs.iter().map(|t| t.arg::<R>()).collect();
        // SAFETY: every output is a fresh contiguous tensor of the full or
        // row shape; full inputs are broadcast to the full shape (linear
        // ones contiguous in it, offsets divisible by `vector`), row inputs
        // to the row shape; the steps index only the inputs and scalars
        // built above; the cube has `units` units.
        unsafe {
            reduce::launch::<R>(
                c,
                line_cubes(c, rows),
                vector,
                block,
                launch_inputs,
                row_args,
                full_args,
                row_out_args,
                args,
                rows,
                row_vecs,
                ty,
            );
        }
    });
    outputs
}
