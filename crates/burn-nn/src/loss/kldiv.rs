//! [`KLDivLoss`]: Kullback–Leibler divergence.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

use super::Reduction;

/// Configuration of a [`KLDivLoss`].
#[derive(Config, Debug)]
pub struct KLDivLossConfig {
    /// Whether the targets are given as log-probabilities too.
    #[config(default = false)]
    pub log_target: bool,
}

/// `KL(target ‖ prediction)` with predictions as log-probabilities, as
/// PyTorch's `KLDivLoss`: per element `t·(log t − x)` (0 where `t = 0`), or
/// `e^t·(t − x)` with `log_target`. Use [`Reduction::BatchMean`] for the
/// divergence per sample; `Mean` averages over every element, as PyTorch.
#[derive(Module, Debug)]
pub struct KLDivLoss {
    /// Whether targets are log-probabilities.
    pub log_target: bool,
}

impl KLDivLossConfig {
    /// Builds the loss.
    pub fn init(&self) -> KLDivLoss {
        KLDivLoss {
            log_target: self.log_target,
        }
    }
}

impl KLDivLoss {
    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        log_predictions: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(log_predictions, targets))
    }

    /// The per-element loss.
    ///
    /// # Panics
    /// If the shapes differ.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        log_predictions: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        assert_eq!(
            log_predictions.shape(),
            targets.shape(),
            "KLDivLoss::forward: predictions {} and targets {} differ",
            log_predictions.shape(),
            targets.shape()
        );
        if self.log_target {
            targets.clone().exp() * (targets - log_predictions)
        } else {
            // t·log t with 0·log 0 = 0: take the log of 1 where t = 0.
            let zero = targets.clone().lower_equal_elem(0.0);
            let log_t = targets.clone().mask_fill(zero, 1.0).log();
            targets * (log_t - log_predictions)
        }
    }
}
