//! How an operation records its backward step: the [`Backward`] trait and
//! the [`Prepared`] step being registered.
//!
//! Every differentiable operation follows the same shape:
//!
//! ```text
//! let prep = MyOpBackward.prepare::<C>([lhs.node(), rhs.node()]);
//! if !prep.is_tracked() {                 // no input needs a gradient:
//!     return untracked(forward(...));     // plain forward, nothing recorded
//! }
//! let prep = prep.memory_bound([&lhs, &rhs], retro);   // or .compute_bound()
//! let state = (prep.checkpoint(&lhs), ...);             // what backward needs
//! prep.finish(state, forward(...))
//! ```

use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use burn_backend::{Backend, FloatTensor};

use crate::checkpoint::{
    CheckpointStrategy, Checkpointed, Checkpointing, Recompute, RetroForward, Source,
};
use crate::graph::{GradMap, Node, NodeId, Step, next_id};
use crate::tensor::{AutodiffTensor, NodeGuard};

/// The backward pass of an operation with `N` float inputs.
pub trait Backward<B: Backend, const N: usize>: Sized + Send + 'static {
    /// What the forward pass keeps for the backward pass (shapes, scalars,
    /// [`Checkpointed`] values): only what the derivative needs.
    type State: Send + 'static;

    /// Given the gradient of the output, registers the gradient of each
    /// tracked input with `grads`.
    fn backward(self, grad: FloatTensor<B>, state: Self::State, grads: &mut ParentGrads<'_, B, N>);

    /// The operation's name in messages (a consumed graph, mixed strategies).
    fn name(&self) -> &'static str {
        op_name::<Self>()
    }

    /// Starts registering a step of this operation for inputs whose nodes are
    /// `nodes`, under the strategy `C`.
    ///
    /// # Panics
    /// If tracked inputs carry a checkpointing strategy other than `C`'s.
    fn prepare<C: CheckpointStrategy>(self, nodes: [NodeGuard<B>; N]) -> Prepared<B, Self, N> {
        Prepared::new(self, nodes.map(|guard| guard.node), C::MODE)
    }
}

/// A step being registered (see the module docs).
pub struct Prepared<B: Backend, T, const N: usize> {
    backward: T,
    parents: [Option<Arc<Node<B>>>; N],
    mode: Checkpointing,
    recompute: Option<Recompute<B>>,
}

impl<B: Backend, T: Backward<B, N>, const N: usize> Prepared<B, T, N> {
    pub(crate) fn new(
        backward: T,
        parents: [Option<Arc<Node<B>>>; N],
        mode: Checkpointing,
    ) -> Self {
        if let Some(other) = parents.iter().flatten().find(|node| node.mode != mode) {
            panic!(
                "{}: inputs use different checkpointing strategies ({:?} and {:?}); \
                 autodiff inputs of one operation must share one strategy",
                backward.name(),
                other.mode,
                mode
            );
        }
        Self {
            backward,
            parents,
            mode,
            recompute: None,
        }
    }

    /// Whether any input is tracked, i.e. whether a step will be recorded.
    pub fn is_tracked(&self) -> bool {
        self.parents.iter().any(Option::is_some)
    }

    /// Whether input `index` is tracked (needs a gradient).
    pub fn is_parent_tracked(&self, index: usize) -> bool {
        self.parents[index].is_some()
    }

    /// Marks the operation compute-bound: its output is kept by the steps
    /// that need it, never recomputed.
    pub fn compute_bound(self) -> Self {
        self
    }

    /// Marks the operation memory-bound: under balanced checkpointing its
    /// output is recomputed with `retro` from `inputs` (in this order) when a
    /// later step needs it, instead of being kept.
    pub fn memory_bound(
        mut self,
        inputs: [&AutodiffTensor<B>; N],
        retro: impl RetroForward<B>,
    ) -> Self {
        if self.mode == Checkpointing::Balanced && self.is_tracked() {
            let sources = inputs
                .iter()
                .map(|input| source(self.mode, input))
                .collect();
            self.recompute = Some(Recompute {
                retro: Arc::new(retro),
                sources,
            });
        }
        self
    }

    /// A forward value the backward step will need: kept, or recomputed
    /// later under balanced checkpointing when `tensor` is the output of a
    /// memory-bound operation.
    pub fn checkpoint(&self, tensor: &AutodiffTensor<B>) -> Checkpointed<B> {
        Checkpointed(source(self.mode, tensor))
    }

    /// Records the step and returns the output tensor (tracked if any input
    /// is, a constant otherwise).
    pub fn finish(self, state: T::State, output: FloatTensor<B>) -> AutodiffTensor<B> {
        if !self.is_tracked() {
            return AutodiffTensor::constant(output, self.mode);
        }
        let ids = self
            .parents
            .each_ref()
            .map(|node| node.as_ref().map(|n| n.id));
        let op = self.backward.name();
        let step: Box<dyn Step<B>> = Box::new(Recorded::<B, T, N> {
            backward: self.backward,
            state,
            ids,
            _backend: PhantomData,
        });
        let node = Arc::new(Node {
            id: next_id(),
            op,
            parents: self.parents.into_iter().flatten().collect(),
            mode: self.mode,
            leaf: false,
            step: Mutex::new(Some(step)),
            recompute: Mutex::new(self.recompute),
        });
        AutodiffTensor::tracked(output, node)
    }
}

fn source<B: Backend>(mode: Checkpointing, tensor: &AutodiffTensor<B>) -> Source<B> {
    if mode == Checkpointing::Balanced
        && let Some(node) = &tensor.node
        && node
            .recompute
            .lock()
            .expect("autodiff: poisoned node")
            .is_some()
    {
        return Source::Node(node.clone());
    }
    Source::Value(tensor.primitive().clone())
}

/// The short type name of a backward struct, for messages.
pub(crate) fn op_name<T>() -> &'static str {
    let full = core::any::type_name::<T>();
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base)
}

/// A backward step with its state and the ids of its tracked parents.
struct Recorded<B: Backend, T: Backward<B, N>, const N: usize> {
    backward: T,
    state: T::State,
    ids: [Option<NodeId>; N],
    _backend: PhantomData<fn() -> B>,
}

impl<B: Backend, T: Backward<B, N>, const N: usize> Step<B> for Recorded<B, T, N> {
    fn run(self: Box<Self>, grad: FloatTensor<B>, grads: &mut GradMap<B>) {
        let this = *self;
        let mut parents = ParentGrads {
            ids: this.ids,
            grads,
        };
        this.backward.backward(grad, this.state, &mut parents);
    }
}

/// Where a backward step sends the gradients of its inputs.
pub struct ParentGrads<'a, B: Backend, const N: usize> {
    ids: [Option<NodeId>; N],
    grads: &'a mut GradMap<B>,
}

impl<B: Backend, const N: usize> ParentGrads<'_, B, N> {
    /// Whether input `index` needs a gradient.
    pub fn is_tracked(&self, index: usize) -> bool {
        self.ids[index].is_some()
    }

    /// Adds `grad` to the gradient of input `index` (ignored when untracked).
    pub fn register(&mut self, index: usize, grad: FloatTensor<B>) {
        let Some(id) = self.ids[index] else { return };
        let sum = match self.grads.remove(&id) {
            Some(previous) => B::float_add(previous, grad),
            None => grad,
        };
        self.grads.insert(id, sum);
    }
}

/// Records a step with any number of inputs (`cat`): `step` receives the
/// output gradient and the ids of the tracked inputs, in input order.
pub(crate) fn record_dyn<B: Backend>(
    op: &'static str,
    mode: Checkpointing,
    parents: Vec<Option<Arc<Node<B>>>>,
    output: FloatTensor<B>,
    step: impl FnOnce(FloatTensor<B>, &mut DynParentGrads<'_, B>) + Send + 'static,
) -> AutodiffTensor<B> {
    if let Some(other) = parents.iter().flatten().find(|node| node.mode != mode) {
        panic!(
            "{op}: inputs use different checkpointing strategies ({:?} and {mode:?}); \
             autodiff inputs of one operation must share one strategy",
            other.mode
        );
    }
    if parents.iter().all(Option::is_none) {
        return AutodiffTensor::constant(output, mode);
    }
    let ids: Vec<Option<NodeId>> = parents.iter().map(|p| p.as_ref().map(|n| n.id)).collect();
    let step: Box<dyn Step<B>> = Box::new(DynStep {
        ids,
        step: Some(step),
        _backend: PhantomData,
    });
    let node = Arc::new(Node {
        id: next_id(),
        op,
        parents: parents.into_iter().flatten().collect(),
        mode,
        leaf: false,
        step: Mutex::new(Some(step)),
        recompute: Mutex::new(None),
    });
    AutodiffTensor::tracked(output, node)
}

struct DynStep<B, F> {
    ids: Vec<Option<NodeId>>,
    step: Option<F>,
    _backend: PhantomData<fn() -> B>,
}

impl<B, F> Step<B> for DynStep<B, F>
where
    B: Backend,
    F: FnOnce(FloatTensor<B>, &mut DynParentGrads<'_, B>) + Send + 'static,
{
    fn run(mut self: Box<Self>, grad: FloatTensor<B>, grads: &mut GradMap<B>) {
        let step = self.step.take().expect("a step runs once");
        step(
            grad,
            &mut DynParentGrads {
                ids: &self.ids,
                grads,
            },
        );
    }
}

/// [`ParentGrads`] for a step with any number of inputs.
pub(crate) struct DynParentGrads<'a, B: Backend> {
    ids: &'a [Option<NodeId>],
    grads: &'a mut GradMap<B>,
}

impl<B: Backend> DynParentGrads<'_, B> {
    pub fn is_tracked(&self, index: usize) -> bool {
        self.ids[index].is_some()
    }

    pub fn register(&mut self, index: usize, grad: FloatTensor<B>) {
        let Some(id) = self.ids[index] else { return };
        let sum = match self.grads.remove(&id) {
            Some(previous) => B::float_add(previous, grad),
            None => grad,
        };
        self.grads.insert(id, sum);
    }
}
