//! [`BinaryCrossEntropyLoss`]: independent yes/no targets.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Int, Tensor};

use super::cross_entropy::class_weights;

/// Configuration of a [`BinaryCrossEntropyLoss`].
#[derive(Config, Debug)]
pub struct BinaryCrossEntropyLossConfig {
    /// One weight per class (the last dim of the input, multi-label); each
    /// element's loss is multiplied by its class weight before the mean.
    pub weights: Option<Vec<f32>>,
    /// Label smoothing `ε` in `[0, 1]`: targets become `(1 − ε)·y + ε / 2`.
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits (`true`: computed stably from them, as
    /// PyTorch's `BCEWithLogitsLoss`) or probabilities (`false`, `BCELoss`).
    #[config(default = false)]
    pub logits: bool,
}

/// Binary cross entropy, averaged over every element.
#[derive(Module, Debug)]
pub struct BinaryCrossEntropyLoss {
    /// Per-class weights (a constant tensor).
    pub weights: Option<Tensor<1>>,
    /// Label smoothing.
    pub smoothing: Option<f32>,
    /// Whether inputs are logits.
    pub logits: bool,
}

impl BinaryCrossEntropyLossConfig {
    /// Builds the loss; class weights live on `device`.
    ///
    /// # Panics
    /// If `smoothing` is outside `[0, 1]` or a weight is negative.
    pub fn init(&self, device: &Device) -> BinaryCrossEntropyLoss {
        if let Some(alpha) = self.smoothing {
            assert!(
                (0.0..=1.0).contains(&alpha),
                "BinaryCrossEntropyLossConfig::init: smoothing must be in [0, 1], got {alpha}"
            );
        }
        BinaryCrossEntropyLoss {
            weights: class_weights("BinaryCrossEntropyLossConfig", &self.weights, device),
            smoothing: self.smoothing,
            logits: self.logits,
        }
    }
}

impl BinaryCrossEntropyLoss {
    /// The loss of `input` (probabilities or logits) against `targets` (0 or
    /// 1) of the same shape (`[batch]` or `[batch, num_classes]`); shape `[1]`.
    ///
    /// # Panics
    /// If the shapes differ, or the weights are not one per class.
    pub fn forward<const D: usize>(&self, input: Tensor<D>, targets: Tensor<D, Int>) -> Tensor<1> {
        assert_eq!(
            input.shape(),
            targets.shape(),
            "BinaryCrossEntropyLoss::forward: input {} and targets {} differ",
            input.shape(),
            targets.shape()
        );
        let mut y = targets.float().cast(input.dtype());
        if let Some(eps) = self.smoothing {
            y = y * (1.0 - eps as f64) + eps as f64 / 2.0;
        }
        let loss = if self.logits {
            // max(x, 0) − x·y + log(1 + e^−|x|): no overflow for any x.
            input.clone().clamp_min(0.0) - input.clone() * y + input.abs().neg().exp().log1p()
        } else {
            // PyTorch clamps each log at −100 so that p = 0 or 1 stays finite.
            let log_p = input.clone().log().clamp_min(-100.0);
            let log_1mp = input.neg().log1p().clamp_min(-100.0);
            (y.clone() * log_p + (y.neg() + 1.0) * log_1mp).neg()
        };
        let loss = match &self.weights {
            Some(weights) => {
                let classes = loss.dims()[D - 1];
                assert_eq!(
                    weights.dims()[0],
                    classes,
                    "BinaryCrossEntropyLoss::forward: {} class weights for {classes} classes",
                    weights.dims()[0]
                );
                loss * weights.clone().unsqueeze::<D>()
            }
            None => loss,
        };
        loss.mean()
    }
}
