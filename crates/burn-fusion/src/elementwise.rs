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
    /// The tensor behind `source` in `ops` (an input of an operation).
    fn input_of<'a>(ops: &'a [&OperationIr], source: BlockRef) -> &'a TensorIr {
        ops[source.op].tensors().inputs[source.index]
    }

    /// The ids, statuses and values the program runs with for the block
    /// `ops` (one of the relative form it was built from).
    pub fn bind(&self, ops: &[&OperationIr]) -> BoundProgram {
        let inputs = self
            .inputs
            .iter()
            .map(|input| Self::input_of(ops, input.source).clone())
            .collect();
        let scalars = self
            .scalars
            .iter()
            .map(|s| {
                let mut op = ops[s.op].clone();
                op.scalars_mut()[s.index].value
            })
            .collect();
        let outputs = self
            .outputs
            .iter()
            .map(|o| ops[o.target.op].tensors().outputs[o.target.index].clone())
            .collect();
        BoundProgram {
            inputs,
            scalars,
            outputs,
        }
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
    program: Option<ElementwiseProgram>,
    /// The register holding each tensor the block has read or computed.
    registers: BTreeMap<TensorId, Register>,
    /// Tensors computed in the block: their register and where they come from.
    computed: BTreeMap<TensorId, (Register, BlockRef)>,
    /// Tensors computed in the block and consumed in it.
    consumed: Vec<TensorId>,
    /// The program input of each tensor the block reads from outside.
    loaded: BTreeMap<TensorId, usize>,
    ops: usize,
    _backend: PhantomData<B>,
}

impl<B> Default for ElementwiseBuilder<B> {
    fn default() -> Self {
        Self {
            program: None,
            registers: BTreeMap::new(),
            computed: BTreeMap::new(),
            consumed: Vec::new(),
            loaded: BTreeMap::new(),
            ops: 0,
            _backend: PhantomData,
        }
    }
}

/// What an accepted operation computes, before registers are assigned.
enum Step<'a> {
    Unary(FloatUnaryOp, &'a TensorIr),
    Binary(BinaryOp, &'a TensorIr, Operand<'a>),
    FloatBinary(FloatBinaryOp, &'a TensorIr, &'a TensorIr),
    Clamp(&'a TensorIr, bool, bool),
    Activation(Activation, &'a TensorIr),
    LeakyRelu(&'a TensorIr),
    HardSigmoid(&'a TensorIr),
}

/// The right operand of a binary step: a tensor, or the op's first scalar.
enum Operand<'a> {
    Tensor(&'a TensorIr),
    Scalar,
}

/// The element-wise step of `op`, if it is one this builder fuses, and its output.
fn step(op: &OperationIr) -> Option<(Step<'_>, &TensorIr)> {
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

impl<B: ElementwiseBackend> ElementwiseBuilder<B> {
    /// The register of a tensor operand: the one it already has in the
    /// block, or a new load (`None` when the block cannot take it).
    fn operand(&mut self, tensor: &TensorIr, source: BlockRef) -> Option<Register> {
        let program = self.program.as_mut().expect("a block is open");
        if let Some(&register) = self.registers.get(&tensor.id) {
            if tensor.status == TensorStatus::ReadWrite {
                if self.computed.contains_key(&tensor.id) {
                    self.consumed.push(tensor.id);
                } else if let Some(&input) = self.loaded.get(&tensor.id) {
                    program.inputs[input].consumed = true;
                }
            }
            return Some(register);
        }
        if tensor.dtype != program.dtype
            || program.inputs.len() + program.outputs.len() >= MAX_TENSORS
            || tensor.shape.broadcast(&program.shape).ok().as_ref() != Some(&program.shape)
        {
            return None;
        }
        let register = program.registers;
        program.registers += 1;
        program.inputs.push(ProgramInput {
            source,
            shape: tensor.shape.clone(),
            consumed: tensor.status == TensorStatus::ReadWrite,
        });
        let input = program.inputs.len() - 1;
        program.instructions.push(Instruction::Load {
            input,
            out: register,
        });
        self.loaded.insert(tensor.id, input);
        self.registers.insert(tensor.id, register);
        Some(register)
    }

    /// A scalar argument: its index in the program's scalars.
    fn scalar(&mut self, source: BlockRef) -> usize {
        let program = self.program.as_mut().expect("a block is open");
        program.scalars.push(source);
        program.scalars.len() - 1
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
        let program = self.program.get_or_insert_with(|| ElementwiseProgram {
            shape: out.shape.clone(),
            dtype: out.dtype,
            inputs: Vec::new(),
            scalars: Vec::new(),
            instructions: Vec::new(),
            outputs: Vec::new(),
            registers: 0,
        });
        if out.shape != program.shape
            || out.dtype != program.dtype
            || program.registers + 4 > MAX_REGISTERS
        {
            return false;
        }
        // Work on a copy: a refused operation must leave the block as it was.
        let saved = (
            self.program.clone(),
            self.registers.clone(),
            self.computed.clone(),
            self.consumed.clone(),
            self.loaded.clone(),
        );
        let op_index = self.ops;
        let at = |index| BlockRef {
            op: op_index,
            index,
        };
        let instruction = (|| {
            Some(match step {
                Step::Unary(op, input) => {
                    let input = self.operand(input, at(0))?;
                    (Instruction::Unary { op, input, out: 0 }, ())
                }
                Step::Binary(op, lhs, rhs) => {
                    let lhs = self.operand(lhs, at(0))?;
                    match rhs {
                        Operand::Tensor(rhs) => {
                            let rhs = self.operand(rhs, at(1))?;
                            (
                                Instruction::Binary {
                                    op,
                                    lhs,
                                    rhs,
                                    out: 0,
                                },
                                (),
                            )
                        }
                        Operand::Scalar => {
                            let scalar = self.scalar(at(0));
                            (
                                Instruction::BinaryScalar {
                                    op,
                                    lhs,
                                    scalar,
                                    out: 0,
                                },
                                (),
                            )
                        }
                    }
                }
                Step::FloatBinary(op, lhs, rhs) => {
                    let lhs = self.operand(lhs, at(0))?;
                    let rhs = self.operand(rhs, at(1))?;
                    (
                        Instruction::FloatBinary {
                            op,
                            lhs,
                            rhs,
                            out: 0,
                        },
                        (),
                    )
                }
                Step::Clamp(input, has_min, has_max) => {
                    let input = self.operand(input, at(0))?;
                    let min = has_min.then(|| self.scalar(at(0)));
                    let max = has_max.then(|| self.scalar(at(usize::from(has_min))));
                    (
                        Instruction::Clamp {
                            input,
                            min,
                            max,
                            out: 0,
                        },
                        (),
                    )
                }
                Step::Activation(op, input) => {
                    let input = self.operand(input, at(0))?;
                    (Instruction::Activation { op, input, out: 0 }, ())
                }
                Step::LeakyRelu(input) => {
                    let input = self.operand(input, at(0))?;
                    let slope = self.scalar(at(0));
                    (
                        Instruction::LeakyRelu {
                            input,
                            slope,
                            out: 0,
                        },
                        (),
                    )
                }
                Step::HardSigmoid(input) => {
                    let input = self.operand(input, at(0))?;
                    let alpha = self.scalar(at(0));
                    let beta = self.scalar(at(1));
                    (
                        Instruction::HardSigmoid {
                            input,
                            alpha,
                            beta,
                            out: 0,
                        },
                        (),
                    )
                }
            })
        })();
        let Some((mut instruction, ())) = instruction else {
            (
                self.program,
                self.registers,
                self.computed,
                self.consumed,
                self.loaded,
            ) = saved;
            return false;
        };
        let program = self.program.as_mut().expect("a block is open");
        let register = program.registers;
        program.registers += 1;
        set_out(&mut instruction, register);
        program.instructions.push(instruction);
        self.registers.insert(out.id, register);
        self.computed.insert(
            out.id,
            (
                register,
                BlockRef {
                    op: op_index,
                    index: 0,
                },
            ),
        );
        self.ops += 1;
        true
    }

    fn len(&self) -> usize {
        self.ops
    }

    fn is_worth_fusing(&self) -> bool {
        self.ops >= 2
    }

    fn build(&self) -> Arc<dyn Optimization<B>> {
        let mut program = self.program.clone().expect("a block to build");
        // Write every computed tensor the block does not consume, in the
        // order the operations created them.
        let mut written: Vec<&(Register, BlockRef)> = self
            .computed
            .iter()
            .filter(|(id, _)| !self.consumed.contains(id))
            .map(|(_, v)| v)
            .collect();
        written.sort_by_key(|(register, _)| *register);
        program.outputs = written
            .into_iter()
            .map(|&(register, target)| ProgramOutput { register, target })
            .collect();
        Arc::new(ElementwiseOptimization::<B> {
            program,
            _backend: PhantomData,
        })
    }

    fn reset(&mut self) {
        *self = Self::default();
    }
}

fn set_out(instruction: &mut Instruction, register: Register) {
    *instruction.out_mut() = register;
}

impl Instruction {
    /// The register this instruction writes.
    pub fn out(&self) -> Register {
        let mut copy = *self;
        *copy.out_mut()
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
        let bound = self.program.bind(ops);
        let inputs = bound
            .inputs
            .iter()
            .zip(&self.program.inputs)
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
        let outputs = B::run_elementwise(&self.program, inputs, &bound.scalars, device);
        if outputs.len() != bound.outputs.len() {
            return Err(format!(
                "the element-wise kernel wrote {} tensors, the block has {}",
                outputs.len(),
                bound.outputs.len()
            ));
        }
        for (tensor, out) in bound.outputs.iter().zip(outputs) {
            debug_assert_eq!(out.shape(), self.program.shape);
            handles.register(tensor, burn_ir::Handle::Float(out))?;
        }
        Ok(())
    }
}
