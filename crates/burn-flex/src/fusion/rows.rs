//! Row blocks on Flex: a [`ReduceProgram`] runs one row at a time.
//!
//! A row's full registers are row-length scratch buffers of the compute
//! type, assigned by liveness (a buffer is reused once its register is
//! read for the last time), so a softmax or a layer norm of a 4096-wide row
//! keeps a handful of 16 KiB buffers hot in L1/L2 while the tensors are
//! read and written once. Row registers are single values; a full step
//! reading one broadcasts it into a scratch buffer first. Every step is
//! the unfused kernel's arithmetic on the same values in the same order:
//! element-wise steps through [`apply`], reductions through the row fold of
//! `sum_dim`/`max_dim`/… (the same tree for the same length), softmax
//! through the row kernel of Flex's `softmax`. Fused results are therefore
//! the unfused bits wherever the unfused reduction reads a row-major row,
//! which every computed intermediate is. Rows are independent, so results
//! do not depend on the thread count.

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::ReduceOp;
use burn_backend::TensorMetadata;
use burn_fusion::elementwise::Instruction;
use burn_fusion::reduce::{Extent, ReduceInstruction, ReduceProgram, RowReduce};
use burn_std::{BufferInit, Scalar};

use super::{Reader, Round, apply, load, store};
use crate::FlexTensor;
use crate::engine::{CHUNK, vectorized};
use crate::layout::Layout;
use crate::ops::elem::{FloatElem, Real, scalar_to_float};
use crate::ops::reduce::{Num, fold_row};
use crate::ops::softmax;

/// Where a row of a program input is read from.
enum RowSource<'a, E> {
    Tensor(Reader<'a, E>),
    /// The output that took this input's buffer: its row is read before
    /// the row's results are stored.
    Output(usize),
}

/// Runs `program` on `inputs`.
pub(super) fn run<E: FloatElem>(
    program: &ReduceProgram,
    inputs: Vec<FlexTensor>,
    scalars: &[Scalar],
) -> Vec<FlexTensor>
where
    E::C: Num<A = E::C>,
{
    let full = &program.shape;
    let n = program.row_len();
    let rows = program.rows();
    let row_shape = program.row_shape();
    let extent = |register: usize| program.extents[register];

    // The first full output may take the buffer of a consumed, row-major
    // input of the full shape that no other handle shares.
    let first_full = program
        .outputs
        .iter()
        .position(|o| extent(o.register) == Extent::Full);
    let mut inputs = inputs;
    let in_place = first_full.and_then(|_| {
        program.inputs.iter().enumerate().position(|(i, input)| {
            input.consumed
                && input.shape == *full
                && inputs[i].dtype() == program.dtype
                && inputs[i].unique_contiguous_mut::<E>().is_some()
        })
    });
    let mut inputs: Vec<Option<FlexTensor>> = inputs.into_iter().map(Some).collect();
    let mut buffers: Vec<FlexTensor> = program
        .outputs
        .iter()
        .enumerate()
        .map(|(k, output)| match (in_place, Some(k) == first_full) {
            (Some(input), true) => inputs[input].take().expect("taken once"),
            _ => {
                let shape = match extent(output.register) {
                    Extent::Full => full.clone(),
                    Extent::Row => row_shape.clone(),
                };
                // Every element is written: a recycled buffer, never zeroed.
                let bytes = crate::tensor::alloc(&shape, program.dtype, BufferInit::Overwrite);
                FlexTensor::new(Arc::new(bytes), Layout::contiguous(shape), program.dtype)
            }
        })
        .collect();
    let sources: Vec<RowSource<'_, E>> = inputs
        .iter()
        .map(|t| match t {
            Some(t) => RowSource::Tensor(Reader::new(t, full)),
            None => RowSource::Output(first_full.expect("an in-place input has an output")),
        })
        .collect();
    let scalars: Vec<E::C> = scalars
        .iter()
        .map(|&s| scalar_to_float::<E>(s).up())
        .collect();
    let plan = Slots::plan(program);

    // One task per group of rows holding about CHUNK elements.
    let per_task = (CHUNK / n).max(1);
    let mut tasks: Vec<Vec<&mut [E]>> = (0..rows.div_ceil(per_task)).map(|_| Vec::new()).collect();
    for (buffer, output) in buffers.iter_mut().zip(&program.outputs) {
        let slice = buffer
            .unique_contiguous_mut::<E>()
            .expect("an output buffer has one owner");
        let width = match extent(output.register) {
            Extent::Full => n,
            Extent::Row => 1,
        };
        for (task, chunk) in tasks.iter_mut().zip(slice.chunks_mut(per_task * width)) {
            task.push(chunk);
        }
    }
    let dims = full.dims.clone();
    let context = RowContext {
        program,
        sources: &sources,
        scalars: &scalars,
        dims: &dims,
        plan: &plan,
        n,
    };
    let init = || Scratch::<E::C>::new(&plan, program.extents.len(), n);
    let body = |scratch: &mut Scratch<E::C>, index: usize, task: &mut [Vec<&mut [E]>]| {
        for chunks in task.iter_mut() {
            let first_row = index * per_task;
            let count = (rows - first_row).min(per_task);
            for local in 0..count {
                context.row(first_row + local, local, chunks, scratch);
            }
        }
    };
    if cfg!(feature = "threads") && full.num_elements() >= crate::engine::PARALLEL_THRESHOLD {
        crate::threads::chunks_mut_init(&mut tasks, 1, init, body);
    } else {
        let mut scratch = init();
        for (index, task) in tasks.chunks_mut(1).enumerate() {
            body(&mut scratch, index, task);
        }
    }
    drop(tasks);
    buffers
}

/// The scratch buffer of each full register, assigned by liveness.
struct Slots {
    /// The buffer of each register (`usize::MAX` for row registers).
    of: Vec<usize>,
    /// How many buffers the program needs.
    count: usize,
}

impl Slots {
    fn plan(program: &ReduceProgram) -> Self {
        let registers = program.extents.len();
        let end = program.instructions.len();
        // The last instruction reading each register; outputs are stored
        // after the last instruction, so theirs live to the end.
        let mut last = vec![0usize; registers];
        for (i, instruction) in program.instructions.iter().enumerate() {
            for r in instruction.operands() {
                last[r] = i;
            }
        }
        for output in &program.outputs {
            last[output.register] = end;
        }
        let mut of = vec![usize::MAX; registers];
        let mut free: Vec<usize> = Vec::new();
        let mut count = 0;
        for (i, instruction) in program.instructions.iter().enumerate() {
            let out = instruction.out();
            if program.extents[out] == Extent::Full {
                of[out] = free.pop().unwrap_or_else(|| {
                    count += 1;
                    count - 1
                });
            }
            // Operands read here for the last time free their buffers for
            // the instructions after this one (never for this one's output).
            for r in instruction.operands() {
                if last[r] == i && of[r] != usize::MAX && !free.contains(&of[r]) {
                    free.push(of[r]);
                }
            }
        }
        Self { of, count }
    }
}

/// A thread's buffers: one per slot, two for broadcast row values, and
/// the row registers' values.
struct Scratch<C> {
    slots: Vec<Vec<C>>,
    broadcast: [Vec<C>; 2],
    rows: Vec<C>,
}

impl<C: Real> Scratch<C> {
    fn new(plan: &Slots, registers: usize, n: usize) -> Self {
        let zero = C::of_f64(0.0);
        Self {
            slots: (0..plan.count).map(|_| vec![zero; n]).collect(),
            broadcast: [vec![zero; n], vec![zero; n]],
            rows: vec![zero; registers],
        }
    }
}

/// What every row of one run shares.
struct RowContext<'a, E: FloatElem> {
    program: &'a ReduceProgram,
    sources: &'a [RowSource<'a, E>],
    scalars: &'a [E::C],
    dims: &'a [usize],
    plan: &'a Slots,
    n: usize,
}

impl<E: FloatElem> RowContext<'_, E>
where
    E::C: Num<A = E::C>,
{
    /// Runs every instruction for row `row` (the `local`-th of the task's
    /// output chunks), then stores the row's outputs.
    fn row(&self, row: usize, local: usize, chunks: &mut [&mut [E]], scratch: &mut Scratch<E::C>) {
        let n = self.n;
        let program = self.program;
        let slot = |r: usize| self.plan.of[r];
        for instruction in &program.instructions {
            let out = instruction.out();
            match *instruction {
                ReduceInstruction::Map(Instruction::Load { input, out }) => {
                    match (&self.sources[input], program.extents[out]) {
                        (RowSource::Tensor(reader), Extent::Full) => {
                            reader.read(self.dims, row * n, &mut scratch.slots[slot(out)])
                        }
                        (RowSource::Tensor(reader), Extent::Row) => {
                            let mut value = [E::C::of_f64(0.0)];
                            reader.read(self.dims, row * n, &mut value);
                            scratch.rows[out] = value[0];
                        }
                        (RowSource::Output(k), _) => {
                            let own = &chunks[*k][local * n..(local + 1) * n];
                            load::<E>(own, &mut scratch.slots[slot(out)]);
                        }
                    }
                }
                ReduceInstruction::Map(step) if program.extents[out] == Extent::Row => {
                    let mut operands = step.operands();
                    let a = [scratch.rows[operands.next().expect("an operand")]];
                    let b = operands.next().map(|r| [scratch.rows[r]]);
                    let mut o = [E::C::of_f64(0.0)];
                    apply::<E>(
                        &step,
                        &a,
                        b.as_ref().map_or(&[][..], |b| &b[..]),
                        self.scalars,
                        &mut o,
                    );
                    scratch.rows[out] = o[0];
                }
                ReduceInstruction::Map(step) => {
                    let mut result = core::mem::take(&mut scratch.slots[slot(out)]);
                    {
                        let Scratch {
                            slots,
                            broadcast,
                            rows,
                        } = &mut *scratch;
                        let mut views: [&[E::C]; 2] = [&[], &[]];
                        let [first, second] = broadcast;
                        let mut spare = [Some(first), Some(second)];
                        for (k, r) in step.operands().enumerate() {
                            views[k] = match program.extents[r] {
                                Extent::Full => &slots[self.plan.of[r]],
                                Extent::Row => {
                                    let buffer = spare[k].take().expect("two broadcast buffers");
                                    buffer.fill(rows[r]);
                                    buffer
                                }
                            };
                        }
                        apply::<E>(&step, views[0], views[1], self.scalars, &mut result);
                    }
                    scratch.slots[slot(out)] = result;
                }
                ReduceInstruction::Reduce { op, input, out } => {
                    let x = &scratch.slots[slot(input)];
                    let folded = vectorized(|| {
                        fold_row::<E::C>(
                            match op {
                                RowReduce::Sum | RowReduce::Mean => ReduceOp::Sum,
                                RowReduce::Prod => ReduceOp::Prod,
                                RowReduce::Max => ReduceOp::Max,
                                RowReduce::Min => ReduceOp::Min,
                            },
                            x,
                        )
                    });
                    let mut value = E::round(folded);
                    if op == RowReduce::Mean {
                        // mean_dim is sum_dim, then a division by the length.
                        let len = scalar_to_float::<E>(Scalar::Float(n as f64)).up();
                        value = E::round(value / len);
                    }
                    scratch.rows[out] = value;
                }
                ReduceInstruction::Softmax { log, input, out } => {
                    let mut result = core::mem::take(&mut scratch.slots[slot(out)]);
                    let x = &scratch.slots[slot(input)];
                    vectorized(|| softmax::row::<E::C>(x, &mut result, log));
                    E::round_slice(&mut result);
                    scratch.slots[slot(out)] = result;
                }
            }
        }
        for (output, chunk) in program.outputs.iter().zip(chunks.iter_mut()) {
            match program.extents[output.register] {
                Extent::Full => store::<E>(
                    &scratch.slots[slot(output.register)],
                    &mut chunk[local * n..(local + 1) * n],
                ),
                Extent::Row => chunk[local] = E::down(scratch.rows[output.register]),
            }
        }
    }
}
