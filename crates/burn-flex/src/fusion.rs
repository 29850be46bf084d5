//! Flex under the Fusion decorator: element-wise blocks in one pass.
//!
//! An [`ElementwiseProgram`] is interpreted, not compiled: the output is
//! cut into chunks of [`LANE`] elements, and for each chunk every
//! instruction runs as one tight loop over registers of `LANE` values in
//! the compute type (f32 for f32/f16/bf16, f64 for f64). The registers of a
//! chunk stay in L1/L2, so memory is touched once per input and output
//! whatever the length of the chain, and each loop vectorizes like the
//! unfused kernels (it runs through [`vectorized`]). Chunks of
//! [`CHUNK`](crate::engine::CHUNK) elements go to the worker threads; their
//! boundaries depend only on the length, so results do not depend on the
//! thread count.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_backend::ops::vocabulary::{BinaryOp, FloatBinaryOp, FloatUnaryOp};
use burn_fusion::elementwise::{Activation, Instruction, Register};
use burn_fusion::{
    ElementwiseBackend, ElementwiseBuilder, ElementwiseProgram, OptimizationBuilder, ReduceBackend,
    ReduceBuilder, ReduceProgram,
};
use burn_std::{Scalar, Shape};
use num_traits::Float;

use crate::engine::{CHUNK, vectorized};
use crate::layout::Layout;
use crate::layout::contiguous_strides;
use crate::ops::elem::{FloatElem, Real, scalar_to_float};
use crate::with_float;
use crate::{Flex, FlexDevice, FlexTensor};
use alloc::sync::Arc;
use burn_std::BufferInit;

/// Elements a register holds: 48 registers of f32 stay within 96 KiB.
pub const LANE: usize = 512;

mod rows;

impl burn_fusion::FusionBackend for Flex {
    fn optimizations(_device: &FlexDevice) -> Vec<Box<dyn OptimizationBuilder<Self>>> {
        vec![
            Box::new(ElementwiseBuilder::<Flex>::default()),
            Box::new(ReduceBuilder::<Flex>::default()),
        ]
    }
}

impl ReduceBackend for Flex {
    fn run_reduce(
        program: &ReduceProgram,
        inputs: Vec<FlexTensor>,
        scalars: &[Scalar],
        _device: &FlexDevice,
    ) -> Vec<FlexTensor> {
        with_float!("fused row block", program.dtype, |E| rows::run::<E>(
            program, inputs, scalars
        ))
    }
}

impl ElementwiseBackend for Flex {
    fn run_elementwise(
        program: &ElementwiseProgram,
        inputs: Vec<FlexTensor>,
        scalars: &[Scalar],
        _device: &FlexDevice,
    ) -> Vec<FlexTensor> {
        with_float!("fused element-wise block", program.dtype, |E| run::<E>(
            program, inputs, scalars
        ))
    }
}

/// How one input is read for a run of output elements.
struct Reader<'a, E> {
    data: &'a [E],
    offset: usize,
    /// Strides over the program's shape (0 where the input broadcasts).
    strides: Vec<isize>,
    contiguous: bool,
    constant: bool,
}

impl<'a, E: FloatElem> Reader<'a, E> {
    fn new(tensor: &'a FlexTensor, shape: &Shape) -> Self {
        let layout = tensor.layout().expand(shape);
        let strides = layout.strides().to_vec();
        let contiguous = strides == contiguous_strides(&shape.dims);
        let constant = strides.iter().all(|&s| s == 0);
        Self {
            data: tensor.storage::<E>(),
            offset: layout.offset(),
            strides,
            contiguous,
            constant,
        }
    }

    /// Writes output elements `start..start + out.len()` of this input.
    #[inline(always)]
    fn read(&self, dims: &[usize], start: usize, out: &mut [E::C]) {
        if self.contiguous {
            load::<E>(
                &self.data[self.offset + start..self.offset + start + out.len()],
                out,
            );
            return;
        }
        if self.constant {
            out.fill(self.data[self.offset].up());
            return;
        }
        // The multi-index of `start`, then row runs along the last dim.
        // On the stack up to rank 8: a read is per chunk (or row).
        let rank = dims.len();
        let (mut stack, mut heap) = ([0usize; 8], Vec::new());
        let index: &mut [usize] = if rank <= stack.len() {
            &mut stack[..rank]
        } else {
            heap.resize(rank, 0);
            &mut heap
        };
        let mut rest = start;
        for d in (0..rank).rev() {
            index[d] = rest % dims[d];
            rest /= dims[d];
        }
        let last = rank - 1;
        let mut written = 0;
        while written < out.len() {
            let at = self.offset as isize
                + index
                    .iter()
                    .zip(self.strides.iter())
                    .map(|(&i, &s)| i as isize * s)
                    .sum::<isize>();
            let run = (dims[last] - index[last]).min(out.len() - written);
            let step = self.strides[last];
            let dst = &mut out[written..written + run];
            match step {
                // A run along a contiguous last dim: one vectorized copy.
                1 => load::<E>(&self.data[at as usize..at as usize + run], dst),
                // Broadcast along the last dim: one value.
                0 => dst.fill(self.data[at as usize].up()),
                _ => {
                    for (k, o) in dst.iter_mut().enumerate() {
                        *o = self.data[(at + k as isize * step) as usize].up();
                    }
                }
            }
            written += run;
            // Carry into the outer dims.
            index[last] += run;
            let mut d = last;
            while index[d] == dims[d] && d > 0 {
                index[d] = 0;
                d -= 1;
                index[d] += 1;
            }
        }
    }
}

fn run<E: FloatElem>(
    program: &ElementwiseProgram,
    mut inputs: Vec<FlexTensor>,
    scalars: &[Scalar],
) -> Vec<FlexTensor> {
    let shape = &program.shape;
    let n = shape.num_elements();
    let dims = if shape.dims.is_empty() {
        vec![1]
    } else {
        shape.dims.clone()
    };
    // Output 0 may take the buffer of an input whose last use this is: a
    // consumed, row-major input of the output's shape that no other handle
    // shares. Each chunk loads it before the chunk's results are stored, so
    // the values read are the input's.
    let in_place = (!program.outputs.is_empty())
        .then(|| {
            program.inputs.iter().enumerate().position(|(i, input)| {
                input.consumed
                    && input.shape == *shape
                    && inputs[i].dtype() == program.dtype
                    && inputs[i].unique_contiguous_mut::<E>().is_some()
            })
        })
        .flatten();
    let mut inputs: Vec<Option<FlexTensor>> = inputs.into_iter().map(Some).collect();
    let mut buffers: Vec<FlexTensor> = Vec::with_capacity(program.outputs.len());
    if let Some(input) = in_place {
        // The input's handle becomes output 0: its buffer has one owner.
        buffers.extend(inputs[input].take());
    }
    while buffers.len() < program.outputs.len() {
        // Every element is written: a recycled buffer, never zeroed.
        let bytes = crate::tensor::alloc(shape, program.dtype, BufferInit::Overwrite);
        buffers.push(FlexTensor::new(
            Arc::new(bytes),
            Layout::contiguous(shape.clone()),
            program.dtype,
        ));
    }
    let readers: Vec<Source<'_, E>> = inputs
        .iter()
        .map(|t| match t {
            Some(t) => Source::Tensor(Reader::new(t, shape)),
            None => Source::Output0,
        })
        .collect();
    // Scalars reach the compute type through the storage type, as in the
    // unfused kernels (`scalar_to_float`).
    let scalars: Vec<E::C> = scalars
        .iter()
        .map(|&s| scalar_to_float::<E>(s).up())
        .collect();

    // One task per CHUNK of the output: the matching chunk of every output.
    let mut tasks: Vec<Vec<&mut [E]>> = (0..n.div_ceil(CHUNK)).map(|_| Vec::new()).collect();
    for buffer in &mut buffers {
        let slice = buffer
            .unique_contiguous_mut::<E>()
            .expect("an output buffer has one owner");
        for (task, chunk) in tasks.iter_mut().zip(slice.chunks_mut(CHUNK)) {
            task.push(chunk);
        }
    }
    let context = Context {
        program,
        readers: &readers,
        scalars: &scalars,
        dims: &dims,
    };
    let registers_len = program.registers * LANE;
    let body = |registers: &mut Vec<E::C>, index: usize, task: &mut [Vec<&mut [E]>]| {
        for chunks in task.iter_mut() {
            let len = chunks.first().map_or(0, |c| c.len());
            let base = index * CHUNK;
            let mut done = 0;
            while done < len {
                let lane = LANE.min(len - done);
                let own = chunks.first().map(|c| &c[done..done + lane]);
                context.evaluate(base + done, lane, own, registers);
                for (output, chunk) in program.outputs.iter().zip(chunks.iter_mut()) {
                    let reg = &registers[output.register * LANE..output.register * LANE + lane];
                    store::<E>(reg, &mut chunk[done..done + lane]);
                }
                done += lane;
            }
        }
    };
    // Registers are per thread, allocated once per run.
    let init = || vec![<E::C as Real>::of_f64(0.0); registers_len];
    if cfg!(feature = "threads") && n >= crate::engine::PARALLEL_THRESHOLD {
        crate::threads::chunks_mut_init(&mut tasks, 1, init, body);
    } else {
        let mut registers = init();
        for (index, task) in tasks.chunks_mut(1).enumerate() {
            body(&mut registers, index, task);
        }
    }
    drop(tasks);
    buffers
}

/// Where a program input comes from: a tensor, or the first output's own
/// buffer (the input it replaces in place).
enum Source<'a, E> {
    Tensor(Reader<'a, E>),
    Output0,
}

/// What every chunk of one run shares.
struct Context<'a, E: FloatElem> {
    program: &'a ElementwiseProgram,
    readers: &'a [Source<'a, E>],
    scalars: &'a [E::C],
    dims: &'a [usize],
}

impl<E: FloatElem> Context<'_, E> {
    /// Runs every instruction for output elements `start..start + lane`.
    ///
    /// Each instruction computes what the unfused kernel of its operation
    /// computes, in the same order, and rounds to the storage type as that
    /// kernel's output would be: fused results are the unfused bits.
    /// `own` is output 0's chunk, which holds the in-place input's values
    /// until the chunk's results are stored.
    fn evaluate(&self, start: usize, lane: usize, own: Option<&[E]>, registers: &mut [E::C]) {
        for instruction in &self.program.instructions {
            let out = instruction.out();
            if let Instruction::Load { input, out } = *instruction {
                let r = &mut registers[out * LANE..out * LANE + lane];
                match &self.readers[input] {
                    Source::Tensor(reader) => reader.read(self.dims, start, r),
                    Source::Output0 => {
                        load::<E>(own.expect("an in-place input has an output chunk"), r);
                    }
                }
                continue;
            }
            let mut operands = instruction.operands();
            let a = operands.next().expect("a computing step has an operand");
            let (x, y, o) = match operands.next() {
                Some(b) => two(registers, a, b, out, lane),
                None => {
                    let (x, o) = one(registers, a, out, lane);
                    (x, &[][..], o)
                }
            };
            apply::<E>(instruction, x, y, self.scalars, o);
        }
    }
}

/// Runs the computing `instruction` on its operands' values `a` (and `b`
/// for a binary step) into `out`, all of one length.
///
/// Each instruction computes what the unfused kernel of its operation
/// computes, in the same order, and rounds to the storage type as that
/// kernel's output would be: fused results are the unfused bits.
#[inline(always)]
fn apply<E: FloatElem>(
    instruction: &Instruction,
    a: &[E::C],
    b: &[E::C],
    scalars: &[E::C],
    out: &mut [E::C],
) {
    let c = |v: f64| scalar_to_float::<E>(Scalar::Float(v)).up();
    match *instruction {
        Instruction::Load { .. } => unreachable!("a load reads a tensor, not registers"),
        Instruction::Unary { op, .. } => unary::<E::C>(op, a, out),
        Instruction::Binary { op, .. } => binary::<E::C>(op, a, b, out),
        Instruction::BinaryScalar { op, scalar, .. } => {
            binary_scalar::<E::C>(op, a, scalars[scalar], out)
        }
        Instruction::FloatBinary { op, .. } => match op {
            FloatBinaryOp::Atan2 => zip(a, b, out, move |x, y| x.atan2_(y)),
        },
        Instruction::Clamp { min, max, .. } => {
            // clamp_min, then clamp_max, as the contract's default.
            let low = min.map(|s| scalars[s]);
            let high = max.map(|s| scalars[s]);
            map(a, out, move |x| {
                let x = low.map_or(x, |l| x.max_nan(l));
                high.map_or(x, |h| x.min_nan(h))
            });
        }
        Instruction::Activation { op, .. } => activation::<E>(op, a, out),
        Instruction::LeakyRelu { slope, .. } => {
            let s = scalars[slope];
            let zero = c(0.0);
            // mask_where(x < 0, x * slope, x).
            map(a, out, move |x| if x < zero { E::round(x * s) } else { x });
        }
        Instruction::HardSigmoid { alpha, beta, .. } => {
            let (al, be) = (scalars[alpha], scalars[beta]);
            let (zero, one_) = (c(0.0), c(1.0));
            // clamp(x * alpha + beta, 0, 1), one rounding per kernel.
            map(a, out, move |x| {
                E::round(E::round(x * al) + be).max_nan(zero).min_nan(one_)
            });
        }
    }
    // The unfused kernel would have stored this result.
    E::round_slice(out);
}

/// Rounding a computed value to the storage type and back: the identity
/// for f32 and f64, a real rounding for f16 and bf16.
trait Round: FloatElem {
    #[inline(always)]
    fn round(x: Self::C) -> Self::C {
        Self::down(x).up()
    }

    #[inline(always)]
    fn round_slice(values: &mut [Self::C]) {
        if core::mem::size_of::<Self>() < core::mem::size_of::<Self::C>() {
            for v in values {
                *v = Self::round(*v);
            }
        }
    }
}

impl<E: FloatElem> Round for E {}

/// Widens stored values into a register.
#[inline(always)]
fn load<E: FloatElem>(from: &[E], out: &mut [E::C]) {
    vectorized(
        #[inline(always)]
        || {
            for (o, &x) in out.iter_mut().zip(from) {
                *o = x.up();
            }
        },
    )
}

/// Rounds a register into stored values.
#[inline(always)]
fn store<E: FloatElem>(from: &[E::C], out: &mut [E]) {
    vectorized(
        #[inline(always)]
        || {
            for (o, &x) in out.iter_mut().zip(from) {
                *o = E::down(x);
            }
        },
    )
}

/// Register `a` (read) and `out` (written); operands always precede the
/// register they produce, so `a < out` and the two never overlap.
#[inline(always)]
fn one<C>(registers: &mut [C], a: Register, out: Register, lane: usize) -> (&[C], &mut [C]) {
    debug_assert!(a < out);
    let (low, high) = registers.split_at_mut(out * LANE);
    (&low[a * LANE..a * LANE + lane], &mut high[..lane])
}

#[inline(always)]
fn two<C>(
    registers: &mut [C],
    a: Register,
    b: Register,
    out: Register,
    lane: usize,
) -> (&[C], &[C], &mut [C]) {
    debug_assert!(a < out && b < out);
    let (low, high) = registers.split_at_mut(out * LANE);
    (
        &low[a * LANE..a * LANE + lane],
        &low[b * LANE..b * LANE + lane],
        &mut high[..lane],
    )
}

#[inline(always)]
fn map<C: Copy>(a: &[C], out: &mut [C], f: impl Fn(C) -> C) {
    vectorized(
        #[inline(always)]
        || {
            for (o, &x) in out.iter_mut().zip(a) {
                *o = f(x);
            }
        },
    )
}

#[inline(always)]
fn zip<C: Copy>(a: &[C], b: &[C], out: &mut [C], f: impl Fn(C, C) -> C) {
    vectorized(
        #[inline(always)]
        || {
            for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                *o = f(x, y);
            }
        },
    )
}

/// The float functions, with the math of Flex's own unary kernels.
fn unary<C: Real>(op: FloatUnaryOp, a: &[C], out: &mut [C]) {
    use FloatUnaryOp as U;
    match op {
        U::Neg => map(a, out, move |x| -x),
        U::Recip => map(a, out, move |x| x.recip()),
        U::Abs => map(a, out, move |x| x.abs()),
        U::Exp => map(a, out, move |x| x.exp_()),
        U::Log => map(a, out, move |x| x.ln()),
        U::Log1p => map(a, out, move |x| x.ln_1p()),
        U::Sqrt => map(a, out, move |x| x.sqrt()),
        U::Sin => map(a, out, move |x| x.sin()),
        U::Cos => map(a, out, move |x| x.cos()),
        U::Tan => map(a, out, move |x| x.tan()),
        U::Sinh => map(a, out, move |x| x.sinh()),
        U::Cosh => map(a, out, move |x| x.cosh()),
        U::Tanh => map(a, out, move |x| x.tanh_()),
        U::Asin => map(a, out, move |x| x.asin()),
        U::Acos => map(a, out, move |x| x.acos()),
        U::Atan => map(a, out, move |x| x.atan()),
        U::Asinh => map(a, out, move |x| x.asinh()),
        U::Acosh => map(a, out, move |x| x.acosh()),
        U::Atanh => map(a, out, move |x| x.atanh()),
        U::Erf => map(a, out, move |x| x.erf()),
        U::Round => map(a, out, move |x| x.round_even()),
        U::Floor => map(a, out, move |x| x.floor_()),
        U::Ceil => map(a, out, move |x| x.ceil_()),
        U::Trunc => map(a, out, move |x| x.trunc_()),
        U::Sign => map(a, out, move |x| x.sign_()),
    }
}

/// The arithmetic, with the math of Flex's own binary kernels.
fn binary<C: Real>(op: BinaryOp, a: &[C], b: &[C], out: &mut [C]) {
    match op {
        BinaryOp::Add => zip(a, b, out, move |x, y| x + y),
        BinaryOp::Sub => zip(a, b, out, move |x, y| x - y),
        BinaryOp::Mul => zip(a, b, out, move |x, y| x * y),
        BinaryOp::Div => zip(a, b, out, move |x, y| x / y),
        BinaryOp::Rem => zip(a, b, out, move |x, y| x.rem_floor(y)),
        BinaryOp::Pow => zip(a, b, out, move |x, y| Float::powf(x, y)),
        BinaryOp::Max => zip(a, b, out, move |x, y| x.max_nan(y)),
        BinaryOp::Min => zip(a, b, out, move |x, y| x.min_nan(y)),
    }
}

/// The arithmetic with a scalar, with the special exponents of Flex's own
/// scalar kernel (`x^1` and `x^2` exactly).
fn binary_scalar<C: Real>(op: BinaryOp, a: &[C], s: C, out: &mut [C]) {
    match op {
        BinaryOp::Pow if s == C::of_f64(1.0) => out.copy_from_slice(a),
        BinaryOp::Pow if s == C::of_f64(2.0) => map(a, out, move |x| x * x),
        BinaryOp::Add => map(a, out, move |x| x + s),
        BinaryOp::Sub => map(a, out, move |x| x - s),
        BinaryOp::Mul => map(a, out, move |x| x * s),
        BinaryOp::Div => map(a, out, move |x| x / s),
        BinaryOp::Rem => map(a, out, move |x| x.rem_floor(s)),
        BinaryOp::Pow => map(a, out, move |x| Float::powf(x, s)),
        BinaryOp::Max => map(a, out, move |x| x.max_nan(s)),
        BinaryOp::Min => map(a, out, move |x| x.min_nan(s)),
    }
}

/// The activations, as the contract's composites compute them on Flex: the
/// same operations in the same order, rounded to the storage type after
/// each (what each unfused kernel's output is).
fn activation<E: FloatElem>(op: Activation, a: &[E::C], out: &mut [E::C]) {
    let c = |v: f64| scalar_to_float::<E>(Scalar::Float(v)).up();
    let r = |x: E::C| E::round(x);
    let (zero, one, half) = (c(0.0), c(1.0), c(0.5));
    let sqrt_2 = c(core::f64::consts::SQRT_2);
    // softplus(-x) = max(-x, 0) + log1p(exp(-|x|)).
    let softplus_neg = move |x: E::C| {
        let pos = (-x).max_nan(zero);
        let tail = r(r(r(-x.abs()).exp_()).ln_1p());
        r(pos + tail)
    };
    let sigmoid = move |x: E::C| r(r(-softplus_neg(x)).exp_());
    match op {
        // mask_fill(x, x <= 0, 0).
        Activation::Relu => map(a, out, move |x| if x <= zero { zero } else { x }),
        // x * ((erf(x / sqrt 2) + 1) * 0.5).
        Activation::Gelu => map(a, out, move |x| {
            let cdf = r(r(r(r(x / sqrt_2).erf()) + one) * half);
            x * cdf
        }),
        Activation::Sigmoid => map(a, out, sigmoid),
        // x * sigmoid(x).
        Activation::Silu => map(a, out, move |x| x * sigmoid(x)),
        // -softplus(-x).
        Activation::LogSigmoid => map(a, out, move |x| -softplus_neg(x)),
    }
}
