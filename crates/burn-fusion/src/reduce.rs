//! Row blocks: reductions along the last dim with the element-wise work
//! before and after them, in one pass over memory.
//!
//! A row block has a shape, the *full* shape, whose last dim is the row.
//! Every tensor of the block has either the full shape (a full register,
//! one value per element) or the full shape with a last dim of 1 (a row
//! register, one value per row, which broadcasts along the row when a full
//! operation reads it). Reductions along the last dim turn a full register
//! into a row register; softmax and log-softmax along it read a full row
//! and write one. Everything else is an [`Instruction`] of the element-wise
//! vocabulary, on full registers or on row registers only.
//!
//! That covers softmax after a scaled, masked score (`softmax(x * s + m)`),
//! the composed layer norm (`mean`, `x - mean`, the mean of squares, `+ eps`,
//! `sqrt`, `/`, `* gamma + beta`), RMS norm, and the mean and variance of a
//! chain's output. A backend implements [`ReduceBackend::run_reduce`]; the
//! builder, [`ReduceBuilder`], decides what may join, as
//! [`ElementwiseBuilder`](crate::ElementwiseBuilder) does for plain chains:
//! one float dtype, each input read once, an intermediate written only if
//! something outside the block may still read it.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::marker::PhantomData;

use burn_backend::FloatTensor;
use burn_backend::ops::vocabulary::ReduceOp;
use burn_ir::{
    ActivationOperationIr, DimOpIr, HandleContainer, NumericKind, NumericOperationIr, OperationIr,
};
use burn_std::{DType, Scalar, Shape};

use crate::elementwise::{
    Block, BlockRef, BoundProgram, Instruction, MAX_REGISTERS, ProgramInput, ProgramOutput,
    Register, step,
};
use crate::{FusionBackend, Optimization, OptimizationBuilder};

/// The longest row a block takes: a CPU backend keeps a few rows of this
/// length in its cache, a GPU one a row per group of threads.
pub const MAX_ROW: usize = 1 << 16;

/// A reduction along the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowReduce {
    /// The sum.
    Sum,
    /// The sum divided by the row length (as `sum_dim`, then a division by
    /// the length as a scalar).
    Mean,
    /// The product.
    Prod,
    /// The largest value (NaN propagates).
    Max,
    /// The smallest value (NaN propagates).
    Min,
}

/// What a register holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extent {
    /// One value per element of the block's shape.
    Full,
    /// One value per row, broadcast along the row when read by a full step.
    Row,
}

/// One step of a row program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReduceInstruction {
    /// An element-wise step: on row registers only (the result is a row
    /// register), or on full registers with row registers broadcast.
    Map(Instruction),
    /// `out` (row) = `op` over the row of `input` (full).
    Reduce {
        /// The reduction.
        op: RowReduce,
        /// The full register reduced.
        input: Register,
        /// The row register written.
        out: Register,
    },
    /// `out` (full) = softmax, or log-softmax when `log`, of the row of
    /// `input` (full), as the backend's own `softmax` computes it.
    Softmax {
        /// Log-softmax rather than softmax.
        log: bool,
        /// The full register read.
        input: Register,
        /// The full register written.
        out: Register,
    },
}

impl ReduceInstruction {
    /// The register this instruction writes.
    pub fn out(&self) -> Register {
        match *self {
            ReduceInstruction::Map(instruction) => instruction.out(),
            ReduceInstruction::Reduce { out, .. } | ReduceInstruction::Softmax { out, .. } => out,
        }
    }

    /// The registers this instruction reads.
    pub fn operands(&self) -> impl Iterator<Item = Register> + use<> {
        let (map, single) = match *self {
            ReduceInstruction::Map(instruction) => (Some(instruction), None),
            ReduceInstruction::Reduce { input, .. } | ReduceInstruction::Softmax { input, .. } => {
                (None, Some(input))
            }
        };
        map.into_iter().flat_map(|i| i.operands()).chain(single)
    }
}

/// A fused row block.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceProgram {
    /// The full shape; rows run along its last dim.
    pub shape: Shape,
    /// The dtype of every tensor read and written (a float dtype).
    pub dtype: DType,
    /// The tensors read, each once: a full-extent one broadcasts to the
    /// full shape, a row-extent one to the row shape.
    pub inputs: Vec<ProgramInput>,
    /// The scalar arguments.
    pub scalars: Vec<BlockRef>,
    /// The steps, in order; each register is written once.
    pub instructions: Vec<ReduceInstruction>,
    /// The registers written to tensors (of the full or the row shape, as
    /// the register's extent).
    pub outputs: Vec<ProgramOutput>,
    /// The extent of each register.
    pub extents: Vec<Extent>,
}

impl ReduceProgram {
    /// The length of a row (the last dim of the full shape).
    pub fn row_len(&self) -> usize {
        *self.shape.dims.last().expect("a row block has a rank")
    }

    /// How many rows the full shape holds.
    pub fn rows(&self) -> usize {
        self.shape.num_elements() / self.row_len()
    }

    /// The shape of a row register's tensor.
    pub fn row_shape(&self) -> Shape {
        row_shape(&self.shape)
    }

    /// The extent of input `index`.
    pub fn input_extent(&self, index: usize) -> Extent {
        extent(&self.shape, &self.inputs[index].shape)
    }

    /// The ids, statuses and values the program runs with for the block
    /// `ops` (one of the relative form it was built from).
    pub fn bind(&self, ops: &[&OperationIr]) -> BoundProgram {
        BoundProgram::new(ops, &self.inputs, &self.scalars, &self.outputs)
    }
}

fn row_shape(full: &Shape) -> Shape {
    let mut dims = full.dims.clone();
    *dims.last_mut().expect("a row block has a rank") = 1;
    Shape::from(dims)
}

fn extent(full: &Shape, shape: &Shape) -> Extent {
    if shape.dims.last() == Some(&1) && full.dims.last() != Some(&1) {
        Extent::Row
    } else {
        Extent::Full
    }
}

/// A backend that runs row programs.
pub trait ReduceBackend: FusionBackend {
    /// Runs `program` on `inputs` (one tensor per program input, in order;
    /// `program.inputs[i].consumed` says whether the caller handed over its
    /// last handle) with `scalars` (in order), returning one tensor per
    /// program output, in order, each of its register's extent's shape.
    fn run_reduce(
        program: &ReduceProgram,
        inputs: Vec<FloatTensor<Self>>,
        scalars: &[Scalar],
        device: &Self::Device,
    ) -> Vec<FloatTensor<Self>>;
}

/// Grows row blocks for the backend `B`.
pub struct ReduceBuilder<B> {
    /// The block and its full shape.
    block: Option<(Block, Shape)>,
    instructions: Vec<ReduceInstruction>,
    /// Reductions and softmaxes accepted.
    reductions: usize,
    _backend: PhantomData<B>,
}

impl<B> Default for ReduceBuilder<B> {
    fn default() -> Self {
        Self {
            block: None,
            instructions: Vec::new(),
            reductions: 0,
            _backend: PhantomData,
        }
    }
}

/// A row-level step of an operation: a reduction or a softmax along `dim`.
enum RowStep<'a> {
    Reduce(RowReduce, &'a DimOpIr),
    Softmax(bool, &'a DimOpIr),
}

fn row_step(op: &OperationIr) -> Option<RowStep<'_>> {
    use NumericOperationIr as N;
    Some(match op {
        OperationIr::Numeric(NumericKind::Float, N::ReduceDim { op, desc }) => {
            let op = match op {
                ReduceOp::Sum => RowReduce::Sum,
                ReduceOp::Prod => RowReduce::Prod,
                ReduceOp::Max => RowReduce::Max,
                ReduceOp::Min => RowReduce::Min,
            };
            RowStep::Reduce(op, desc)
        }
        OperationIr::Numeric(NumericKind::Float, N::MeanDim(desc)) => {
            RowStep::Reduce(RowReduce::Mean, desc)
        }
        OperationIr::Activation(ActivationOperationIr::Softmax(desc)) => {
            RowStep::Softmax(false, desc)
        }
        OperationIr::Activation(ActivationOperationIr::LogSoftmax(desc)) => {
            RowStep::Softmax(true, desc)
        }
        _ => return None,
    })
}

/// Whether `shape` can be a block's full shape.
fn full_shape_ok(shape: &Shape) -> bool {
    shape
        .dims
        .last()
        .is_some_and(|&n| (2..=MAX_ROW).contains(&n))
}

impl<B: ReduceBackend> ReduceBuilder<B> {
    /// Joins a reduction or softmax to the block (`None`: refused; the
    /// caller restores the block).
    fn join_row_step(&mut self, row: RowStep<'_>) -> Option<()> {
        let desc = match &row {
            RowStep::Reduce(_, desc) | RowStep::Softmax(_, desc) => *desc,
        };
        if !desc.input.dtype.is_float() || !full_shape_ok(&desc.input.shape) {
            return None;
        }
        let (block, full) = self
            .block
            .get_or_insert_with(|| (Block::new(desc.input.dtype), desc.input.shape.clone()));
        if desc.input.shape != *full || desc.dim + 1 != full.rank() {
            return None;
        }
        let mut code = Vec::new();
        let input = block.operand(&desc.input, block.at(0), full, &mut code)?;
        if block.shapes[input] != *full {
            return None;
        }
        let out = block.new_register(desc.out.shape.clone());
        self.instructions
            .extend(code.into_iter().map(ReduceInstruction::Map));
        self.instructions.push(match row {
            RowStep::Reduce(op, _) => ReduceInstruction::Reduce { op, input, out },
            RowStep::Softmax(log, _) => ReduceInstruction::Softmax { log, input, out },
        });
        block.define(&desc.out, out);
        self.reductions += 1;
        Some(())
    }
}

impl<B: ReduceBackend> OptimizationBuilder<B> for ReduceBuilder<B> {
    fn name(&self) -> &'static str {
        "reduce"
    }

    fn register(&mut self, op: &OperationIr) -> bool {
        if self
            .block
            .as_ref()
            .is_some_and(|(b, _)| b.shapes.len() + 4 > MAX_REGISTERS)
        {
            return false;
        }
        // Work on a copy: a refused operation must leave the block as it was.
        let saved = (self.block.clone(), self.instructions.len(), self.reductions);
        let joined = if let Some(row) = row_step(op) {
            self.join_row_step(row)
        } else if let Some((step, out)) = step(op) {
            (|| {
                if !out.dtype.is_float() {
                    return None;
                }
                let (block, full) = match &mut self.block {
                    Some(open) => open,
                    None if full_shape_ok(&out.shape) => self
                        .block
                        .insert((Block::new(out.dtype), out.shape.clone())),
                    None => return None,
                };
                if out.dtype != block.dtype || (out.shape != *full && out.shape != row_shape(full))
                {
                    return None;
                }
                let mut code = Vec::new();
                block.lower(step, out, &mut code)?;
                self.instructions
                    .extend(code.into_iter().map(ReduceInstruction::Map));
                Some(())
            })()
        } else {
            None
        };
        if joined.is_none() {
            (self.block, _, self.reductions) = saved;
            self.instructions.truncate(saved.1);
            return false;
        }
        true
    }

    fn len(&self) -> usize {
        self.block.as_ref().map_or(0, |(b, _)| b.ops)
    }

    fn is_worth_fusing(&self) -> bool {
        self.reductions >= 1 && self.len() >= 2
    }

    fn build(&self) -> Arc<dyn Optimization<B>> {
        let (block, full) = self.block.as_ref().expect("a block to build");
        let program = ReduceProgram {
            shape: full.clone(),
            dtype: block.dtype,
            inputs: block.inputs.clone(),
            scalars: block.scalars.clone(),
            instructions: self.instructions.clone(),
            outputs: block.outputs(),
            extents: block.shapes.iter().map(|s| extent(full, s)).collect(),
        };
        Arc::new(ReduceOptimization::<B> {
            program,
            _backend: PhantomData,
        })
    }

    fn reset(&mut self) {
        *self = Self::default();
    }
}

/// A built row block.
pub struct ReduceOptimization<B> {
    program: ReduceProgram,
    _backend: PhantomData<B>,
}

impl<B: ReduceBackend> ReduceOptimization<B> {
    /// The program this block runs.
    pub fn program(&self) -> &ReduceProgram {
        &self.program
    }
}

impl<B: ReduceBackend> Optimization<B> for ReduceOptimization<B> {
    fn execute(
        &self,
        ops: &[&OperationIr],
        handles: &mut HandleContainer<B>,
        device: &B::Device,
    ) -> Result<(), alloc::string::String> {
        self.program
            .bind(ops)
            .execute(&self.program.inputs, handles, |inputs, scalars| {
                B::run_reduce(&self.program, inputs, scalars, device)
            })
    }
}
