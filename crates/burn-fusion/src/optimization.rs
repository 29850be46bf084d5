//! What a backend contributes to fusion: builders that grow blocks of
//! operations they can run as one kernel, and the executables they build.

use alloc::sync::Arc;

use burn_backend::Backend;
use burn_ir::{HandleContainer, OperationIr};

/// Grows one block of fusible operations, one queued operation at a time.
///
/// The search offers a builder the queued operations in order, starting at
/// some position; the builder keeps each one it can fuse with those it
/// already holds and refuses the first it cannot, which ends its block.
/// `Drop` operations are never offered: the executor applies them after the
/// block.
pub trait OptimizationBuilder<B: Backend>: Send {
    /// The builder's name, in statistics and error messages.
    fn name(&self) -> &'static str;

    /// Offers the next operation: `true` when it joins the block.
    fn register(&mut self, op: &OperationIr) -> bool;

    /// How many operations the block holds.
    fn len(&self) -> usize;

    /// Whether the block holds nothing.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether running the block fused beats running its operations one by
    /// one (a block of one element-wise op is not worth a kernel of its own).
    fn is_worth_fusing(&self) -> bool;

    /// The executable of the block built so far.
    fn build(&self) -> Arc<dyn Optimization<B>>;

    /// Forgets the block, to start another.
    fn reset(&mut self);
}

/// A block of operations compiled into one execution.
///
/// It was built for one sequence of operations; it is run for any sequence
/// of the same relative form (the same operations on the same shapes,
/// dtypes and statuses, with other tensor ids and scalar values), so it
/// reads ids and scalars from the operations it is given, not from those
/// it was built from.
pub trait Optimization<B: Backend>: Send + Sync {
    /// Runs the block: reads its inputs from `handles` (taking those whose
    /// use is `ReadWrite`), registers every output some later operation or
    /// the program may still read, and none other.
    fn execute(
        &self,
        ops: &[&OperationIr],
        handles: &mut HandleContainer<B>,
        device: &B::Device,
    ) -> Result<(), alloc::string::String>;
}
