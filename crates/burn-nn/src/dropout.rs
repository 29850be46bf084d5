//! [`Dropout`]: zeroes random elements while training.

use burn::config::Config;
use burn::module::{Flag, Module, Param};
use burn::tensor::{Distribution, Tensor};

/// Configuration of a [`Dropout`] layer.
#[derive(Config, Debug)]
pub struct DropoutConfig {
    /// The probability that an element is zeroed, in `[0, 1]`.
    pub prob: f64,
}

/// Zeroes each element with probability `prob` and scales the others by
/// `1 / (1 - prob)`, so the expected value is unchanged ("inverted"
/// dropout, as PyTorch).
///
/// It drops only while its `training` flag is on: on when built, off in a
/// `valid()` snapshot (and after `freeze()`), back on after `train()`. The
/// mask is drawn from the input device's generator, so `device.seed(s)`
/// makes it reproducible.
#[derive(Module, Debug)]
pub struct Dropout {
    /// The probability that an element is zeroed.
    pub prob: f64,
    /// Whether the layer drops (module state, never recorded).
    pub training: Param<Flag>,
}

impl DropoutConfig {
    /// Builds the layer, in training mode.
    ///
    /// # Panics
    /// If `prob` is not in `[0, 1]`.
    pub fn init(&self) -> Dropout {
        assert!(
            (0.0..=1.0).contains(&self.prob),
            "DropoutConfig::init: prob must be in [0, 1], got {}",
            self.prob
        );
        Dropout {
            prob: self.prob,
            training: Param::from_bool(true),
        }
    }
}

impl Dropout {
    /// Whether a forward pass drops elements now.
    pub fn is_training(&self) -> bool {
        self.training.is_enabled()
    }

    /// `input` with elements dropped while training, unchanged otherwise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        if !self.is_training() || self.prob == 0.0 {
            return input;
        }
        if self.prob == 1.0 {
            // 1 / (1 - prob) would be infinite and 0 · ∞ is NaN.
            return input.zeros_like();
        }
        let keep = 1.0 - self.prob;
        let mask = Tensor::<D>::random(
            input.shape(),
            Distribution::Bernoulli(keep),
            (&input.device(), input.dtype()),
        );
        input * mask * (1.0 / keep)
    }
}
