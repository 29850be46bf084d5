//! Planning a queue: which operations run as fused blocks, cached under
//! the queue's relative form.

use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::Backend;
use burn_ir::{OperationIr, TensorId};
use burn_std::Scalar;

use crate::{Optimization, OptimizationBuilder};

/// One step of a plan.
pub(crate) enum Step<B: Backend> {
    /// The operation at this index, on its own.
    Single(usize),
    /// The operations `start..end` as one block (its `Drop`s applied after).
    Fused {
        start: usize,
        end: usize,
        builder: &'static str,
        optimization: Arc<dyn Optimization<B>>,
    },
}

/// How to execute a queue.
pub(crate) struct Plan<B: Backend> {
    pub(crate) steps: Vec<Step<B>>,
}

impl<B: Backend> Plan<B> {
    /// Every operation on its own.
    pub(crate) fn singles(len: usize) -> Self {
        Self {
            steps: (0..len).map(Step::Single).collect(),
        }
    }
}

/// The queue with its tensor ids renumbered in order of first appearance
/// and its scalar values zeroed, as bytes: two queues with the same key run
/// the same kernels on the same shapes, dtypes and statuses, so one plan
/// serves both (the scalars are kernel arguments, not part of the kernel).
pub(crate) fn relative_key(ops: &[OperationIr]) -> Vec<u8> {
    let mut renumber: BTreeMap<TensorId, TensorId> = BTreeMap::new();
    let mut normalized = ops.to_vec();
    for op in &mut normalized {
        let tensors = op.tensors_mut();
        for tensor in tensors.inputs.into_iter().chain(tensors.outputs) {
            let next = TensorId::new(renumber.len() as u64);
            tensor.id = *renumber.entry(tensor.id).or_insert(next);
        }
        for scalar in op.scalars_mut() {
            scalar.value = Scalar::Int(0);
        }
    }
    let mut bytes = Vec::new();
    ciborium::into_writer(&normalized, &mut bytes).expect("writing to a Vec cannot fail");
    bytes
}

/// Greedy search: from each position, every builder grows its block as far
/// as it can; the longest block worth fusing runs fused, else the
/// operation runs on its own. `Drop`s inside a block are carried along.
pub(crate) fn search<B: Backend>(
    ops: &[OperationIr],
    builders: &mut [alloc::boxed::Box<dyn OptimizationBuilder<B>>],
) -> Plan<B> {
    let mut steps = Vec::new();
    let mut start = 0;
    while start < ops.len() {
        if matches!(ops[start], OperationIr::Drop(_)) {
            steps.push(Step::Single(start));
            start += 1;
            continue;
        }
        let mut best: Option<(usize, usize)> = None; // (builder, end)
        for (index, builder) in builders.iter_mut().enumerate() {
            builder.reset();
            let mut end = start;
            let mut last_accepted = start;
            while end < ops.len() {
                let op = &ops[end];
                if matches!(op, OperationIr::Drop(_)) {
                    end += 1;
                    continue;
                }
                if !builder.register(op) {
                    break;
                }
                end += 1;
                last_accepted = end;
            }
            if builder.is_worth_fusing() && best.is_none_or(|(_, e)| last_accepted > e) {
                best = Some((index, last_accepted));
            }
        }
        match best {
            Some((index, end)) => {
                // Rebuild the winner's block (the others reset it).
                let builder = &mut builders[index];
                builder.reset();
                for op in &ops[start..end] {
                    if !matches!(op, OperationIr::Drop(_)) {
                        let accepted = builder.register(op);
                        debug_assert!(accepted, "a builder refused what it accepted before");
                    }
                }
                steps.push(Step::Fused {
                    start,
                    end,
                    builder: builder.name(),
                    optimization: builder.build(),
                });
                start = end;
            }
            None => {
                steps.push(Step::Single(start));
                start += 1;
            }
        }
    }
    Plan { steps }
}

/// Found plans, by relative key, and what finding them cost.
pub(crate) struct PlanCache<B: Backend> {
    plans: BTreeMap<Vec<u8>, Arc<Plan<B>>>,
    pub(crate) searches: u64,
    pub(crate) hits: u64,
}

/// Plans kept before the cache starts over: a program whose queues keep
/// changing shape (every batch another length) must not grow it forever.
const MAX_PLANS: usize = 512;

impl<B: Backend> PlanCache<B> {
    pub(crate) fn new() -> Self {
        Self {
            plans: BTreeMap::new(),
            searches: 0,
            hits: 0,
        }
    }

    /// The plan of `ops`, searched once per relative form.
    pub(crate) fn plan(
        &mut self,
        ops: &[OperationIr],
        builders: &mut [alloc::boxed::Box<dyn OptimizationBuilder<B>>],
    ) -> Arc<Plan<B>> {
        let key = relative_key(ops);
        if let Some(plan) = self.plans.get(&key) {
            self.hits += 1;
            return plan.clone();
        }
        self.searches += 1;
        let plan = Arc::new(search(ops, builders));
        if self.plans.len() >= MAX_PLANS {
            self.plans.clear();
        }
        self.plans.insert(key, plan.clone());
        plan
    }
}
