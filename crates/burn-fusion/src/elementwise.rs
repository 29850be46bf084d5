//! Element-wise blocks: a chain of float element-wise operations over one
//! output shape, described as a straight-line program a backend compiles
//! or interprets in one pass over memory.
//!
//! The builder decides what may join a block; it knows nothing of kernels.
//! A backend implements [`ElementwiseBackend::run_elementwise`] for the
//! [`ElementwiseProgram`] it is handed, and [`ElementwiseBuilder`] does the
//! rest: which tensors are read (each once, whatever the number of uses),
//! which intermediate results must be written (those the program or later
//! operations may still read) and which stay in registers.
//!
//! Rules (each keeps a fused block's result equal to the unfused one):
//! - every operation of the block is element-wise over the block's shape,
//!   which is the first operation's output shape; operands may broadcast to
//!   it, outputs may not differ from it;
//! - every tensor of the block has one float dtype;
//! - a tensor computed in the block and consumed there (its last use,
//!   `ReadWrite`) is not written; every other computed tensor is.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::marker::PhantomData;

use burn_backend::ops::vocabulary::{BinaryOp, FloatBinaryOp, FloatUnaryOp};
use burn_backend::{FloatTensor, TensorMetadata};
use burn_ir::{
    ActivationOperationIr, FloatOperationIr, HandleContainer, NumericKind, NumericOperationIr,
    OperationIr, TensorId, TensorIr, TensorStatus,
};
use burn_std::{DType, Scalar, Shape};

use crate::{FusionBackend, Optimization, OptimizationBuilder};

/// A register of the program: one value per output element.
pub type Register = usize;

/// The activations an element-wise program computes directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `max(x, 0)`.
    Relu,
    /// `x · Φ(x)` (the erf form, as the backends' `gelu`).
    Gelu,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// `x · sigmoid(x)`.
    Silu,
    /// `ln(sigmoid(x))`.
    LogSigmoid,
}

/// One step of an element-wise program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instruction {
    /// `out` = input tensor `input`, broadcast to the program's shape.
    Load {
        /// The index in [`ElementwiseProgram::inputs`].
        input: usize,
        /// The register written.
        out: Register,
    },
    /// `out = op(input)`.
    Unary {
        /// The function.
        op: FloatUnaryOp,
        /// The operand.
        input: Register,
        /// The register written.
        out: Register,
    },
    /// `out = lhs op rhs`.
    Binary {
        /// The arithmetic.
        op: BinaryOp,
        /// The left operand.
        lhs: Register,
        /// The right operand.
        rhs: Register,
        /// The register written.
        out: Register,
    },
    /// `out = lhs op scalar`.
    BinaryScalar {
        /// The arithmetic.
        op: BinaryOp,
        /// The tensor operand.
        lhs: Register,
        /// The index in [`ElementwiseProgram::scalars`].
        scalar: usize,
        /// The register written.
        out: Register,
    },
    /// `out = op(lhs, rhs)` for the float-only binary ops.
    FloatBinary {
        /// The op.
        op: FloatBinaryOp,
        /// The left operand.
        lhs: Register,
        /// The right operand.
        rhs: Register,
        /// The register written.
        out: Register,
    },
    /// `out = clamp(input, min, max)`; a missing bound is not applied.
    Clamp {
        /// The operand.
        input: Register,
        /// The lower bound, a scalar index.
        min: Option<usize>,
        /// The upper bound, a scalar index.
        max: Option<usize>,
        /// The register written.
        out: Register,
    },
    /// `out = activation(input)`.
    Activation {
        /// The function.
        op: Activation,
        /// The operand.
        input: Register,
        /// The register written.
        out: Register,
    },
    /// `out = input > 0 ? input : slope · input`.
    LeakyRelu {
        /// The operand.
        input: Register,
        /// The slope, a scalar index.
        slope: usize,
        /// The register written.
        out: Register,
    },
    /// `out = clamp(alpha · input + beta, 0, 1)`.
    HardSigmoid {
        /// The operand.
        input: Register,
        /// The slope, a scalar index.
        alpha: usize,
        /// The offset, a scalar index.
        beta: usize,
        /// The register written.
        out: Register,
    },
}

/// Where a value of the program comes from, relative to the block: the
/// `index`-th item (input tensor, scalar or output) of the block's `op`-th
/// operation. The same program serves every block of the same relative
/// form, so it never stores ids or scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockRef {
    /// The operation, by position in the block.
    pub op: usize,
    /// The item, by position in that operation's list.
    pub index: usize,
}

/// A tensor the program reads.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramInput {
    /// Its first use in the block.
    pub source: BlockRef,
    /// Its shape (broadcast to the program's).
    pub shape: Shape,
    /// Whether the block holds its last use (its buffer may be reused).
    pub consumed: bool,
}

/// A register the program writes to a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramOutput {
    /// The register.
    pub register: Register,
    /// The tensor, as the output of one of the block's operations.
    pub target: BlockRef,
}

/// A fused element-wise block.
#[derive(Clone, Debug, PartialEq)]
pub struct ElementwiseProgram {
    /// The shape every register has.
    pub shape: Shape,
    /// The dtype of every tensor read and written (a float dtype).
    pub dtype: DType,
    /// The tensors read, each once.
    pub inputs: Vec<ProgramInput>,
    /// The scalar arguments.
    pub scalars: Vec<BlockRef>,
    /// The steps, in order; each register is written once.
    pub instructions: Vec<Instruction>,
    /// The registers written to tensors.
    pub outputs: Vec<ProgramOutput>,
    /// How many registers the program uses.
    pub registers: usize,
}

impl ElementwiseProgram {
    /// The ids, statuses and values the program runs with for the block
    /// `ops` (one of the relative form it was built from).
    pub fn bind(&self, ops: &[&OperationIr]) -> BoundProgram {
        BoundProgram::new(ops, &self.inputs, &self.scalars, &self.outputs)
    }
}

/// A program bound to one block.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundProgram {
    /// The tensors read, as [`ElementwiseProgram::inputs`] (a consumed one
    /// has its `ReadWrite` use).
    pub inputs: Vec<TensorIr>,
    /// The scalar values, as [`ElementwiseProgram::scalars`].
    pub scalars: Vec<Scalar>,
    /// The tensors written, as [`ElementwiseProgram::outputs`].
    pub outputs: Vec<TensorIr>,
}

impl BoundProgram {
    /// Binds a program's inputs, scalars and outputs to the block `ops`.
    pub(crate) fn new(
        ops: &[&OperationIr],
        inputs: &[ProgramInput],
        scalars: &[BlockRef],
        outputs: &[ProgramOutput],
    ) -> Self {
        let inputs = inputs
            .iter()
            .map(|input| ops[input.source.op].tensors().inputs[input.source.index].clone())
            .collect();
        let scalars = scalars
            .iter()
            .map(|s| {
                let mut op = ops[s.op].clone();
                op.scalars_mut()[s.index].value
            })
            .collect();
        let outputs = outputs
            .iter()
            .map(|o| ops[o.target.op].tensors().outputs[o.target.index].clone())
            .collect();
        Self {
            inputs,
            scalars,
            outputs,
        }
    }

    /// Takes the inputs from `handles` (those `program_inputs` mark
    /// consumed with their `ReadWrite` use), runs `kernel` on them and
    /// registers its outputs.
    pub(crate) fn execute<B: FusionBackend>(
        &self,
        program_inputs: &[ProgramInput],
        handles: &mut HandleContainer<B>,
        kernel: impl FnOnce(Vec<FloatTensor<B>>, &[Scalar]) -> Vec<FloatTensor<B>>,
    ) -> Result<(), String> {
        let inputs = self
            .inputs
            .iter()
            .zip(program_inputs)
            .map(|(tensor, input)| {
                let mut tensor = tensor.clone();
                tensor.status = if input.consumed {
                    TensorStatus::ReadWrite
                } else {
                    TensorStatus::ReadOnly
                };
                handles.take_float(&tensor).map_err(|e| format!("{e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let outputs = kernel(inputs, &self.scalars);
        if outputs.len() != self.outputs.len() {
            return Err(format!(
                "the fused kernel wrote {} tensors, the block has {}",
                outputs.len(),
                self.outputs.len()
            ));
        }
        for (tensor, out) in self.outputs.iter().zip(outputs) {
            if out.shape() != tensor.shape {
                return Err(format!(
                    "the fused kernel wrote a tensor of shape {} for one of shape {}",
                    out.shape(),
                    tensor.shape
                ));
            }
            handles.register(tensor, burn_ir::Handle::Float(out))?;
        }
        Ok(())
    }
}

/// A backend that runs element-wise programs.
pub trait ElementwiseBackend: FusionBackend {
    /// Runs `program` on `inputs` (one tensor per program input, in order;
    /// `program.inputs[i].consumed` says whether the caller handed over its
    /// last handle) with `scalars` (in order), returning one tensor per
    /// program output, in order, each of the program's shape and dtype.
    fn run_elementwise(
        program: &ElementwiseProgram,
        inputs: Vec<FloatTensor<Self>>,
        scalars: &[Scalar],
        device: &Self::Device,
    ) -> Vec<FloatTensor<Self>>;
}

/// The most registers a program may use: a GPU kernel keeps them in
/// registers, a CPU one in a scratch chunk each.
pub const MAX_REGISTERS: usize = 48;
/// The most tensors a program may read or write (kernel arguments).
pub const MAX_TENSORS: usize = 16;

/// Grows element-wise blocks for the backend `B`.
pub struct ElementwiseBuilder<B> {
    /// The block and its shape (the first operation's output shape).
    block: Option<(Block, Shape)>,
    instructions: Vec<Instruction>,
    _backend: PhantomData<B>,
}

impl<B> Default for ElementwiseBuilder<B> {
    fn default() -> Self {
        Self {
            block: None,
            instructions: Vec::new(),
            _backend: PhantomData,
        }
    }
}

/// What an accepted operation computes, before registers are assigned.
pub(crate) enum Step<'a> {
    Unary(FloatUnaryOp, &'a TensorIr),
    Binary(BinaryOp, &'a TensorIr, Operand<'a>),
    FloatBinary(FloatBinaryOp, &'a TensorIr, &'a TensorIr),
    Clamp(&'a TensorIr, bool, bool),
    Activation(Activation, &'a TensorIr),
    LeakyRelu(&'a TensorIr),
    HardSigmoid(&'a TensorIr),
}

/// The right operand of a binary step: a tensor, or the op's first scalar.
pub(crate) enum Operand<'a> {
    Tensor(&'a TensorIr),
    Scalar,
}

/// The element-wise step of `op`, if it is one the builders fuse, and its output.
pub(crate) fn step(op: &OperationIr) -> Option<(Step<'_>, &TensorIr)> {
    use ActivationOperationIr as A;
    use NumericOperationIr as N;
    Some(match op {
        OperationIr::Numeric(NumericKind::Float, N::Binary { op, desc }) => (
            Step::Binary(*op, &desc.lhs, Operand::Tensor(&desc.rhs)),
            &desc.out,
        ),
        OperationIr::Numeric(NumericKind::Float, N::BinaryScalar { op, desc }) => {
            (Step::Binary(*op, &desc.lhs, Operand::Scalar), &desc.out)
        }
        OperationIr::Numeric(
            NumericKind::Float,
            N::Clamp {
                input,
                min,
                max,
                out,
            },
        ) => (Step::Clamp(input, min.is_some(), max.is_some()), out),
        OperationIr::Float(FloatOperationIr::Unary { op, desc }) => {
            (Step::Unary(*op, &desc.input), &desc.out)
        }
        OperationIr::Float(FloatOperationIr::Binary { op, desc }) => {
            (Step::FloatBinary(*op, &desc.lhs, &desc.rhs), &desc.out)
        }
        OperationIr::Activation(a) => match a {
            A::Relu(d) => (Step::Activation(Activation::Relu, &d.input), &d.out),
            A::Gelu(d) => (Step::Activation(Activation::Gelu, &d.input), &d.out),
            A::Sigmoid(d) => (Step::Activation(Activation::Sigmoid, &d.input), &d.out),
            A::Silu(d) => (Step::Activation(Activation::Silu, &d.input), &d.out),
            A::LogSigmoid(d) => (Step::Activation(Activation::LogSigmoid, &d.input), &d.out),
            A::LeakyRelu(d) => (Step::LeakyRelu(&d.lhs), &d.out),
            A::HardSigmoid { input, out, .. } => (Step::HardSigmoid(input), out),
            A::ReluBackward(_)
            | A::GeluBackward(_)
            | A::SigmoidBackward(_)
            | A::LogSigmoidBackward(_)
            | A::Softmax(_)
            | A::LogSoftmax(_) => return None,
        },
        _ => return None,
    })
}

/// A block being grown, whatever its builder: the tensors it reads, the
/// scalars it takes, the register of every tensor it holds, and which of
/// them it computes and consumes. Registers are numbered in the order they
/// are created, so an operand's register is always below its result's.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// The dtype of every tensor of the block.
    pub(crate) dtype: DType,
    /// The tensors read, each once.
    pub(crate) inputs: Vec<ProgramInput>,
    /// The scalar arguments.
    pub(crate) scalars: Vec<BlockRef>,
    /// The shape of each register's tensor.
    pub(crate) shapes: Vec<Shape>,
    registers: BTreeMap<TensorId, Register>,
    /// Tensors computed in the block: their register and where they come from.
    computed: BTreeMap<TensorId, (Register, BlockRef)>,
    /// Tensors computed in the block and consumed in it.
    consumed: Vec<TensorId>,
    /// The program input of each tensor the block reads from outside.
    loaded: BTreeMap<TensorId, usize>,
    /// Operations accepted.
    pub(crate) ops: usize,
}

impl Block {
    pub(crate) fn new(dtype: DType) -> Self {
        Self {
            dtype,
            inputs: Vec::new(),
            scalars: Vec::new(),
            shapes: Vec::new(),
            registers: BTreeMap::new(),
            computed: BTreeMap::new(),
            consumed: Vec::new(),
            loaded: BTreeMap::new(),
            ops: 0,
        }
    }

    /// The reference to item `index` of the operation being registered.
    pub(crate) fn at(&self, index: usize) -> BlockRef {
        BlockRef {
            op: self.ops,
            index,
        }
    }

    /// The register of a tensor operand, whose shape must broadcast to
    /// `target`: the one it already has in the block, or a new load pushed
    /// to `code` (`None` when the block cannot take it).
    pub(crate) fn operand(
        &mut self,
        tensor: &TensorIr,
        source: BlockRef,
        target: &Shape,
        code: &mut Vec<Instruction>,
    ) -> Option<Register> {
        let fits = |shape: &Shape| shape.broadcast(target).ok().as_ref() == Some(target);
        if let Some(&register) = self.registers.get(&tensor.id) {
            if !fits(&self.shapes[register]) {
                return None;
            }
            if tensor.status == TensorStatus::ReadWrite {
                if self.computed.contains_key(&tensor.id) {
                    self.consumed.push(tensor.id);
                } else if let Some(&input) = self.loaded.get(&tensor.id) {
                    self.inputs[input].consumed = true;
                }
            }
            return Some(register);
        }
        if tensor.dtype != self.dtype || self.inputs.len() >= MAX_TENSORS || !fits(&tensor.shape) {
            return None;
        }
        let register = self.new_register(tensor.shape.clone());
        self.inputs.push(ProgramInput {
            source,
            shape: tensor.shape.clone(),
            consumed: tensor.status == TensorStatus::ReadWrite,
        });
        let input = self.inputs.len() - 1;
        code.push(Instruction::Load {
            input,
            out: register,
        });
        self.loaded.insert(tensor.id, input);
        self.registers.insert(tensor.id, register);
        Some(register)
    }

    /// A scalar argument: its index in the program's scalars.
    pub(crate) fn scalar(&mut self, source: BlockRef) -> usize {
        self.scalars.push(source);
        self.scalars.len() - 1
    }

    /// A new register for a tensor of `shape`.
    pub(crate) fn new_register(&mut self, shape: Shape) -> Register {
        self.shapes.push(shape);
        self.shapes.len() - 1
    }

    /// Records `out` as computed into `register` by the operation being
    /// registered, which is then accepted.
    pub(crate) fn define(&mut self, out: &TensorIr, register: Register) {
        self.registers.insert(out.id, register);
        self.computed.insert(out.id, (register, self.at(0)));
        self.ops += 1;
    }

    /// Lowers the element-wise `step` whose output is `out` (operands
    /// broadcast to `out`'s shape): its loads and its instruction go to
    /// `code`. `None` when an operand cannot join; the caller then restores
    /// the block it saved.
    pub(crate) fn lower(
        &mut self,
        step: Step<'_>,
        out: &TensorIr,
        code: &mut Vec<Instruction>,
    ) -> Option<()> {
        let target = &out.shape;
        let mut instruction = match step {
            Step::Unary(op, input) => {
                let input = self.operand(input, self.at(0), target, code)?;
                Instruction::Unary { op, input, out: 0 }
            }
            Step::Binary(op, lhs, rhs) => {
                let lhs = self.operand(lhs, self.at(0), target, code)?;
                match rhs {
                    Operand::Tensor(rhs) => {
                        let rhs = self.operand(rhs, self.at(1), target, code)?;
                        Instruction::Binary {
                            op,
                            lhs,
                            rhs,
                            out: 0,
                        }
                    }
                    Operand::Scalar => Instruction::BinaryScalar {
                        op,
                        lhs,
                        scalar: self.scalar(self.at(0)),
                        out: 0,
                    },
                }
            }
            Step::FloatBinary(op, lhs, rhs) => {
                let lhs = self.operand(lhs, self.at(0), target, code)?;
                let rhs = self.operand(rhs, self.at(1), target, code)?;
                Instruction::FloatBinary {
                    op,
                    lhs,
                    rhs,
                    out: 0,
                }
            }
            Step::Clamp(input, has_min, has_max) => {
                let input = self.operand(input, self.at(0), target, code)?;
                let min = has_min.then(|| self.scalar(self.at(0)));
                let max = has_max.then(|| self.scalar(self.at(usize::from(has_min))));
                Instruction::Clamp {
                    input,
                    min,
                    max,
                    out: 0,
                }
            }
            Step::Activation(op, input) => {
                let input = self.operand(input, self.at(0), target, code)?;
                Instruction::Activation { op, input, out: 0 }
            }
            Step::LeakyRelu(input) => {
                let input = self.operand(input, self.at(0), target, code)?;
                Instruction::LeakyRelu {
                    input,
                    slope: self.scalar(self.at(0)),
                    out: 0,
                }
            }
            Step::HardSigmoid(input) => {
                let input = self.operand(input, self.at(0), target, code)?;
                Instruction::HardSigmoid {
                    input,
                    alpha: self.scalar(self.at(0)),
                    beta: self.scalar(self.at(1)),
                    out: 0,
                }
            }
        };
        let register = self.new_register(out.shape.clone());
        *instruction.out_mut() = register;
        code.push(instruction);
        self.define(out, register);
        Some(())
    }

    /// Every computed tensor the block does not consume, in the order the
    /// operations created them: what the block must write.
    pub(crate) fn outputs(&self) -> Vec<ProgramOutput> {
        let mut written: Vec<&(Register, BlockRef)> = self
            .computed
            .iter()
            .filter(|(id, _)| !self.consumed.contains(id))
            .map(|(_, v)| v)
            .collect();
        written.sort_by_key(|(register, _)| *register);
        written
            .into_iter()
            .map(|&(register, target)| ProgramOutput { register, target })
            .collect()
    }
}

impl<B: ElementwiseBackend> OptimizationBuilder<B> for ElementwiseBuilder<B> {
    fn name(&self) -> &'static str {
        "elementwise"
    }

    fn register(&mut self, op: &OperationIr) -> bool {
        let Some((step, out)) = step(op) else {
            return false;
        };
        if !out.dtype.is_float() {
            return false;
        }
        let (block, shape) = self
            .block
            .get_or_insert_with(|| (Block::new(out.dtype), out.shape.clone()));
        if *shape != out.shape || out.dtype != block.dtype || block.shapes.len() + 4 > MAX_REGISTERS
        {
            return false;
        }
        // Work on a copy: a refused operation must leave the block as it was.
        let saved = (block.clone(), self.instructions.len());
        if block.lower(step, out, &mut self.instructions).is_none() {
            (*block, _) = saved;
            self.instructions.truncate(saved.1);
            return false;
        }
        true
    }

    fn len(&self) -> usize {
        self.block.as_ref().map_or(0, |(b, _)| b.ops)
    }

    fn is_worth_fusing(&self) -> bool {
        self.len() >= 2
    }

    fn build(&self) -> Arc<dyn Optimization<B>> {
        let (block, shape) = self.block.as_ref().expect("a block to build");
        let program = ElementwiseProgram {
            shape: shape.clone(),
            dtype: block.dtype,
            inputs: block.inputs.clone(),
            scalars: block.scalars.clone(),
            instructions: self.instructions.clone(),
            outputs: block.outputs(),
            registers: block.shapes.len(),
        };
        Arc::new(ElementwiseOptimization::<B> {
            program,
            _backend: PhantomData,
        })
    }

    fn reset(&mut self) {
        *self = Self::default();
    }
}

impl Instruction {
    /// The register this instruction writes.
    pub fn out(&self) -> Register {
        let mut copy = *self;
        *copy.out_mut()
    }

    /// The registers this instruction reads (none for a load).
    pub fn operands(&self) -> impl Iterator<Item = Register> + use<> {
        let (a, b) = match *self {
            Instruction::Load { .. } => (None, None),
            Instruction::Unary { input, .. }
            | Instruction::BinaryScalar { lhs: input, .. }
            | Instruction::Clamp { input, .. }
            | Instruction::Activation { input, .. }
            | Instruction::LeakyRelu { input, .. }
            | Instruction::HardSigmoid { input, .. } => (Some(input), None),
            Instruction::Binary { lhs, rhs, .. } | Instruction::FloatBinary { lhs, rhs, .. } => {
                (Some(lhs), Some(rhs))
            }
        };
        a.into_iter().chain(b)
    }

    fn out_mut(&mut self) -> &mut Register {
        match self {
            Instruction::Load { out, .. }
            | Instruction::Unary { out, .. }
            | Instruction::Binary { out, .. }
            | Instruction::BinaryScalar { out, .. }
            | Instruction::FloatBinary { out, .. }
            | Instruction::Clamp { out, .. }
            | Instruction::Activation { out, .. }
            | Instruction::LeakyRelu { out, .. }
            | Instruction::HardSigmoid { out, .. } => out,
        }
    }
}

/// A built element-wise block.
pub struct ElementwiseOptimization<B> {
    program: ElementwiseProgram,
    _backend: PhantomData<B>,
}

impl<B: ElementwiseBackend> ElementwiseOptimization<B> {
    /// The program this block runs.
    pub fn program(&self) -> &ElementwiseProgram {
        &self.program
    }
}

impl<B: ElementwiseBackend> Optimization<B> for ElementwiseOptimization<B> {
    fn execute(
        &self,
        ops: &[&OperationIr],
        handles: &mut HandleContainer<B>,
        device: &B::Device,
    ) -> Result<(), String> {
        self.program
            .bind(ops)
            .execute(&self.program.inputs, handles, |inputs, scalars| {
                B::run_elementwise(&self.program, inputs, scalars, device)
            })
    }
}
