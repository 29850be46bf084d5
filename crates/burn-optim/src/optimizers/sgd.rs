//! Stochastic gradient descent with momentum, dampening, Nesterov momentum
//! and weight decay, with PyTorch's `torch.optim.SGD` semantics.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::{GradientClipping, LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`Sgd`].
#[derive(Config, Debug)]
pub struct SgdConfig {
    /// Momentum factor `μ` (0: plain SGD, no state).
    #[config(default = 0.0)]
    pub momentum: f64,
    /// Dampening `τ` of the momentum: the gradient enters the buffer scaled
    /// by `1 - τ` (from the second step on).
    #[config(default = 0.0)]
    pub dampening: f64,
    /// Nesterov momentum: step along `g + μ·b` instead of `b`.
    #[config(default = false)]
    pub nesterov: bool,
    /// L2 penalty `λ`, added to the gradient as `λ·θ`.
    #[config(default = 0.0)]
    pub weight_decay: f64,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClipping>,
}

impl SgdConfig {
    /// The optimizer.
    ///
    /// # Panics
    /// If Nesterov momentum is asked for without momentum or with
    /// dampening (as PyTorch, which has no meaning for it then).
    pub fn build(&self) -> Sgd {
        assert!(
            !self.nesterov || (self.momentum > 0.0 && self.dampening == 0.0),
            "SGD: Nesterov momentum needs a positive momentum and zero dampening"
        );
        Sgd {
            momentum: self.momentum,
            dampening: self.dampening,
            nesterov: self.nesterov,
            weight_decay: self.weight_decay,
        }
    }

    /// A module optimizer updating every parameter with [`Sgd`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build()).with_grad_clipping(self.grad_clipping)
    }
}

/// SGD: with `g = ∇ + λ·θ`, the momentum buffer `b = g` on the first step
/// and `b = μ·b + (1 - τ)·g` after; the step `d = g + μ·b` (Nesterov) or
/// `d = b` (or `g` without momentum); `θ ← θ - lr·d`.
#[derive(Clone, Debug)]
pub struct Sgd {
    momentum: f64,
    dampening: f64,
    nesterov: bool,
    weight_decay: f64,
}

/// The momentum buffer of one parameter.
#[derive(Clone, Debug)]
pub struct SgdState<const D: usize> {
    /// `b`, the running momentum.
    pub momentum: Tensor<D>,
}

record_state!(SgdState<const D: usize> { momentum });

impl Optimizer for Sgd {
    type State<const D: usize> = SgdState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<SgdState<D>>,
    ) -> (Tensor<D>, Option<SgdState<D>>) {
        let grad = if self.weight_decay != 0.0 {
            grad + tensor.clone().mul_scalar(self.weight_decay)
        } else {
            grad
        };
        if self.momentum == 0.0 {
            return (tensor - grad.mul_scalar(lr), None);
        }
        let buffer = match state {
            None => grad.clone(),
            Some(state) => {
                state.momentum.mul_scalar(self.momentum)
                    + grad.clone().mul_scalar(1.0 - self.dampening)
            }
        };
        let direction = if self.nesterov {
            grad + buffer.clone().mul_scalar(self.momentum)
        } else {
            buffer.clone()
        };
        (
            tensor - direction.mul_scalar(lr),
            Some(SgdState { momentum: buffer }),
        )
    }
}
