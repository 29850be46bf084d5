//! Autodiff: the run-time context carried by float tensors, and gradients.
//!
//! A device made with [`Device::autodiff`] creates float tensors that carry
//! an autodiff context. Such tensors are constants until marked with
//! [`require_grad`](Tensor::require_grad) (a leaf) or computed from a
//! tracked tensor; [`backward`](Tensor::backward) then returns the
//! [`Gradients`] of every leaf the result depends on.

use burn_backend::{AutodiffBackend, BackwardError};
use burn_dispatch::Dispatch;
use burn_dispatch::autodiff::{self as ad, DispatchGradients};

use crate::bridge::BridgeTensor;
use crate::{Device, Float, Tensor, TensorKind};

pub use burn_dispatch::Checkpointing;

/// The gradients computed by one backward pass, read with
/// [`Tensor::grad`] on the leaf tensors.
pub struct Gradients {
    inner: DispatchGradients,
}

impl Gradients {
    /// How many leaf gradients are held.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether no gradient is held.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }
}

impl core::fmt::Debug for Gradients {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gradients({} tensors)", self.len())
    }
}

fn float_dispatch<const D: usize>(tensor: &Tensor<D, Float>) -> burn_dispatch::DispatchTensor {
    tensor.primitive.clone().into_dispatch()
}

fn require_grad_impl(primitive: BridgeTensor, require_grad: bool) -> BridgeTensor {
    if primitive.is_quantized() {
        if require_grad {
            panic!("require_grad: a quantized tensor takes no gradient (dequantize it first)");
        }
        return primitive;
    }
    let tensor = primitive.into_dispatch();
    if require_grad && ad::tensor_mode(&tensor).is_none() {
        panic!(
            "require_grad: the tensor has no autodiff context; create it on `device.autodiff()` \
             or call `.autodiff()` on it first"
        );
    }
    crate::bridge::ops::float::set_require_grad(BridgeTensor::float(tensor), require_grad)
}

impl<const D: usize> Tensor<D, Float> {
    /// Marks the tensor as a leaf whose gradient [`backward`](Self::backward)
    /// computes.
    ///
    /// # Panics
    /// If the tensor carries no autodiff context (create it on
    /// `device.autodiff()`, or call [`autodiff`](Self::autodiff) first).
    pub fn require_grad(self) -> Self {
        self.set_require_grad(true)
    }

    /// Marks the tensor as requiring a gradient, or not (`false` detaches it).
    ///
    /// # Panics
    /// If `require_grad` is true and the tensor carries no autodiff context.
    pub fn set_require_grad(self, require_grad: bool) -> Self {
        Self::from_bridge(require_grad_impl(self.primitive, require_grad))
    }

    /// Whether the tensor is a leaf marked with `require_grad`.
    pub fn is_require_grad(&self) -> bool {
        crate::bridge::ops::float::is_require_grad(&self.primitive)
    }

    /// Whether the tensor is part of a graph: a leaf requiring a gradient,
    /// or computed from one.
    pub fn is_tracked(&self) -> bool {
        ad::is_tracked(&float_dispatch(self))
    }

    /// The same values, cut from the graph (a constant; the autodiff context stays).
    pub fn detach(self) -> Self {
        Self::from_bridge(crate::bridge::ops::float::detach(self.primitive))
    }

    /// The same tensor with an autodiff context (a constant if it had none;
    /// unchanged if it had one), with no checkpointing.
    pub fn autodiff(self) -> Self {
        self.autodiff_with_checkpointing(Checkpointing::None)
    }

    /// As [`autodiff`](Self::autodiff), with the given checkpointing strategy
    /// for a tensor that had no context.
    pub fn autodiff_with_checkpointing(self, checkpointing: Checkpointing) -> Self {
        // Quantized tensors are constants: they never join a graph.
        if self.primitive.is_quantized() {
            return self;
        }
        let tensor = self.primitive.into_dispatch();
        Self::from_bridge(BridgeTensor::float(ad::enable(tensor, checkpointing)))
    }

    /// The same values without any autodiff context.
    pub fn without_autodiff(self) -> Self {
        if self.primitive.is_quantized() {
            return self;
        }
        let tensor = self.primitive.into_dispatch();
        Self::from_bridge(BridgeTensor::float(ad::disable(tensor)))
    }

    /// Runs the backward pass from this tensor (seeded with ones) and returns
    /// the gradients of the leaves it depends on. Consumes the graph steps
    /// it reaches.
    ///
    /// # Panics
    /// If the tensor has no autodiff context, depends on no tensor requiring
    /// a gradient, or its graph was consumed by an earlier backward pass
    /// (see [`try_backward`](Self::try_backward)).
    pub fn backward(&self) -> Gradients {
        self.try_backward()
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// As [`backward`](Self::backward), returning why it could not run.
    pub fn try_backward(&self) -> Result<Gradients, BackwardError> {
        Dispatch::backward(float_dispatch(self)).map(|inner| Gradients { inner })
    }

    /// This tensor's gradient in `grads`, if backward reached it (a plain
    /// tensor, without autodiff context).
    pub fn grad(&self, grads: &Gradients) -> Option<Tensor<D, Float>> {
        Dispatch::grad(&float_dispatch(self), &grads.inner)
            .map(|g| Self::from_bridge(BridgeTensor::float(g)))
    }

    /// Takes this tensor's gradient out of `grads`.
    pub fn grad_remove(&self, grads: &mut Gradients) -> Option<Tensor<D, Float>> {
        Dispatch::grad_remove(&float_dispatch(self), &mut grads.inner)
            .map(|g| Self::from_bridge(BridgeTensor::float(g)))
    }

    /// Sets this tensor's gradient in `grads`.
    pub fn grad_replace(&self, grads: &mut Gradients, grad: Tensor<D, Float>) {
        Dispatch::grad_replace(
            &float_dispatch(self),
            &mut grads.inner,
            grad.primitive.into_dispatch(),
        );
    }
}

impl<const D: usize, K: TensorKind> Tensor<D, K> {
    /// Whether the tensor carries an autodiff context (only float tensors do).
    pub fn is_autodiff(&self) -> bool {
        ad::tensor_mode(&self.primitive.clone().into_dispatch()).is_some()
    }
}

impl Device {
    /// The same device, whose new float tensors carry an autodiff context
    /// (no checkpointing). Equal to `self`: the context is a property of
    /// tensors, not of the hardware.
    pub fn autodiff(self) -> Self {
        self.autodiff_with_checkpointing(Checkpointing::None)
    }

    /// As [`autodiff`](Self::autodiff), with a checkpointing strategy:
    /// `Checkpointing::Balanced` recomputes memory-bound operations during
    /// backward instead of keeping their outputs.
    pub fn autodiff_with_checkpointing(self, checkpointing: Checkpointing) -> Self {
        Self::from_dispatch(self.dispatch().clone().autodiff(checkpointing))
    }

    /// The same device, creating plain tensors.
    pub fn without_autodiff(self) -> Self {
        Self::from_dispatch(self.dispatch().clone().without_autodiff())
    }

    /// Whether new float tensors on this device carry an autodiff context.
    pub fn is_autodiff(&self) -> bool {
        self.dispatch().is_autodiff()
    }

    /// The checkpointing strategy of the autodiff context, if any.
    pub fn checkpointing(&self) -> Option<Checkpointing> {
        self.dispatch().checkpointing()
    }
}
