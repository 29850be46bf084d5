//! The CubeCL backend under the Fusion decorator (`fusion` feature):
//! burn-fusion's element-wise programs become one kernel each
//! ([`burn_cubecl_fusion::elementwise`]), and so do its row programs
//! ([`burn_cubecl_fusion::reduce`], lowered in `rows`).
//!
//! A program is lowered to the kernel's primitive steps. Each composite
//! the program names (an activation, a clamp) expands into the primitives
//! its unfused form runs, in the same order and with the same constants,
//! so the fused value is what the chain of kernels computes; only the
//! rounding between kernels, which the compiler may contract away (a
//! multiply and an add into one FMA), can differ. Scalars are kernel
//! arguments: blocks that differ only in their scalar values run one
//! compiled kernel, except a scalar `pow` by a small integer, which
//! becomes exact products as the unfused kernel computes it.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::ops::vocabulary::{BinaryOp, FloatUnaryOp};
use burn_cubecl_fusion::elementwise::{self, Comparison, FusedBlock, FusedInput, FusedOp};
use burn_cubecl_fusion::math::{FloatOp, small_pow};
use burn_fusion::elementwise::{Activation, Instruction};
use burn_fusion::{
    ElementwiseBackend, ElementwiseBuilder, ElementwiseProgram, OptimizationBuilder, ReduceBackend,
    ReduceBuilder, ReduceProgram,
};
use burn_std::Scalar;
use cubecl::prelude::InputScalar;
use cubecl::stream_id::StreamId;

use crate::client::with_runtime;
use crate::ops::binary::input_scalar;
use crate::ops::{broadcast_to, elemwise_dims};
use crate::{CubeBackend, CubeDevice, CubeTensor, dtype};

mod rows;

impl burn_fusion::FusionBackend for CubeBackend {
    fn optimizations(_device: &CubeDevice) -> Vec<Box<dyn OptimizationBuilder<Self>>> {
        vec![
            Box::new(ElementwiseBuilder::<CubeBackend>::default()),
            Box::new(ReduceBuilder::<CubeBackend>::default()),
        ]
    }

    /// cubecl orders work per thread (one stream each) and tracks buffers
    /// by stream; the fusion queue of a device runs whichever thread reads.
    /// All of it runs on one stream, [`FUSION_STREAM`], so kernels, uploads
    /// and reads of a fused device are ordered whoever triggers them.
    fn execution_scope<T>(_device: &CubeDevice, f: impl FnOnce() -> T) -> T {
        StreamId {
            value: FUSION_STREAM,
        }
        .executes(f)
    }
}

/// The cubecl stream of fused work: any fixed id orders the work; this one
/// is the stream of the first thread cubecl assigned one to (usually the
/// main thread's).
const FUSION_STREAM: u64 = 0;

impl ElementwiseBackend for CubeBackend {
    fn run_elementwise(
        program: &ElementwiseProgram,
        inputs: Vec<CubeTensor>,
        scalars: &[Scalar],
        _device: &CubeDevice,
    ) -> Vec<CubeTensor> {
        run(program, inputs, scalars)
    }
}

impl ReduceBackend for CubeBackend {
    fn run_reduce(
        program: &ReduceProgram,
        inputs: Vec<CubeTensor>,
        scalars: &[Scalar],
        _device: &CubeDevice,
    ) -> Vec<CubeTensor> {
        rows::run(program, inputs, scalars)
    }
}

const SQRT_2: f64 = core::f64::consts::SQRT_2;

/// A program's steps as the kernel's primitives, with the scalar arguments
/// they read. `S` is the kernel's step type: [`FusedOp`] for element-wise
/// blocks, [`RowOp`] (which wraps it) for row blocks.
struct Lowering<S> {
    steps: Vec<S>,
    /// The kernel's scalar arguments: the program's, then constants.
    scalars: Vec<Scalar>,
    /// The step holding each program register.
    registers: Vec<usize>,
}

impl<S: From<FusedOp>> Lowering<S> {
    fn new(registers: usize) -> Self {
        Self {
            steps: Vec::new(),
            scalars: Vec::new(),
            registers: vec![usize::MAX; registers],
        }
    }

    fn push(&mut self, op: FusedOp) -> usize {
        self.steps.push(S::from(op));
        self.steps.len() - 1
    }

    fn scalar(&mut self, value: Scalar) -> usize {
        self.scalars.push(value);
        let scalar = self.scalars.len() - 1;
        self.push(FusedOp::Scalar { scalar })
    }

    fn constant(&mut self, value: f64) -> usize {
        self.scalar(Scalar::Float(value))
    }

    fn unary(&mut self, op: FloatUnaryOp, input: usize) -> usize {
        self.push(FusedOp::Unary { op, input })
    }

    fn binary(&mut self, op: BinaryOp, lhs: usize, rhs: usize) -> usize {
        self.push(FusedOp::Binary {
            op: FloatOp::Numeric(op),
            lhs,
            rhs,
        })
    }

    /// `log(1 + e^-x)` as the contract's default: `max(-x, 0) +
    /// log1p(e^-|x|)`.
    fn softplus_neg(&mut self, x: usize) -> usize {
        let neg = self.unary(FloatUnaryOp::Neg, x);
        let zero = self.constant(0.0);
        let positive = self.binary(BinaryOp::Max, neg, zero);
        let abs = self.unary(FloatUnaryOp::Abs, x);
        let neg_abs = self.unary(FloatUnaryOp::Neg, abs);
        let exp = self.unary(FloatUnaryOp::Exp, neg_abs);
        let tail = self.unary(FloatUnaryOp::Log1p, exp);
        self.binary(BinaryOp::Add, positive, tail)
    }

    /// `exp(-softplus(-x))`, the default sigmoid.
    fn sigmoid(&mut self, x: usize) -> usize {
        let softplus = self.softplus_neg(x);
        let neg = self.unary(FloatUnaryOp::Neg, softplus);
        self.unary(FloatUnaryOp::Exp, neg)
    }

    fn activation(&mut self, op: Activation, x: usize) -> usize {
        match op {
            // mask_fill(x, x <= 0, 0).
            Activation::Relu => {
                let zero = self.constant(0.0);
                self.push(FusedOp::Select {
                    input: x,
                    cmp: Comparison::LowerEqual,
                    bound: zero,
                    then: zero,
                })
            }
            // x · (erf(x / √2) + 1) · 0.5.
            Activation::Gelu => {
                let sqrt_2 = self.constant(SQRT_2);
                let scaled = self.binary(BinaryOp::Div, x, sqrt_2);
                let erf = self.unary(FloatUnaryOp::Erf, scaled);
                let one = self.constant(1.0);
                let shifted = self.binary(BinaryOp::Add, erf, one);
                let half = self.constant(0.5);
                let cdf = self.binary(BinaryOp::Mul, shifted, half);
                self.binary(BinaryOp::Mul, x, cdf)
            }
            Activation::Sigmoid => self.sigmoid(x),
            Activation::Silu => {
                let sigmoid = self.sigmoid(x);
                self.binary(BinaryOp::Mul, x, sigmoid)
            }
            Activation::LogSigmoid => {
                let softplus = self.softplus_neg(x);
                self.unary(FloatUnaryOp::Neg, softplus)
            }
        }
    }

    /// Lowers one instruction; returns the step holding its result.
    fn instruction(&mut self, instruction: &Instruction, scalars: &[Scalar]) -> usize {
        let r = |register: usize| self.registers[register];
        match *instruction {
            Instruction::Load { input, .. } => self.push(FusedOp::Load { input }),
            Instruction::Unary { op, input, .. } => {
                let input = r(input);
                self.unary(op, input)
            }
            Instruction::Binary { op, lhs, rhs, .. } => {
                let (lhs, rhs) = (r(lhs), r(rhs));
                self.binary(op, lhs, rhs)
            }
            Instruction::BinaryScalar {
                op, lhs, scalar, ..
            } => {
                let lhs = r(lhs);
                let value = scalars[scalar];
                match (op, small_pow(value.to_f64())) {
                    (BinaryOp::Pow, Some(exponent)) => self.push(FusedOp::PowI {
                        input: lhs,
                        exponent,
                    }),
                    _ => {
                        let rhs = self.scalar(value);
                        self.binary(op, lhs, rhs)
                    }
                }
            }
            Instruction::FloatBinary { op, lhs, rhs, .. } => {
                let (lhs, rhs) = (r(lhs), r(rhs));
                self.push(FusedOp::Binary {
                    op: FloatOp::Float(op),
                    lhs,
                    rhs,
                })
            }
            // clamp_min, then clamp_max, as the contract's default.
            Instruction::Clamp {
                input, min, max, ..
            } => {
                let mut value = r(input);
                if let Some(min) = min {
                    let bound = self.scalar(scalars[min]);
                    value = self.binary(BinaryOp::Max, value, bound);
                }
                if let Some(max) = max {
                    let bound = self.scalar(scalars[max]);
                    value = self.binary(BinaryOp::Min, value, bound);
                }
                value
            }
            Instruction::Activation { op, input, .. } => {
                let input = r(input);
                self.activation(op, input)
            }
            // mask_where(x < 0, x · slope, x).
            Instruction::LeakyRelu { input, slope, .. } => {
                let x = r(input);
                let slope = self.scalar(scalars[slope]);
                let scaled = self.binary(BinaryOp::Mul, x, slope);
                let zero = self.constant(0.0);
                self.push(FusedOp::Select {
                    input: x,
                    cmp: Comparison::Lower,
                    bound: zero,
                    then: scaled,
                })
            }
            // clamp(x · alpha + beta, 0, 1).
            Instruction::HardSigmoid {
                input, alpha, beta, ..
            } => {
                let x = r(input);
                let alpha = self.scalar(scalars[alpha]);
                let scaled = self.binary(BinaryOp::Mul, x, alpha);
                let beta = self.scalar(scalars[beta]);
                let shifted = self.binary(BinaryOp::Add, scaled, beta);
                let zero = self.constant(0.0);
                let low = self.binary(BinaryOp::Max, shifted, zero);
                let one = self.constant(1.0);
                self.binary(BinaryOp::Min, low, one)
            }
        }
    }
}

/// Lowers `program` with its scalar values: the steps and the kernel's
/// scalar arguments.
fn lower(
    program: &ElementwiseProgram,
    scalars: &[Scalar],
) -> (Vec<FusedOp>, Vec<Scalar>, Vec<usize>) {
    let mut lowering = Lowering::<FusedOp>::new(program.registers);
    for instruction in &program.instructions {
        let step = lowering.instruction(instruction, scalars);
        lowering.registers[instruction.out()] = step;
    }
    let outputs = program
        .outputs
        .iter()
        .map(|output| lowering.registers[output.register])
        .collect();
    (lowering.steps, lowering.scalars, outputs)
}

/// Runs `program` as one kernel.
fn run(
    program: &ElementwiseProgram,
    inputs: Vec<CubeTensor>,
    scalars: &[Scalar],
) -> Vec<CubeTensor> {
    let shape = &program.shape;
    let first = inputs
        .first()
        .expect("an element-wise program reads at least one tensor");
    let outputs: Vec<CubeTensor> = program
        .outputs
        .iter()
        .map(|_| first.empty_like(shape.clone(), program.dtype))
        .collect();
    let n = shape.num_elements();
    if n == 0 {
        return outputs;
    }
    let inputs: Vec<CubeTensor> = inputs
        .iter()
        .map(|t| broadcast_to(t, shape, "fused element-wise block"))
        .collect();
    let (steps, kernel_scalars, written) = lower(program, scalars);
    // An input laid out as the output (same shape, contiguous) is read at
    // offset + position; any other through its strides. Vectors only when
    // every input is read the first way.
    let strided: Vec<bool> = inputs
        .iter()
        .map(|t| !(t.shape == *shape && t.is_contiguous()))
        .collect();
    let dtype = program.dtype;
    let ty = dtype::storage(dtype);
    let args = kernel_args(kernel_scalars, dtype);
    with_runtime!(&first.client, R, c => {
        let vector = vector_size(c, dtype, n, &strided, &inputs);
        let units = n / vector;
        let (count, dim) = elemwise_dims(c, units);
        let block = FusedBlock {
            steps,
            strided,
            outputs: written,
            rank: shape.num_dims().max(1),
        };
        let launch_inputs = inputs
            .iter()
            .map(|t| FusedInput {
                tensor: t.arg::<R>(),
                offset: t.offset / vector,
            })
            .collect();
        let launch_outputs = outputs.iter().map(|t| t.arg::<R>()).collect();
        // SAFETY: every output is a fresh contiguous tensor of `n`
        // elements; every input is broadcast to the output's shape (linear
        // ones are contiguous in it, with offsets divisible by `vector`);
        // the steps index only the inputs and scalars built above.
        unsafe {
            elementwise::launch::<R>(
                c, count, dim, vector, block, launch_inputs, launch_outputs, args, units, ty,
            );
        }
    });
    outputs
}

/// The kernel's scalar arguments, in the block's dtype.
fn kernel_args(scalars: Vec<Scalar>, dtype: burn_std::DType) -> Vec<InputScalar> {
    scalars
        .into_iter()
        .map(|s| input_scalar(s, dtype))
        .collect()
}

/// The widest vector a fused kernel reads runs of `len` elements with: 1
/// when any input is strided, else the widest the device prefers that
/// divides `len` and every input's offset.
fn vector_size<R: cubecl::Runtime>(
    client: &cubecl::prelude::ComputeClient<R>,
    dtype: burn_std::DType,
    len: usize,
    strided: &[bool],
    inputs: &[CubeTensor],
) -> usize {
    if strided.iter().any(|&s| s) {
        return 1;
    }
    client
        .io_optimized_vector_sizes(dtype.size())
        .find(|&v| len.is_multiple_of(v) && inputs.iter().all(|t| t.offset.is_multiple_of(v)))
        .unwrap_or(1)
}
