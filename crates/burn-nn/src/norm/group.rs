//! [`GroupNorm`] and [`InstanceNorm`]: statistics per sample and group of
//! channels.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use super::per_channel;
use crate::Initializer;

/// Configuration of a [`GroupNorm`].
#[derive(Config, Debug)]
pub struct GroupNormConfig {
    /// Number of groups the channels are split into.
    pub num_groups: usize,
    /// Number of channels (dim 1); a multiple of `num_groups`.
    pub num_channels: usize,
    /// Added to the variance.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Whether to learn a per-channel scale and shift.
    #[config(default = true)]
    pub affine: bool,
}

/// Group normalization (Wu & He): each sample's channels are split into
/// `num_groups` groups, each normalized over its channels and positions,
/// then scaled and shifted per channel.
///
/// Parameters (with `affine`): `gamma`, `beta` `[num_channels]`.
#[derive(Module, Debug)]
pub struct GroupNorm {
    /// Learned per-channel scale.
    pub gamma: Option<Param<Tensor<1>>>,
    /// Learned per-channel shift.
    pub beta: Option<Param<Tensor<1>>>,
    /// Number of groups.
    pub num_groups: usize,
    /// Number of channels.
    pub num_channels: usize,
    /// Added to the variance.
    pub epsilon: f64,
    /// Whether scale and shift are learned.
    pub affine: bool,
}

impl GroupNormConfig {
    /// Builds the layer on `device`.
    ///
    /// # Panics
    /// If `num_channels` is not a multiple of `num_groups`.
    pub fn init(&self, device: &Device) -> GroupNorm {
        assert!(
            self.num_groups > 0 && self.num_channels.is_multiple_of(self.num_groups),
            "GroupNormConfig::init: {} channels do not split into {} groups",
            self.num_channels,
            self.num_groups
        );
        let (gamma, beta) = affine_params(self.affine, self.num_channels, device);
        GroupNorm {
            gamma,
            beta,
            num_groups: self.num_groups,
            num_channels: self.num_channels,
            epsilon: self.epsilon,
            affine: self.affine,
        }
    }
}

fn affine_params(
    affine: bool,
    channels: usize,
    device: &Device,
) -> (Option<Param<Tensor<1>>>, Option<Param<Tensor<1>>>) {
    if affine {
        (
            Some(Initializer::Ones.init([channels], device)),
            Some(Initializer::Zeros.init([channels], device)),
        )
    } else {
        (None, None)
    }
}

impl GroupNorm {
    /// Normalizes `[batch, num_channels, ...]` (rank ≥ 2).
    ///
    /// # Panics
    /// If dim 1 is not `num_channels`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        group_norm(
            "GroupNorm",
            input,
            self.num_groups,
            self.num_channels,
            self.epsilon,
            &self.gamma,
            &self.beta,
        )
    }
}

// x: [batch, channels, ...] -> [batch, groups, channels / groups · positions]
fn group_norm<const D: usize>(
    name: &str,
    input: Tensor<D>,
    groups: usize,
    channels: usize,
    epsilon: f64,
    gamma: &Option<Param<Tensor<1>>>,
    beta: &Option<Param<Tensor<1>>>,
) -> Tensor<D> {
    let dims = input.dims();
    assert!(
        D >= 2 && dims[1] == channels,
        "{name}::forward: expected [batch, {channels}, ...], got {}",
        input.shape()
    );
    let batch = dims[0];
    let per_group = input.num_elements() / (batch * groups).max(1);
    let grouped: Tensor<3> = input.reshape([batch, groups, per_group]);
    let (var, mean) = grouped.clone().var_mean_bias(2);
    let normalized: Tensor<D> = ((grouped - mean) / (var + epsilon).sqrt()).reshape(dims);
    let scaled = match gamma {
        Some(gamma) => normalized * per_channel::<D>(gamma.val()),
        None => normalized,
    };
    match beta {
        Some(beta) => scaled + per_channel::<D>(beta.val()),
        None => scaled,
    }
}

/// Configuration of an [`InstanceNorm`].
#[derive(Config, Debug)]
pub struct InstanceNormConfig {
    /// Number of channels (dim 1).
    pub num_channels: usize,
    /// Added to the variance.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Whether to learn a per-channel scale and shift.
    #[config(default = true)]
    pub affine: bool,
}

/// Instance normalization (Ulyanov et al.): each channel of each sample
/// normalized over its positions; group norm with one channel per group.
///
/// Parameters (with `affine`): `gamma`, `beta` `[num_channels]`.
#[derive(Module, Debug)]
pub struct InstanceNorm {
    /// Learned per-channel scale.
    pub gamma: Option<Param<Tensor<1>>>,
    /// Learned per-channel shift.
    pub beta: Option<Param<Tensor<1>>>,
    /// Number of channels.
    pub num_channels: usize,
    /// Added to the variance.
    pub epsilon: f64,
    /// Whether scale and shift are learned.
    pub affine: bool,
}

impl InstanceNormConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> InstanceNorm {
        let (gamma, beta) = affine_params(self.affine, self.num_channels, device);
        InstanceNorm {
            gamma,
            beta,
            num_channels: self.num_channels,
            epsilon: self.epsilon,
            affine: self.affine,
        }
    }
}

impl InstanceNorm {
    /// Normalizes `[batch, num_channels, ...]` (rank ≥ 3: a position dim).
    ///
    /// # Panics
    /// If dim 1 is not `num_channels`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        group_norm(
            "InstanceNorm",
            input,
            self.num_channels,
            self.num_channels,
            self.epsilon,
            &self.gamma,
            &self.beta,
        )
    }
}
