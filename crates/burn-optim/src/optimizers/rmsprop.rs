//! RMSProp (Hinton, lecture 6e), with PyTorch's `torch.optim.RMSprop`
//! semantics: L2 weight decay, the centered variant, momentum.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::decay::{self, WeightDecayConfig};
use crate::grad_clipping::{self, GradientClippingConfig};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`RmsProp`].
#[derive(Config, Debug)]
pub struct RmsPropConfig {
    /// Smoothing `α` of the running averages.
    #[config(default = 0.99)]
    pub alpha: f64,
    /// `ε`, added to the denominator after the square root.
    #[config(default = 1e-8)]
    pub epsilon: f64,
    /// L2 penalty `λ`, added to the gradient as `λ·θ`.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Momentum `μ` of the step (0: none).
    #[config(default = 0.0)]
    pub momentum: f64,
    /// Normalise by the estimated variance instead of the second moment.
    #[config(default = false)]
    pub centered: bool,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl RmsPropConfig {
    /// The optimizer.
    pub fn build(&self) -> RmsProp {
        RmsProp {
            config: self.clone(),
        }
    }

    /// A module optimizer updating every parameter with [`RmsProp`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// RMSProp: with `g = ∇ + λ·θ`, `s ← α·s + (1-α)·g²`; centered, also
/// `a ← α·a + (1-α)·g` and the denominator `d = √(s - a²) + ε`, otherwise
/// `d = √s + ε`. With momentum `b ← μ·b + g/d` and `θ ← θ - lr·b`,
/// without `θ ← θ - lr·g/d`. Every average starts from zero.
#[derive(Clone, Debug)]
pub struct RmsProp {
    config: RmsPropConfig,
}

/// The running averages of one parameter.
#[derive(Clone, Debug)]
pub struct RmsPropState<const D: usize> {
    /// `s`, the running mean of squared gradients.
    pub square_avg: Tensor<D>,
    /// `a`, the running mean of gradients (centered only).
    pub grad_avg: Option<Tensor<D>>,
    /// `b`, the momentum buffer (with momentum only).
    pub momentum: Option<Tensor<D>>,
}

record_state!(RmsPropState<const D: usize> { square_avg, grad_avg, momentum });

impl Optimizer for RmsProp {
    type State<const D: usize> = RmsPropState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<RmsPropState<D>>,
    ) -> (Tensor<D>, Option<RmsPropState<D>>) {
        let c = &self.config;
        let penalty = decay::penalty(&c.weight_decay);
        let grad = if penalty != 0.0 {
            grad + tensor.clone().mul_scalar(penalty)
        } else {
            grad
        };
        let (square_avg, grad_avg, momentum) = match state {
            Some(s) => (Some(s.square_avg), s.grad_avg, s.momentum),
            None => (None, None, None),
        };
        let new_square = grad.clone().square().mul_scalar(1.0 - c.alpha);
        let square_avg = match square_avg {
            Some(avg) => avg.mul_scalar(c.alpha) + new_square,
            None => new_square,
        };
        let (variance, grad_avg) = if c.centered {
            let new_grad = grad.clone().mul_scalar(1.0 - c.alpha);
            let grad_avg = match grad_avg {
                Some(avg) => avg.mul_scalar(c.alpha) + new_grad,
                None => new_grad,
            };
            (
                square_avg.clone() - grad_avg.clone().square(),
                Some(grad_avg),
            )
        } else {
            (square_avg.clone(), None)
        };
        let direction = grad / variance.sqrt().add_scalar(c.epsilon);
        let (delta, momentum) = if c.momentum > 0.0 {
            let buffer = match momentum {
                Some(buffer) => buffer.mul_scalar(c.momentum) + direction,
                None => direction,
            };
            (buffer.clone(), Some(buffer))
        } else {
            (direction, None)
        };
        (
            tensor - delta.mul_scalar(lr),
            Some(RmsPropState {
                square_avg,
                grad_avg,
                momentum,
            }),
        )
    }
}
