//! Lion (Chen et al. 2023, "Symbolic Discovery of Optimization
//! Algorithms", Algorithm 2): the sign of an interpolated momentum, with
//! decoupled weight decay. PyTorch has no Lion; the tests' reference is
//! written from the paper.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::grad_clipping::{self, GradientClippingConfig};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`Lion`].
#[derive(Config, Debug)]
pub struct LionConfig {
    /// Interpolation `β₁` between momentum and gradient for the step.
    #[config(default = 0.9)]
    pub beta_1: f64,
    /// Decay `β₂` of the momentum.
    #[config(default = 0.99)]
    pub beta_2: f64,
    /// Decoupled weight decay `λ`.
    #[config(default = 0.0)]
    pub weight_decay: f64,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl LionConfig {
    /// The optimizer.
    pub fn build(&self) -> Lion {
        Lion {
            config: self.clone(),
        }
    }

    /// A module optimizer updating every parameter with [`Lion`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// Lion: `c = β₁·m + (1-β₁)·g`, `θ ← θ·(1 - lr·λ) - lr·sign(c)`,
/// `m ← β₂·m + (1-β₂)·g`, with `m` starting from zero.
#[derive(Clone, Debug)]
pub struct Lion {
    config: LionConfig,
}

/// The momentum of one parameter.
#[derive(Clone, Debug)]
pub struct LionState<const D: usize> {
    /// `m`.
    pub momentum: Tensor<D>,
}

record_state!(LionState<const D: usize> { momentum });

impl Optimizer for Lion {
    type State<const D: usize> = LionState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<LionState<D>>,
    ) -> (Tensor<D>, Option<LionState<D>>) {
        let c = &self.config;
        let momentum = state.map_or_else(|| grad.zeros_like(), |s| s.momentum);
        let interpolated =
            momentum.clone().mul_scalar(c.beta_1) + grad.clone().mul_scalar(1.0 - c.beta_1);
        let decayed = if c.weight_decay != 0.0 {
            tensor.mul_scalar(1.0 - lr * c.weight_decay)
        } else {
            tensor
        };
        let momentum = momentum.mul_scalar(c.beta_2) + grad.mul_scalar(1.0 - c.beta_2);
        (
            decayed - interpolated.sign().mul_scalar(lr),
            Some(LionState { momentum }),
        )
    }
}
