//! Gradient checkpointing: which forward values a backward step keeps, and
//! which it recomputes.
//!
//! A backward step usually needs some forward values (the inputs of `mul`,
//! the output of `exp`). Each operation declares itself *compute-bound*
//! (expensive: matmul, convolution) or *memory-bound* (one cheap pass over
//! memory: element-wise ops, casts, most shape ops). What happens next is the
//! strategy's choice:
//!
//! - [`NoCheckpointing`] keeps every value a step asks for.
//! - [`BalancedCheckpointing`] keeps the values of compute-bound operations
//!   and of leaves, and *recomputes* the outputs of memory-bound operations
//!   during the backward pass from their recorded parents (a
//!   [`RetroForward`]), so a chain of cheap ops costs no stored activations.
//!   A recomputation walks up to the nearest kept value; what it computes
//!   lives only as long as the request that asked for it.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use burn_backend::{Backend, FloatTensor};

use crate::graph::{Node, NodeId};

/// The checkpointing strategy of an autodiff tensor, as a run-time value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Checkpointing {
    /// Keep every value a backward step needs.
    #[default]
    None,
    /// Recompute the outputs of memory-bound operations instead of keeping them.
    Balanced,
}

/// A checkpointing strategy, as the type parameter `C` of `Autodiff<B, C>`.
pub trait CheckpointStrategy:
    Clone + Copy + core::fmt::Debug + Default + Send + Sync + 'static
{
    /// The run-time value of the strategy, carried by every tensor it creates.
    const MODE: Checkpointing;
}

/// Every requested value is kept: the fastest backward, the most memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCheckpointing;

impl CheckpointStrategy for NoCheckpointing {
    const MODE: Checkpointing = Checkpointing::None;
}

/// Outputs of memory-bound operations are recomputed during backward.
#[derive(Clone, Copy, Debug, Default)]
pub struct BalancedCheckpointing;

impl CheckpointStrategy for BalancedCheckpointing {
    const MODE: Checkpointing = Checkpointing::Balanced;
}

/// How a memory-bound operation recomputes its output from its parents'
/// values (in the order its inputs were given to `memory_bound`).
pub trait RetroForward<B: Backend>: Send + Sync + 'static {
    /// The operation's output, from its inputs.
    fn forward(&self, inputs: Vec<FloatTensor<B>>) -> FloatTensor<B>;
}

impl<B, F> RetroForward<B> for F
where
    B: Backend,
    F: Fn(Vec<FloatTensor<B>>) -> FloatTensor<B> + Send + Sync + 'static,
{
    fn forward(&self, inputs: Vec<FloatTensor<B>>) -> FloatTensor<B> {
        self(inputs)
    }
}

/// A forward value a backward step asked for: kept, or to be recomputed.
///
/// Stored in a step's state; read once with [`Checkpointed::value`] during backward.
pub struct Checkpointed<B: Backend>(pub(crate) Source<B>);

impl<B: Backend> Checkpointed<B> {
    /// The value, recomputing it (and any recomputable ancestors) if needed.
    pub fn value(self) -> FloatTensor<B> {
        match self.0 {
            Source::Value(value) => value,
            Source::Node(node) => recompute(&node),
        }
    }
}

/// Where a value comes from: kept, or a node to recompute.
pub(crate) enum Source<B: Backend> {
    Value(FloatTensor<B>),
    Node(Arc<Node<B>>),
}

impl<B: Backend> Clone for Source<B> {
    fn clone(&self) -> Self {
        match self {
            Self::Value(value) => Self::Value(value.clone()),
            Self::Node(node) => Self::Node(node.clone()),
        }
    }
}

/// What a recomputable node keeps: how to recompute, and from what.
pub(crate) struct Recompute<B: Backend> {
    pub retro: Arc<dyn RetroForward<B>>,
    pub sources: Vec<Source<B>>,
}

/// The value of a recomputable node: its retro-forward applied to its
/// sources, recomputing recomputable sources first (an explicit post-order
/// walk, so long chains need no deep recursion). `memo` shares values
/// within one request.
/// Recomputes `root` from the nearest kept values.
///
/// The nodes to recompute (those reachable from `root` through
/// [`Source::Node`]) run in id order, parents first; each value is dropped
/// after its last use within this request, so a chain of `n` recomputed
/// ops holds about two values at a time rather than all `n` (keeping them
/// all would make balanced checkpointing use more memory than keeping
/// the activations). Iterative, so a long chain cannot overflow the stack.
fn recompute<B: Backend>(root: &Arc<Node<B>>) -> FloatTensor<B> {
    type Plan<B> = (Arc<dyn RetroForward<B>>, Vec<Source<B>>);
    // The subgraph to recompute, and how many of its nodes read each node.
    let mut plans: BTreeMap<NodeId, Plan<B>> = BTreeMap::new();
    let mut uses: HashMap<NodeId, usize> = HashMap::new();
    let mut stack = vec![root.clone()];
    while let Some(node) = stack.pop() {
        if plans.contains_key(&node.id) {
            continue;
        }
        let plan = {
            let guard = node.recompute.lock().expect("autodiff: poisoned node");
            let recompute = guard.as_ref().unwrap_or_else(|| {
                panic!(
                    "autodiff: the recomputation of `{}` was released by an earlier backward pass",
                    node.op
                )
            });
            (recompute.retro.clone(), recompute.sources.clone())
        };
        for source in &plan.1 {
            if let Source::Node(parent) = source {
                *uses.entry(parent.id).or_default() += 1;
                stack.push(parent.clone());
            }
        }
        plans.insert(node.id, plan);
    }

    // Ids grow with creation, so ascending ids put parents before children.
    let mut values: HashMap<NodeId, FloatTensor<B>> = HashMap::new();
    for (id, (retro, sources)) in plans {
        let inputs = sources
            .into_iter()
            .map(|source| match source {
                Source::Value(value) => value,
                Source::Node(parent) => {
                    let left = uses.get_mut(&parent.id).expect("counted above");
                    *left -= 1;
                    if *left == 0 {
                        values
                            .remove(&parent.id)
                            .expect("computed before its children")
                    } else {
                        values[&parent.id].clone()
                    }
                }
            })
            .collect();
        values.insert(id, retro.forward(inputs));
    }
    values
        .remove(&root.id)
        .expect("the root is recomputed last")
}
