//! Regression losses: [`MseLoss`], [`HuberLoss`], [`SmoothL1Loss`].

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

use super::Reduction;

#[track_caller]
fn check_same_shape<const D: usize>(name: &str, a: &Tensor<D>, b: &Tensor<D>) {
    assert_eq!(
        a.shape(),
        b.shape(),
        "{name}::forward: predictions {} and targets {} differ",
        a.shape(),
        b.shape()
    );
}

/// Mean squared error, `(prediction − target)²`.
#[derive(Module, Debug, Default)]
pub struct MseLoss;

impl MseLoss {
    /// The loss.
    pub fn new() -> Self {
        Self
    }

    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(predictions, targets))
    }

    /// The per-element loss.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        check_same_shape("MseLoss", &predictions, &targets);
        (predictions - targets).square()
    }
}

/// Configuration of a [`HuberLoss`].
#[derive(Config, Debug)]
pub struct HuberLossConfig {
    /// Where the loss turns from quadratic to linear.
    pub delta: f32,
}

/// Huber loss (PyTorch's `HuberLoss`): with `r = prediction − target`,
/// `r²/2` for `|r| ≤ delta`, `delta·(|r| − delta/2)` beyond.
#[derive(Module, Debug)]
pub struct HuberLoss {
    /// Where the loss turns linear.
    pub delta: f32,
    /// `delta²/2`, the linear part's offset.
    pub lin_bias: f32,
}

impl HuberLossConfig {
    /// Builds the loss.
    ///
    /// # Panics
    /// If `delta` is not positive.
    pub fn init(&self) -> HuberLoss {
        assert!(
            self.delta > 0.0,
            "HuberLossConfig::init: delta must be positive, got {}",
            self.delta
        );
        HuberLoss {
            delta: self.delta,
            lin_bias: self.delta * self.delta / 2.0,
        }
    }
}

impl HuberLoss {
    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(predictions, targets))
    }

    /// The per-element loss.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        check_same_shape("HuberLoss", &predictions, &targets);
        let delta = self.delta as f64;
        let residual = predictions - targets;
        let abs = residual.clone().abs();
        let quadratic = residual.square() * 0.5;
        let linear = abs.clone() * delta - self.lin_bias as f64;
        quadratic.mask_where(abs.greater_elem(delta), linear)
    }
}

/// Configuration of a [`SmoothL1Loss`].
#[derive(Config, Debug)]
pub struct SmoothL1LossConfig {
    /// Where the loss turns from quadratic to linear.
    #[config(default = 1.0)]
    pub beta: f32,
}

/// Smooth L1 loss (PyTorch's `SmoothL1Loss`): with `r = prediction −
/// target`, `r²/(2·beta)` for `|r| < beta`, `|r| − beta/2` beyond; Huber
/// divided by `beta`. `beta = 0` is the plain L1 loss.
#[derive(Module, Debug)]
pub struct SmoothL1Loss {
    /// Where the loss turns linear.
    pub beta: f32,
}

impl SmoothL1LossConfig {
    /// Builds the loss.
    ///
    /// # Panics
    /// If `beta` is negative.
    pub fn init(&self) -> SmoothL1Loss {
        assert!(
            self.beta >= 0.0,
            "SmoothL1LossConfig::init: beta must be non-negative, got {}",
            self.beta
        );
        SmoothL1Loss { beta: self.beta }
    }
}

impl SmoothL1Loss {
    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(predictions, targets))
    }

    /// The per-element loss.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        check_same_shape("SmoothL1Loss", &predictions, &targets);
        let beta = self.beta as f64;
        let abs = (predictions - targets).abs();
        if beta == 0.0 {
            return abs;
        }
        let quadratic = abs.clone().square() * (0.5 / beta);
        let linear = abs.clone() - beta / 2.0;
        quadratic.mask_where(abs.greater_equal_elem(beta), linear)
    }
}
