//! [`GradientsParams`]: gradients keyed by parameter id.

use core::any::Any;
use std::boxed::Box;
use std::collections::HashMap;

use burn_core::module::{Module, ModuleVisitor, Param, ParamId};
use burn_tensor::{Gradients, Tensor};

use crate::grad_clipping::clip_coefficient;

/// One parameter's gradient, its rank erased (a `Tensor<rank>` inside).
pub(crate) struct GradEntry {
    pub(crate) rank: usize,
    pub(crate) tensor: Box<dyn Any + Send>,
}

/// The gradients of a module's parameters, keyed by [`ParamId`].
///
/// A backward pass yields [`Gradients`], keyed by the leaf tensors of one
/// graph; this keys them by parameter identity instead, so they outlive
/// the graph, can be accumulated over several passes, and find their
/// parameter in any copy of the module (after a move or a record load).
/// Gradients are plain tensors, without autodiff context.
#[derive(Default)]
pub struct GradientsParams {
    grads: HashMap<ParamId, GradEntry>,
}

impl core::fmt::Debug for GradientsParams {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "GradientsParams({} tensors)", self.grads.len())
    }
}

impl GradientsParams {
    /// No gradients.
    pub fn new() -> Self {
        Self::default()
    }

    /// The gradients of `module`'s trainable float parameters, taken out of
    /// `grads` (parameters the backward pass did not reach have none).
    pub fn from_grads<M: Module>(mut grads: Gradients, module: &M) -> Self {
        Self::from_module(&mut grads, module)
    }

    /// As [`from_grads`](Self::from_grads), taking only `module`'s
    /// gradients out of `grads` and leaving the rest there: for a
    /// sub-module optimized on its own.
    pub fn from_module<M: Module>(grads: &mut Gradients, module: &M) -> Self {
        let mut collector = Collector {
            grads,
            out: Self::new(),
        };
        module.visit(&mut collector);
        collector.out
    }

    /// The gradient of parameter `id`, if it has a rank-`D` one.
    pub fn get<const D: usize>(&self, id: ParamId) -> Option<Tensor<D>> {
        self.grads
            .get(&id)
            .and_then(|entry| entry.tensor.downcast_ref::<Tensor<D>>())
            .cloned()
    }

    /// Takes out the gradient of parameter `id`, if it has a rank-`D` one.
    pub fn remove<const D: usize>(&mut self, id: ParamId) -> Option<Tensor<D>> {
        match self.grads.get(&id) {
            Some(entry) if entry.rank == D => {}
            _ => return None,
        }
        let entry = self.grads.remove(&id)?;
        Some(
            *entry
                .tensor
                .downcast::<Tensor<D>>()
                .expect("a gradient entry holds a tensor of its rank"),
        )
    }

    /// Sets the gradient of parameter `id` (its autodiff context, if any,
    /// is dropped), replacing any earlier one.
    pub fn register<const D: usize>(&mut self, id: ParamId, grad: Tensor<D>) {
        self.grads.insert(
            id,
            GradEntry {
                rank: D,
                tensor: Box::new(grad.without_autodiff()),
            },
        );
    }

    /// Whether parameter `id` has a gradient.
    pub fn contains(&self, id: ParamId) -> bool {
        self.grads.contains_key(&id)
    }

    /// The number of gradients.
    pub fn len(&self) -> usize {
        self.grads.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.grads.is_empty()
    }

    /// Scales every gradient of `module`'s parameters by
    /// `min(1, max_norm / (norm + 1e-6))`, where `norm` is the L2 norm of
    /// all of them together (PyTorch's `clip_grad_norm_`). Per-tensor
    /// clipping is [`GradientClipping`](crate::GradientClipping).
    pub fn clip_global_norm<M: Module>(&mut self, module: &M, max_norm: f64) {
        let mut squares = SumOfSquares {
            grads: self,
            total: None,
        };
        module.visit(&mut squares);
        let Some(total) = squares.total else {
            return;
        };
        let mut scaler = Scaler {
            grads: self,
            norm: total.sqrt(),
            max_norm,
        };
        module.visit(&mut scaler);
    }

    /// The ids with a gradient.
    pub fn ids(&self) -> impl Iterator<Item = ParamId> + '_ {
        self.grads.keys().copied()
    }
}

struct Collector<'a> {
    grads: &'a mut Gradients,
    out: GradientsParams,
}

impl ModuleVisitor for Collector<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        // A parameter that is not trainable is not a leaf: it has no gradient.
        if !param.is_require_grad() || !param.is_initialized() {
            return;
        }
        if let Some(grad) = param.val().grad_remove(self.grads) {
            self.out.register(param.id, grad);
        }
    }
}

struct SumOfSquares<'a> {
    grads: &'a GradientsParams,
    total: Option<Tensor<1>>,
}

impl ModuleVisitor for SumOfSquares<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let Some(grad) = self.grads.get::<D>(param.id) else {
            return;
        };
        let squares = grad.square().sum();
        self.total = Some(match self.total.take() {
            Some(total) => {
                let device = squares.device();
                total.to_device(&device) + squares
            }
            None => squares,
        });
    }
}

struct Scaler<'a> {
    grads: &'a mut GradientsParams,
    norm: Tensor<1>,
    max_norm: f64,
}

impl ModuleVisitor for Scaler<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let Some(grad) = self.grads.remove::<D>(param.id) else {
            return;
        };
        let norm = self.norm.clone().to_device(&grad.device());
        let scaled = grad * clip_coefficient::<D>(norm, self.max_norm);
        self.grads.register(param.id, scaled);
    }
}
