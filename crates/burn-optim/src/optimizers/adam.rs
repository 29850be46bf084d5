//! Adam and AdamW, with PyTorch's `torch.optim.Adam` / `AdamW` semantics:
//! L2 weight decay added to the gradient (Adam) or decoupled decay of the
//! parameter (AdamW), bias-corrected moments, and epsilon added after the
//! square root of the corrected second moment.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::decay::{self, WeightDecayConfig};
use crate::grad_clipping::{self, GradientClippingConfig};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`Adam`].
#[derive(Config, Debug)]
pub struct AdamConfig {
    /// Decay `β₁` of the first moment.
    #[config(default = 0.9)]
    pub beta_1: f64,
    /// Decay `β₂` of the second moment.
    #[config(default = 0.999)]
    pub beta_2: f64,
    /// `ε`, added to the denominator.
    #[config(default = 1e-8)]
    pub epsilon: f64,
    /// L2 penalty `λ`, added to the gradient as `λ·θ`.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

/// The configuration of [`AdamW`].
#[derive(Config, Debug)]
pub struct AdamWConfig {
    /// Decay `β₁` of the first moment.
    #[config(default = 0.9)]
    pub beta_1: f64,
    /// Decay `β₂` of the second moment.
    #[config(default = 0.999)]
    pub beta_2: f64,
    /// `ε`, added to the denominator.
    #[config(default = 1e-8)]
    pub epsilon: f64,
    /// Decoupled weight decay `λ`: `θ ← θ·(1 - lr·λ)` before the Adam step
    /// (PyTorch's default, 0.01).
    #[config(default = 0.01)]
    pub weight_decay: f64,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdamConfig {
    /// The optimizer.
    pub fn build(&self) -> Adam {
        Adam {
            moments: Moments {
                beta_1: self.beta_1,
                beta_2: self.beta_2,
                epsilon: self.epsilon,
            },
            weight_decay: decay::penalty(&self.weight_decay),
        }
    }

    /// A module optimizer updating every parameter with [`Adam`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

impl AdamWConfig {
    /// The optimizer.
    pub fn build(&self) -> AdamW {
        AdamW {
            moments: Moments {
                beta_1: self.beta_1,
                beta_2: self.beta_2,
                epsilon: self.epsilon,
            },
            weight_decay: self.weight_decay,
        }
    }

    /// A module optimizer updating every parameter with [`AdamW`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// Adam: with `g = ∇ + λ·θ`, `m ← β₁·m + (1-β₁)·g`, `v ← β₂·v + (1-β₂)·g²`
/// (both from zero), and at step `t`:
/// `θ ← θ - lr/(1-β₁ᵗ) · m / (√v / √(1-β₂ᵗ) + ε)`.
#[derive(Clone, Debug)]
pub struct Adam {
    moments: Moments,
    weight_decay: f64,
}

/// AdamW: `θ ← θ·(1 - lr·λ)`, then Adam's step without weight decay.
#[derive(Clone, Debug)]
pub struct AdamW {
    moments: Moments,
    weight_decay: f64,
}

/// The moments of one parameter (shared by Adam and AdamW).
#[derive(Clone, Debug)]
pub struct AdamState<const D: usize> {
    /// The number of steps taken, `t`.
    pub time: usize,
    /// `m`, the running mean of gradients.
    pub moment_1: Tensor<D>,
    /// `v`, the running mean of squared gradients.
    pub moment_2: Tensor<D>,
}

record_state!(AdamState<const D: usize> { time, moment_1, moment_2 });

#[derive(Clone, Debug)]
struct Moments {
    beta_1: f64,
    beta_2: f64,
    epsilon: f64,
}

impl Moments {
    /// The bias-corrected Adam step `lr/(1-β₁ᵗ) · m / (√v/√(1-β₂ᵗ) + ε)`
    /// and the new state.
    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        grad: Tensor<D>,
        state: Option<AdamState<D>>,
    ) -> (Tensor<D>, AdamState<D>) {
        let (time, moment_1, moment_2) = match state {
            None => (
                1,
                grad.clone().mul_scalar(1.0 - self.beta_1),
                grad.square().mul_scalar(1.0 - self.beta_2),
            ),
            Some(state) => (
                state.time + 1,
                state.moment_1.mul_scalar(self.beta_1) + grad.clone().mul_scalar(1.0 - self.beta_1),
                state.moment_2.mul_scalar(self.beta_2)
                    + grad.square().mul_scalar(1.0 - self.beta_2),
            ),
        };
        let correction_1 = 1.0 - self.beta_1.powi(time as i32);
        let correction_2 = 1.0 - self.beta_2.powi(time as i32);
        let denominator = moment_2
            .clone()
            .sqrt()
            .div_scalar(correction_2.sqrt())
            .add_scalar(self.epsilon);
        let delta = (moment_1.clone() / denominator).mul_scalar(lr / correction_1);
        (
            delta,
            AdamState {
                time,
                moment_1,
                moment_2,
            },
        )
    }
}

impl Optimizer for Adam {
    type State<const D: usize> = AdamState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<AdamState<D>>,
    ) -> (Tensor<D>, Option<AdamState<D>>) {
        let grad = if self.weight_decay != 0.0 {
            grad + tensor.clone().mul_scalar(self.weight_decay)
        } else {
            grad
        };
        let (delta, state) = self.moments.step(lr, grad, state);
        (tensor - delta, Some(state))
    }
}

impl Optimizer for AdamW {
    type State<const D: usize> = AdamState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<AdamState<D>>,
    ) -> (Tensor<D>, Option<AdamState<D>>) {
        let decayed = if self.weight_decay != 0.0 {
            tensor.mul_scalar(1.0 - lr * self.weight_decay)
        } else {
            tensor
        };
        let (delta, state) = self.moments.step(lr, grad, state);
        (decayed - delta, Some(state))
    }
}
