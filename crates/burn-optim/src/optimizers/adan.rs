//! Adan (Xie et al. 2022, "Adan: Adaptive Nesterov Momentum Algorithm for
//! Faster Optimizing Deep Models", Algorithm 1). PyTorch has no Adan; the
//! tests' reference is written from the paper.
//!
//! The betas follow the paper's convention: each weighs the *new* term
//! (`m ← (1-β₁)·m + β₁·g`), so the defaults are small (0.02, 0.08, 0.01).
//! As in the paper, the first step initialises `m = g`, `v = 0`, `n = g²`
//! (no previous gradient, so no difference term), and there is no bias
//! correction.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::grad_clipping::{self, GradientClippingConfig};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`Adan`].
#[derive(Config, Debug)]
pub struct AdanConfig {
    /// Weight `β₁` of the new gradient in the first moment.
    #[config(default = 0.02)]
    pub beta_1: f64,
    /// Weight `β₂` of the new gradient difference in its average.
    #[config(default = 0.08)]
    pub beta_2: f64,
    /// Weight `β₃` of the new term in the second moment.
    #[config(default = 0.01)]
    pub beta_3: f64,
    /// `ε`, added to the denominator.
    #[config(default = 1e-8)]
    pub epsilon: f64,
    /// Weight decay `λ`, applied as the paper's proximal step
    /// `θ ← θ / (1 + λ·lr)`.
    #[config(default = 0.0)]
    pub weight_decay: f64,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdanConfig {
    /// The optimizer.
    pub fn build(&self) -> Adan {
        Adan {
            config: self.clone(),
        }
    }

    /// A module optimizer updating every parameter with [`Adan`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// Adan: with `Δ = g - g_prev`,
/// `m ← (1-β₁)·m + β₁·g`, `v ← (1-β₂)·v + β₂·Δ`,
/// `n ← (1-β₃)·n + β₃·(g + (1-β₂)·Δ)²`,
/// `θ ← (θ - lr/(√n + ε) · (m + (1-β₂)·v)) / (1 + λ·lr)`.
#[derive(Clone, Debug)]
pub struct Adan {
    config: AdanConfig,
}

/// The moments of one parameter, and its previous gradient.
#[derive(Clone, Debug)]
pub struct AdanState<const D: usize> {
    /// `m`, the gradient average.
    pub moment_1: Tensor<D>,
    /// `v`, the gradient-difference average.
    pub moment_diff: Tensor<D>,
    /// `n`, the second moment.
    pub moment_2: Tensor<D>,
    /// The gradient of the previous step.
    pub previous_grad: Tensor<D>,
}

record_state!(AdanState<const D: usize> { moment_1, moment_diff, moment_2, previous_grad });

impl Optimizer for Adan {
    type State<const D: usize> = AdanState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<AdanState<D>>,
    ) -> (Tensor<D>, Option<AdanState<D>>) {
        let c = &self.config;
        let (moment_1, moment_diff, moment_2) = match state {
            None => (grad.clone(), grad.zeros_like(), grad.clone().square()),
            Some(s) => {
                let diff = grad.clone() - s.previous_grad;
                let corrected = grad.clone() + diff.clone().mul_scalar(1.0 - c.beta_2);
                (
                    s.moment_1.mul_scalar(1.0 - c.beta_1) + grad.clone().mul_scalar(c.beta_1),
                    s.moment_diff.mul_scalar(1.0 - c.beta_2) + diff.mul_scalar(c.beta_2),
                    s.moment_2.mul_scalar(1.0 - c.beta_3) + corrected.square().mul_scalar(c.beta_3),
                )
            }
        };
        let direction = moment_1.clone() + moment_diff.clone().mul_scalar(1.0 - c.beta_2);
        let step = (direction / moment_2.clone().sqrt().add_scalar(c.epsilon)).mul_scalar(lr);
        let mut updated = tensor - step;
        if c.weight_decay != 0.0 {
            updated = updated.div_scalar(1.0 + c.weight_decay * lr);
        }
        (
            updated,
            Some(AdanState {
                moment_1,
                moment_diff,
                moment_2,
                previous_grad: grad,
            }),
        )
    }
}
