//! The gradients of one backward pass.

use burn_backend::{Backend, FloatTensor};

use crate::graph::GradMap;
use crate::tensor::AutodiffTensor;

/// The gradients of the leaves reached by one backward pass, as values of
/// the inner backend, looked up with the leaf tensors themselves.
pub struct Gradients<B: Backend> {
    map: GradMap<B>,
}

impl<B: Backend> Gradients<B> {
    pub(crate) fn new(map: GradMap<B>) -> Self {
        Self { map }
    }

    /// The gradient of `tensor`, if the backward pass reached it.
    pub fn get(&self, tensor: &AutodiffTensor<B>) -> Option<FloatTensor<B>> {
        self.map.get(&tensor.node_id()?).cloned()
    }

    /// Takes the gradient of `tensor` out.
    pub fn remove(&mut self, tensor: &AutodiffTensor<B>) -> Option<FloatTensor<B>> {
        self.map.remove(&tensor.node_id()?)
    }

    /// Sets the gradient of `tensor` (ignored if the tensor is not tracked).
    pub fn replace(&mut self, tensor: &AutodiffTensor<B>, grad: FloatTensor<B>) {
        if let Some(id) = tensor.node_id() {
            self.map.insert(id, grad);
        }
    }

    /// How many gradients are held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no gradient is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl<B: Backend> core::fmt::Debug for Gradients<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gradients({} tensors)", self.map.len())
    }
}
