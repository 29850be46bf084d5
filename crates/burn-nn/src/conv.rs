//! [`Conv1d`], [`Conv2d`], [`Conv3d`]: learned convolutions over the
//! spatial dims of `[batch, channels, ..spatial]`, each a thin layer over
//! `burn::tensor::module::conv{1,2,3}d`; and, as in Burn's `nn::conv`,
//! their transposes ([`ConvTranspose2d`], …, defined in `conv_transpose.rs`).
//!
//! Parameters follow Burn's (and PyTorch's) layout: `weight`
//! `[channels_out, channels_in / groups, ..kernel]`, `bias` `[channels_out]`.
//! The default initializer bounds both by `1/√fan_in`, with
//! `fan_in = channels_in / groups · kernel volume`, as PyTorch's `nn.Conv*d`.

pub use crate::conv_transpose::{
    ConvTranspose1d, ConvTranspose1dConfig, ConvTranspose2d, ConvTranspose2dConfig,
    ConvTranspose3d, ConvTranspose3dConfig,
};

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::module::{ConvOptions, conv1d, conv2d, conv3d};
use burn::tensor::{Device, Tensor};

use crate::Initializer;
use crate::padding::{PaddingConfig1d, PaddingConfig2d, PaddingConfig3d};

/// The weight (and bias) of a convolution layer, checked and drawn once for
/// every rank and for the transposed layers: `channels` is `[in, out]`,
/// `weight_shape` `[a, b, ..kernel]` with the fan-in read as PyTorch does,
/// `b · kernel volume`; the bias has `out` elements.
#[track_caller]
pub(crate) fn conv_params<const D: usize>(
    layer: &str,
    initializer: &Initializer,
    [channels_in, channels_out]: [usize; 2],
    groups: usize,
    weight_shape: [usize; D],
    bias: bool,
    device: &Device,
) -> (Param<Tensor<D>>, Option<Param<Tensor<1>>>) {
    assert!(
        groups > 0 && channels_in.is_multiple_of(groups) && channels_out.is_multiple_of(groups),
        "{layer}: {groups} groups must divide the input ({channels_in}) and output \
         ({channels_out}) channels"
    );
    let k: usize = weight_shape[2..].iter().product();
    let fan_in = Some(weight_shape[1] * k);
    let fan_out = Some(weight_shape[0] / groups * k);
    let weight = initializer.init_with(weight_shape, fan_in, fan_out, device);
    let bias = bias.then(|| initializer.init_with([channels_out], fan_in, fan_out, device));
    (weight, bias)
}

// ------------------------------------------------------------------- Conv1d

/// Configuration of a [`Conv1d`].
#[derive(Config, Debug)]
pub struct Conv1dConfig {
    /// Input channels.
    pub channels_in: usize,
    /// Output channels.
    pub channels_out: usize,
    /// Kernel length.
    pub kernel_size: usize,
    /// Step between windows.
    #[config(default = "1")]
    pub stride: usize,
    /// Spacing between kernel elements.
    #[config(default = "1")]
    pub dilation: usize,
    /// Channel groups (`channels_in` for a depthwise convolution).
    #[config(default = "1")]
    pub groups: usize,
    /// Zero padding on each side.
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// Whether to add a learned bias.
    #[config(default = true)]
    pub bias: bool,
    /// How weight and bias are drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 1-d convolution: `[batch, channels_in, length]` → `[batch, channels_out, length_out]`.
#[derive(Module, Debug)]
pub struct Conv1d {
    /// `[channels_out, channels_in / groups, kernel_size]`.
    pub weight: Param<Tensor<3>>,
    /// `[channels_out]`, if any.
    pub bias: Option<Param<Tensor<1>>>,
    /// Step between windows.
    #[module(skip)]
    pub stride: usize,
    /// Kernel length.
    #[module(skip)]
    pub kernel_size: usize,
    /// Spacing between kernel elements.
    #[module(skip)]
    pub dilation: usize,
    /// Channel groups.
    #[module(skip)]
    pub groups: usize,
    /// Zero padding on each side.
    #[module(skip)]
    pub padding: PaddingConfig1d,
}

impl Conv1dConfig {
    /// Builds the layer on `device` (parameters drawn at first use).
    ///
    /// # Panics
    /// If `groups` does not divide both channel counts.
    pub fn init(&self, device: &Device) -> Conv1d {
        let channels = [self.channels_in, self.channels_out];
        let shape = [
            self.channels_out,
            self.channels_in / self.groups.max(1),
            self.kernel_size,
        ];
        let (weight, bias) = conv_params(
            "Conv1d",
            &self.initializer,
            channels,
            self.groups,
            shape,
            self.bias,
            device,
        );
        Conv1d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: self.padding,
        }
    }
}

impl Conv1d {
    /// `[batch, channels_in, length]` → `[batch, channels_out, length_out]`.
    ///
    /// # Panics
    /// On an input whose channels do not match, or a kernel longer than the
    /// padded input.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let padding = self
            .padding
            .resolve("Conv1d", self.kernel_size, self.stride, self.dilation);
        let options = ConvOptions::new([self.stride], [padding], [self.dilation], self.groups);
        conv1d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(Param::val),
            options,
        )
    }
}

// ------------------------------------------------------------------- Conv2d

/// Configuration of a [`Conv2d`].
#[derive(Config, Debug)]
pub struct Conv2dConfig {
    /// `[channels_in, channels_out]`.
    pub channels: [usize; 2],
    /// `[kh, kw]`.
    pub kernel_size: [usize; 2],
    /// Step between windows, per axis.
    #[config(default = "[1, 1]")]
    pub stride: [usize; 2],
    /// Spacing between kernel elements, per axis.
    #[config(default = "[1, 1]")]
    pub dilation: [usize; 2],
    /// Channel groups (`channels_in` for a depthwise convolution).
    #[config(default = "1")]
    pub groups: usize,
    /// Zero padding on each side.
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// Whether to add a learned bias.
    #[config(default = true)]
    pub bias: bool,
    /// How weight and bias are drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 2-d convolution: `[batch, channels_in, h, w]` → `[batch, channels_out, h_out, w_out]`.
#[derive(Module, Debug)]
pub struct Conv2d {
    /// `[channels_out, channels_in / groups, kh, kw]`.
    pub weight: Param<Tensor<4>>,
    /// `[channels_out]`, if any.
    pub bias: Option<Param<Tensor<1>>>,
    /// Step between windows, per axis.
    #[module(skip)]
    pub stride: [usize; 2],
    /// `[kh, kw]`.
    #[module(skip)]
    pub kernel_size: [usize; 2],
    /// Spacing between kernel elements, per axis.
    #[module(skip)]
    pub dilation: [usize; 2],
    /// Channel groups.
    #[module(skip)]
    pub groups: usize,
    /// Zero padding on each side.
    #[module(skip)]
    pub padding: PaddingConfig2d,
}

impl Conv2dConfig {
    /// Builds the layer on `device` (parameters drawn at first use).
    ///
    /// # Panics
    /// If `groups` does not divide both channel counts.
    pub fn init(&self, device: &Device) -> Conv2d {
        let [kh, kw] = self.kernel_size;
        let shape = [
            self.channels[1],
            self.channels[0] / self.groups.max(1),
            kh,
            kw,
        ];
        let (weight, bias) = conv_params(
            "Conv2d",
            &self.initializer,
            self.channels,
            self.groups,
            shape,
            self.bias,
            device,
        );
        Conv2d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: self.padding,
        }
    }
}

impl Conv2d {
    /// `[batch, channels_in, h, w]` → `[batch, channels_out, h_out, w_out]`.
    ///
    /// # Panics
    /// On an input whose channels do not match, or a kernel larger than the
    /// padded input.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let padding = self
            .padding
            .resolve("Conv2d", self.kernel_size, self.stride, self.dilation);
        let options = ConvOptions::new(self.stride, padding, self.dilation, self.groups);
        conv2d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(Param::val),
            options,
        )
    }
}

// ------------------------------------------------------------------- Conv3d

/// Configuration of a [`Conv3d`].
#[derive(Config, Debug)]
pub struct Conv3dConfig {
    /// `[channels_in, channels_out]`.
    pub channels: [usize; 2],
    /// `[kd, kh, kw]`.
    pub kernel_size: [usize; 3],
    /// Step between windows, per axis.
    #[config(default = "[1, 1, 1]")]
    pub stride: [usize; 3],
    /// Spacing between kernel elements, per axis.
    #[config(default = "[1, 1, 1]")]
    pub dilation: [usize; 3],
    /// Channel groups.
    #[config(default = "1")]
    pub groups: usize,
    /// Zero padding on each side.
    #[config(default = "PaddingConfig3d::Valid")]
    pub padding: PaddingConfig3d,
    /// Whether to add a learned bias.
    #[config(default = true)]
    pub bias: bool,
    /// How weight and bias are drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 3-d convolution: `[batch, channels_in, d, h, w]` → `[batch, channels_out, d_out, h_out, w_out]`.
#[derive(Module, Debug)]
pub struct Conv3d {
    /// `[channels_out, channels_in / groups, kd, kh, kw]`.
    pub weight: Param<Tensor<5>>,
    /// `[channels_out]`, if any.
    pub bias: Option<Param<Tensor<1>>>,
    /// Step between windows, per axis.
    #[module(skip)]
    pub stride: [usize; 3],
    /// `[kd, kh, kw]`.
    #[module(skip)]
    pub kernel_size: [usize; 3],
    /// Spacing between kernel elements, per axis.
    #[module(skip)]
    pub dilation: [usize; 3],
    /// Channel groups.
    #[module(skip)]
    pub groups: usize,
    /// Zero padding on each side.
    #[module(skip)]
    pub padding: PaddingConfig3d,
}

impl Conv3dConfig {
    /// Builds the layer on `device` (parameters drawn at first use).
    ///
    /// # Panics
    /// If `groups` does not divide both channel counts.
    pub fn init(&self, device: &Device) -> Conv3d {
        let [kd, kh, kw] = self.kernel_size;
        let shape = [
            self.channels[1],
            self.channels[0] / self.groups.max(1),
            kd,
            kh,
            kw,
        ];
        let (weight, bias) = conv_params(
            "Conv3d",
            &self.initializer,
            self.channels,
            self.groups,
            shape,
            self.bias,
            device,
        );
        Conv3d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: self.padding,
        }
    }
}

impl Conv3d {
    /// `[batch, channels_in, d, h, w]` → `[batch, channels_out, d_out, h_out, w_out]`.
    ///
    /// # Panics
    /// On an input whose channels do not match, or a kernel larger than the
    /// padded input.
    pub fn forward(&self, input: Tensor<5>) -> Tensor<5> {
        let padding = self
            .padding
            .resolve("Conv3d", self.kernel_size, self.stride, self.dilation);
        let options = ConvOptions::new(self.stride, padding, self.dilation, self.groups);
        conv3d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(Param::val),
            options,
        )
    }
}
