//! [`LayerNorm`] and [`RmsNorm`]: normalize the last dimension.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use crate::Initializer;

/// Configuration of a [`LayerNorm`].
#[derive(Config, Debug)]
pub struct LayerNormConfig {
    /// Size of the normalized (last) dimension.
    pub d_model: usize,
    /// Added to the variance, so a constant input does not divide by zero.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Whether to learn a shift `beta` (the scale `gamma` is always learned).
    #[config(default = true)]
    pub bias: bool,
}

/// Layer normalization (Ba et al.): `(x − mean) / √(var + ε) · gamma + beta`
/// over the last dim, with the biased variance.
///
/// Parameters: `gamma` `[d_model]` (ones), `beta` `[d_model]` (zeros).
#[derive(Module, Debug)]
pub struct LayerNorm {
    /// Learned scale.
    pub gamma: Param<Tensor<1>>,
    /// Learned shift.
    pub beta: Option<Param<Tensor<1>>>,
    /// Added to the variance.
    pub epsilon: f64,
}

impl LayerNormConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> LayerNorm {
        LayerNorm {
            gamma: Initializer::Ones.init([self.d_model], device),
            beta: self
                .bias
                .then(|| Initializer::Zeros.init([self.d_model], device)),
            epsilon: self.epsilon,
        }
    }
}

impl LayerNorm {
    /// Normalizes `[..., d_model]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        // The parameters are reshaped first, so the reshapes do not split
        // the normalization's operations: under fusion they are one block.
        let gamma = self.gamma.val().unsqueeze::<D>();
        let beta = self.beta.as_ref().map(|beta| beta.val().unsqueeze::<D>());
        let (var, mean) = input.clone().var_mean_bias(D - 1);
        let normalized = (input - mean) / (var + self.epsilon).sqrt();
        let scaled = normalized * gamma;
        match beta {
            Some(beta) => scaled + beta,
            None => scaled,
        }
    }
}

/// Configuration of an [`RmsNorm`].
#[derive(Config, Debug)]
pub struct RmsNormConfig {
    /// Size of the normalized (last) dimension.
    pub d_model: usize,
    /// Added to the mean square.
    #[config(default = 1e-5)]
    pub epsilon: f64,
}

/// Root-mean-square normalization (Zhang & Sennrich):
/// `x / √(mean(x²) + ε) · gamma` over the last dim; no centring, no shift.
///
/// Parameter: `gamma` `[d_model]` (ones).
#[derive(Module, Debug)]
pub struct RmsNorm {
    /// Learned scale.
    pub gamma: Param<Tensor<1>>,
    /// Added to the mean square.
    pub epsilon: f64,
}

impl RmsNormConfig {
    /// Builds the layer on `device`.
    ///
    /// # Panics
    /// If `epsilon` is not positive.
    pub fn init(&self, device: &Device) -> RmsNorm {
        assert!(
            self.epsilon > 0.0,
            "RmsNormConfig::init: epsilon must be positive, got {}",
            self.epsilon
        );
        RmsNorm {
            gamma: Initializer::Ones.init([self.d_model], device),
            epsilon: self.epsilon,
        }
    }
}

impl RmsNorm {
    /// Normalizes `[..., d_model]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        // The reshape first, so it does not split the fused block.
        let gamma = self.gamma.val().unsqueeze::<D>();
        let rms = (input.clone().square().mean_dim(D - 1) + self.epsilon).sqrt();
        input / rms * gamma
    }
}
