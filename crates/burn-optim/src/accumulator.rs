//! [`GradientsAccumulator`]: summing gradients over several backward passes.

use burn_core::module::{Module, ModuleVisitor, Param};
use burn_tensor::Tensor;

use crate::GradientsParams;

/// Sums the gradients of several backward passes, for updates on batches
/// too large to run at once.
///
/// Gradients are summed, not averaged: scale the loss (or the learning
/// rate) by the number of passes to step on the mean.
#[derive(Debug, Default)]
pub struct GradientsAccumulator {
    grads: GradientsParams,
    count: usize,
}

impl GradientsAccumulator {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `grads` (of `module`'s parameters) to the sum. Gradients of
    /// parameters not in `module` are ignored.
    pub fn accumulate<M: Module>(&mut self, module: &M, grads: GradientsParams) {
        let mut adder = Adder {
            sum: &mut self.grads,
            new: grads,
        };
        module.visit(&mut adder);
        self.count += 1;
    }

    /// How many passes were accumulated since the last [`grads`](Self::grads).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The summed gradients, leaving the accumulator empty.
    pub fn grads(&mut self) -> GradientsParams {
        self.count = 0;
        core::mem::take(&mut self.grads)
    }
}

struct Adder<'a> {
    sum: &'a mut GradientsParams,
    new: GradientsParams,
}

impl ModuleVisitor for Adder<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let Some(grad) = self.new.remove::<D>(param.id) else {
            return;
        };
        let sum = match self.sum.remove::<D>(param.id) {
            Some(previous) => previous + grad,
            None => grad,
        };
        self.sum.register(param.id, sum);
    }
}
