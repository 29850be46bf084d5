//! L2 weight decay added to the gradient (Burn's `optim::decay`).

use burn_core::config::Config;
use burn_tensor::Tensor;

/// The configuration of [`WeightDecay`]: the penalty `λ`.
///
/// The optimizers that take it (`SgdConfig`, `AdamConfig`,
/// `AdaGradConfig`, `RmsPropConfig`) add `λ·θ` to the gradient, as
/// PyTorch's `weight_decay` argument does; `MuonConfig` applies it
/// decoupled, `θ ← θ·(1 - lr·λ)`. (AdamW, Lion and Adan take a plain
/// number: their decay is decoupled by definition.)
#[derive(Config, Debug)]
pub struct WeightDecayConfig {
    /// The penalty `λ`.
    pub penalty: f32,
}

/// L2 weight decay: `g ← g + λ·θ`.
#[derive(Clone, Debug)]
pub struct WeightDecay {
    penalty: f32,
}

impl WeightDecay {
    /// The decay `config` describes.
    pub fn new(config: &WeightDecayConfig) -> Self {
        Self {
            penalty: config.penalty,
        }
    }

    /// The gradient of the penalized loss: `grad + λ·tensor`.
    pub fn transform<const D: usize>(&self, grad: Tensor<D>, tensor: Tensor<D>) -> Tensor<D> {
        grad + tensor.mul_scalar(self.penalty)
    }
}

/// `λ` of an optional decay, 0 without one (for optimizers that fold it
/// into their own arithmetic).
pub(crate) fn penalty(config: &Option<WeightDecayConfig>) -> f64 {
    config.as_ref().map_or(0.0, |c| f64::from(c.penalty))
}
