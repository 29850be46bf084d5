//! The float primitive of `Autodiff<B, C>`: a value of `B` and its place in the graph.

use std::sync::Arc;

use burn_backend::{Backend, FloatTensor, TensorMetadata};
use burn_std::{DType, Shape};

use crate::checkpoint::Checkpointing;
use crate::graph::{Node, NodeId};

/// A float tensor of `B` with its autodiff context.
///
/// Untracked tensors (constants) have no node; tracked ones point to their
/// node in the graph. The checkpointing strategy is carried by every tensor,
/// tracked or not, so that inputs of different strategies can be refused.
#[derive(Clone, Debug)]
pub struct AutodiffTensor<B: Backend> {
    primitive: FloatTensor<B>,
    pub(crate) node: Option<Arc<Node<B>>>,
    mode: Checkpointing,
}

/// A handle on a tensor's graph node, given to [`crate::Backward::prepare`].
///
/// Holding it keeps the node alive while a step registers; it is consumed by
/// `prepare` and must not be stored in backward or checkpoint state.
#[derive(Debug)]
pub struct NodeGuard<B: Backend> {
    pub(crate) node: Option<Arc<Node<B>>>,
}

impl<B: Backend> AutodiffTensor<B> {
    /// A constant: a value no gradient flows to.
    pub fn constant(primitive: FloatTensor<B>, mode: Checkpointing) -> Self {
        Self {
            primitive,
            node: None,
            mode,
        }
    }

    pub(crate) fn tracked(primitive: FloatTensor<B>, node: Arc<Node<B>>) -> Self {
        let mode = node.mode;
        Self {
            primitive,
            node: Some(node),
            mode,
        }
    }

    /// The value.
    pub fn primitive(&self) -> &FloatTensor<B> {
        &self.primitive
    }

    /// The value, dropping the graph link.
    pub fn into_primitive(self) -> FloatTensor<B> {
        self.primitive
    }

    /// The value and the node handle.
    pub fn into_parts(self) -> (FloatTensor<B>, NodeGuard<B>) {
        (self.primitive, NodeGuard { node: self.node })
    }

    /// A handle on the node, for [`crate::Backward::prepare`].
    pub fn node(&self) -> NodeGuard<B> {
        NodeGuard {
            node: self.node.clone(),
        }
    }

    /// The checkpointing strategy the tensor carries.
    pub fn checkpointing(&self) -> Checkpointing {
        self.mode
    }

    /// Whether the tensor is part of a graph (a leaf requiring a gradient, or
    /// the result of an operation on one).
    pub fn is_tracked(&self) -> bool {
        self.node.is_some()
    }

    /// Whether the tensor is a leaf whose gradient backward computes.
    pub fn is_require_grad(&self) -> bool {
        self.node.as_ref().is_some_and(|node| node.leaf)
    }

    /// Marks the tensor as a leaf requiring a gradient (a fresh leaf, cut from
    /// any history), or drops its graph link when `require_grad` is false.
    /// A tensor that already is such a leaf is returned unchanged.
    pub fn set_require_grad(self, require_grad: bool) -> Self {
        match (require_grad, self.is_require_grad()) {
            (true, true) => self,
            (true, false) => {
                let node = Node::leaf(self.mode);
                Self::tracked(self.primitive, node)
            }
            (false, _) => Self::constant(self.primitive, self.mode),
        }
    }

    /// The same value with no graph link.
    pub fn detach(self) -> Self {
        Self::constant(self.primitive, self.mode)
    }

    pub(crate) fn node_id(&self) -> Option<NodeId> {
        self.node.as_ref().map(|node| node.id)
    }
}

impl<B: Backend> TensorMetadata for AutodiffTensor<B> {
    fn dtype(&self) -> DType {
        self.primitive.dtype()
    }

    fn shape(&self) -> Shape {
        self.primitive.shape()
    }
}
