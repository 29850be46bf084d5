//! The contract of a backend that differentiates: backward passes and gradient access.

use alloc::string::String;

use crate::{Backend, FloatTensor};

/// Why a backward pass could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackwardError {
    /// The tensor does not carry an autodiff context at all.
    #[error(
        "backward: the tensor is not an autodiff tensor; create it on `device.autodiff()` or call `.autodiff()` first"
    )]
    NotAutodiff,
    /// The tensor carries an autodiff context but depends on no tensor that requires a gradient.
    #[error(
        "backward: the tensor is not part of an autodiff graph: it depends on no tensor marked with `require_grad()`"
    )]
    NotTracked,
    /// A step on the way was already consumed by an earlier backward pass.
    #[error(
        "backward: the graph through `{op}` was already consumed by an earlier backward pass; run the forward pass again"
    )]
    Consumed {
        /// The operation whose step is gone.
        op: String,
    },
}

/// A backend recording operations so that gradients can be computed.
///
/// `InnerBackend` is the backend doing the arithmetic: gradients are its
/// float primitives, plain values with no graph of their own.
pub trait AutodiffBackend: Backend {
    /// The backend underneath, which computes the values.
    type InnerBackend: Backend;
    /// The gradients of one backward pass, keyed by the leaves they belong to.
    type Gradients: Send;

    /// Runs the backward pass from `tensor` (seeded with ones) and returns
    /// the gradients of every leaf that requires one.
    fn backward(tensor: FloatTensor<Self>) -> Result<Self::Gradients, BackwardError>;

    /// The gradient of `tensor` in `grads`, if it has one.
    fn grad(
        tensor: &FloatTensor<Self>,
        grads: &Self::Gradients,
    ) -> Option<FloatTensor<Self::InnerBackend>>;

    /// Takes the gradient of `tensor` out of `grads`.
    fn grad_remove(
        tensor: &FloatTensor<Self>,
        grads: &mut Self::Gradients,
    ) -> Option<FloatTensor<Self::InnerBackend>>;

    /// Sets the gradient of `tensor` in `grads`.
    fn grad_replace(
        tensor: &FloatTensor<Self>,
        grads: &mut Self::Gradients,
        grad: FloatTensor<Self::InnerBackend>,
    );

    /// The value of `tensor`, without its graph.
    fn inner(tensor: FloatTensor<Self>) -> FloatTensor<Self::InnerBackend>;

    /// A constant (untracked) tensor holding `tensor`.
    fn from_inner(tensor: FloatTensor<Self::InnerBackend>) -> FloatTensor<Self>;
}
