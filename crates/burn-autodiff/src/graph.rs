//! The graph: nodes linked to their parents, and the backward pass over them.
//!
//! A node is created for every tracked tensor: a *leaf* for a tensor marked
//! with `require_grad`, an *op node* for the output of an operation with at
//! least one tracked input. Nodes point to their parents (never to their
//! children), so the graph lives exactly as long as some tensor depending on
//! it. Ids grow with creation, so a child always has a larger id than its
//! parents and sorting by id is a topological order.
//!
//! Backward takes each reached op node's step out of its node: the step, and
//! the forward values it kept, are freed as soon as they have run, and a
//! second backward through the same node is an error naming the operation.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use burn_backend::{Backend, BackwardError, FloatTensor, TensorMetadata};

use crate::checkpoint::{Checkpointing, Recompute};
use crate::grads::Gradients;
use crate::tensor::AutodiffTensor;

/// The identity of a graph node, unique in the process.
pub type NodeId = u64;

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

pub(crate) fn next_id() -> NodeId {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// The gradients under construction during one backward pass.
pub(crate) type GradMap<B> = HashMap<NodeId, FloatTensor<B>>;

/// A recorded backward step, type-erased: given the gradient of its output,
/// it adds the gradients of its tracked parents to the map.
pub(crate) trait Step<B: Backend>: Send {
    fn run(self: Box<Self>, grad: FloatTensor<B>, grads: &mut GradMap<B>);
}

/// A tracked tensor's place in the graph.
pub(crate) struct Node<B: Backend> {
    pub id: NodeId,
    /// The operation that produced the node (a type name), or `"leaf"`.
    pub op: &'static str,
    pub parents: Vec<Arc<Node<B>>>,
    pub mode: Checkpointing,
    pub leaf: bool,
    /// The backward step; `None` for leaves and once consumed.
    pub step: Mutex<Option<Box<dyn Step<B>>>>,
    /// How to recompute the output (memory-bound ops under balanced checkpointing).
    pub recompute: Mutex<Option<Recompute<B>>>,
}

impl<B: Backend> Node<B> {
    pub fn leaf(mode: Checkpointing) -> Arc<Self> {
        Arc::new(Self {
            id: next_id(),
            op: "leaf",
            parents: Vec::new(),
            mode,
            leaf: true,
            step: Mutex::new(None),
            recompute: Mutex::new(None),
        })
    }
}

/// Dropping a long chain of nodes (a graph built over many steps and never
/// consumed) must not recurse once per node: parents whose last reference is
/// the dropped node are unlinked on a heap stack instead.
impl<B: Backend> Drop for Node<B> {
    fn drop(&mut self) {
        let mut stack = core::mem::take(&mut self.parents);
        // The step and the recomputation only refer to direct parents, which
        // the stack keeps alive while they are dropped.
        drop(self.step.get_mut().map(Option::take));
        drop(self.recompute.get_mut().map(Option::take));
        while let Some(node) = stack.pop() {
            if let Ok(mut node) = Arc::try_unwrap(node) {
                stack.append(&mut node.parents);
                drop(node.step.get_mut().map(Option::take));
                drop(node.recompute.get_mut().map(Option::take));
            }
        }
    }
}

impl<B: Backend> core::fmt::Debug for Node<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id)
            .field("op", &self.op)
            .field(
                "parents",
                &self.parents.iter().map(|p| p.id).collect::<Vec<_>>(),
            )
            .field("mode", &self.mode)
            .finish()
    }
}

/// Runs the backward pass from `root`, seeded with ones.
pub(crate) fn backward<B: Backend>(
    root: &AutodiffTensor<B>,
) -> Result<Gradients<B>, BackwardError> {
    let Some(root_node) = root.node.clone() else {
        return Err(BackwardError::NotTracked);
    };

    // Every node reachable from the root, in topological (id) order.
    let mut nodes = BTreeMap::new();
    let mut stack = vec![root_node.clone()];
    while let Some(node) = stack.pop() {
        if nodes.contains_key(&node.id) {
            continue;
        }
        stack.extend(node.parents.iter().cloned());
        nodes.insert(node.id, node);
    }
    // The consumed step nearest the root names the error.
    if let Some(consumed) = nodes
        .values()
        .rev()
        .find(|node| !node.leaf && node.step.lock().expect("autodiff: poisoned node").is_none())
    {
        return Err(BackwardError::Consumed {
            op: consumed.op.into(),
        });
    }

    let value = root.primitive();
    let seed = B::float_ones(value.shape(), &B::float_device(value), value.dtype());
    let mut grads = GradMap::<B>::new();
    grads.insert(root_node.id, seed);

    #[cfg(feature = "tracing")]
    let _span = tracing::trace_span!("autodiff.backward", nodes = nodes.len()).entered();
    for (id, node) in nodes.iter().rev() {
        if node.leaf {
            continue;
        }
        let step = node.step.lock().expect("autodiff: poisoned node").take();
        // A step no gradient reached is consumed all the same.
        if let (Some(step), Some(grad)) = (step, grads.remove(id)) {
            #[cfg(feature = "tracing")]
            let _span = tracing::trace_span!("autodiff.step", op = node.op).entered();
            step.run(grad, &mut grads);
        }
    }
    // What the consumed nodes kept for recomputation is not needed any more.
    for node in nodes.values() {
        *node.recompute.lock().expect("autodiff: poisoned node") = None;
    }
    grads.retain(|id, _| nodes.get(id).is_some_and(|node| node.leaf));
    Ok(Gradients::new(grads))
}
