//! [`GradientClipping`]: bounding each gradient before the update, and
//! [`GradientClippingConfig`], the form optimizer configs hold (Burn's
//! `grad_clipping` module).

use burn_core::config::Config;
use burn_tensor::Tensor;
use serde::{Deserialize, Serialize};

/// The gradient clipping of an optimizer config
/// (`AdamConfig::with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))`);
/// [`init`](Self::init) gives the [`GradientClipping`] it describes.
#[derive(Config, Debug)]
pub enum GradientClippingConfig {
    /// Clamp every element to `[-value, value]`.
    Value(f32),
    /// Scale each parameter's gradient to an L2 norm of at most this.
    Norm(f32),
}

impl GradientClippingConfig {
    /// The clipping this describes.
    pub fn init(&self) -> GradientClipping {
        match *self {
            Self::Value(value) => GradientClipping::Value(f64::from(value)),
            Self::Norm(max_norm) => GradientClipping::Norm(f64::from(max_norm)),
        }
    }
}

/// The clipping of an optional config, for a module optimizer.
pub(crate) fn init(config: &Option<GradientClippingConfig>) -> Option<GradientClipping> {
    config.as_ref().map(GradientClippingConfig::init)
}

/// How a [`ModuleOptimizer`](crate::ModuleOptimizer) bounds each
/// parameter's gradient before the update. Clipping is per parameter
/// tensor, like Burn's; for PyTorch's `clip_grad_norm_` over all
/// parameters at once, see [`GradientsParams::clip_global_norm`](crate::GradientsParams::clip_global_norm).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum GradientClipping {
    /// Every element clamped to `[-value, value]` (PyTorch's
    /// `clip_grad_value_`).
    Value(f64),
    /// The tensor scaled so that its L2 norm is at most `max_norm`: by
    /// `max_norm / (norm + 1e-6)` when that is below one (PyTorch's
    /// `clip_grad_norm_` coefficient, for one tensor).
    Norm(f64),
}

/// Added to the norm before dividing, as PyTorch does, so a zero gradient
/// stays zero.
pub(crate) const NORM_EPSILON: f64 = 1e-6;

impl GradientClipping {
    /// The clipped gradient (Burn's name for [`clip`](Self::clip)).
    pub fn clip_gradient<const D: usize>(&self, grad: Tensor<D>) -> Tensor<D> {
        self.clip(grad)
    }

    /// The clipped gradient.
    pub fn clip<const D: usize>(&self, grad: Tensor<D>) -> Tensor<D> {
        match *self {
            Self::Value(value) => grad.clamp(-value, value),
            Self::Norm(max_norm) => {
                let norm = grad.clone().square().sum().sqrt();
                grad * clip_coefficient::<D>(norm, max_norm)
            }
        }
    }
}

/// `min(1, max_norm / (norm + eps))` as a tensor of shape `[1; D]`, kept on
/// the device so clipping does not wait for the norm to reach the host.
pub(crate) fn clip_coefficient<const D: usize>(norm: Tensor<1>, max_norm: f64) -> Tensor<D> {
    norm.add_scalar(NORM_EPSILON)
        .recip()
        .mul_scalar(max_norm)
        .clamp_max(1.0)
        .reshape([1; D])
}
