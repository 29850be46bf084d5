//! Pooling layers: [`MaxPool1d`], [`MaxPool2d`], [`AvgPool1d`],
//! [`AvgPool2d`], [`AdaptiveAvgPool1d`], [`AdaptiveAvgPool2d`], over the
//! functions of `burn::tensor::module` (which match PyTorch's).
//!
//! None has parameters; the stride defaults to 1 (Burn's convention, where
//! PyTorch's defaults to the kernel size: set it with `with_strides` /
//! `with_stride`).

use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::Tensor;
use burn::tensor::module::{
    adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d, max_pool2d,
};

use crate::{PaddingConfig1d, PaddingConfig2d};

/// Configuration of a [`MaxPool2d`].
#[derive(Config, Debug)]
pub struct MaxPool2dConfig {
    /// The window `[height, width]`.
    pub kernel_size: [usize; 2],
    /// The step between windows.
    #[config(default = "[1, 1]")]
    pub strides: [usize; 2],
    /// The padding (never a maximum).
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// The spacing of window taps.
    #[config(default = "[1, 1]")]
    pub dilation: [usize; 2],
    /// Round the output size up instead of down.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 2-d max pooling of `[batch, channels, height, width]`.
#[derive(Module, Debug)]
pub struct MaxPool2d {
    /// The window.
    pub kernel_size: [usize; 2],
    /// The step between windows.
    pub stride: [usize; 2],
    /// The padding.
    pub padding: Ignored<PaddingConfig2d>,
    /// The spacing of window taps.
    pub dilation: [usize; 2],
    /// Round the output size up.
    pub ceil_mode: bool,
}

impl MaxPool2dConfig {
    /// Builds the layer.
    pub fn init(&self) -> MaxPool2d {
        MaxPool2d {
            kernel_size: self.kernel_size,
            stride: self.strides,
            padding: Ignored(self.padding),
            dilation: self.dilation,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl MaxPool2d {
    /// `[batch, channels, height, width]` → `[batch, channels, out_h, out_w]`.
    ///
    /// # Panics
    /// If a window does not fit the padded input (see `max_pool2d`).
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let (k, s, d) = (self.kernel_size, self.stride, self.dilation);
        let padding = self.padding.resolve("MaxPool2d", k, s, d);
        max_pool2d(input, k, s, padding, d, self.ceil_mode)
    }
}

/// Configuration of a [`MaxPool1d`].
#[derive(Config, Debug)]
pub struct MaxPool1dConfig {
    /// The window length.
    pub kernel_size: usize,
    /// The step between windows.
    #[config(default = 1)]
    pub stride: usize,
    /// The padding (never a maximum).
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// The spacing of window taps.
    #[config(default = 1)]
    pub dilation: usize,
    /// Round the output length up instead of down.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 1-d max pooling of `[batch, channels, length]`.
#[derive(Module, Debug)]
pub struct MaxPool1d {
    /// The window length.
    pub kernel_size: usize,
    /// The step between windows.
    pub stride: usize,
    /// The padding.
    pub padding: Ignored<PaddingConfig1d>,
    /// The spacing of window taps.
    pub dilation: usize,
    /// Round the output length up.
    pub ceil_mode: bool,
}

impl MaxPool1dConfig {
    /// Builds the layer.
    pub fn init(&self) -> MaxPool1d {
        MaxPool1d {
            kernel_size: self.kernel_size,
            stride: self.stride,
            padding: Ignored(self.padding),
            dilation: self.dilation,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl MaxPool1d {
    /// `[batch, channels, length]` → `[batch, channels, out_length]`.
    ///
    /// # Panics
    /// If a window does not fit the padded input.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let (k, s, d) = (self.kernel_size, self.stride, self.dilation);
        let padding = self.padding.resolve("MaxPool1d", k, s, d);
        max_pool1d(input, k, s, padding, d, self.ceil_mode)
    }
}

/// Configuration of an [`AvgPool2d`].
#[derive(Config, Debug)]
pub struct AvgPool2dConfig {
    /// The window `[height, width]`.
    pub kernel_size: [usize; 2],
    /// The step between windows.
    #[config(default = "[1, 1]")]
    pub strides: [usize; 2],
    /// The zero padding.
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// Count the padding in each average's divisor (PyTorch's default).
    #[config(default = true)]
    pub count_include_pad: bool,
    /// Round the output size up instead of down.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 2-d average pooling of `[batch, channels, height, width]`.
#[derive(Module, Debug)]
pub struct AvgPool2d {
    /// The window.
    pub kernel_size: [usize; 2],
    /// The step between windows.
    pub stride: [usize; 2],
    /// The padding.
    pub padding: Ignored<PaddingConfig2d>,
    /// Count the padding in the divisor.
    pub count_include_pad: bool,
    /// Round the output size up.
    pub ceil_mode: bool,
}

impl AvgPool2dConfig {
    /// Builds the layer.
    pub fn init(&self) -> AvgPool2d {
        AvgPool2d {
            kernel_size: self.kernel_size,
            stride: self.strides,
            padding: Ignored(self.padding),
            count_include_pad: self.count_include_pad,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl AvgPool2d {
    /// `[batch, channels, height, width]` → `[batch, channels, out_h, out_w]`.
    ///
    /// # Panics
    /// If a window does not fit the padded input.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let (k, s) = (self.kernel_size, self.stride);
        let padding = self.padding.resolve("AvgPool2d", k, s, [1, 1]);
        avg_pool2d(input, k, s, padding, self.count_include_pad, self.ceil_mode)
    }
}

/// Configuration of an [`AvgPool1d`].
#[derive(Config, Debug)]
pub struct AvgPool1dConfig {
    /// The window length.
    pub kernel_size: usize,
    /// The step between windows.
    #[config(default = 1)]
    pub stride: usize,
    /// The zero padding.
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// Count the padding in each average's divisor (PyTorch's default).
    #[config(default = true)]
    pub count_include_pad: bool,
    /// Round the output length up instead of down.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 1-d average pooling of `[batch, channels, length]`.
#[derive(Module, Debug)]
pub struct AvgPool1d {
    /// The window length.
    pub kernel_size: usize,
    /// The step between windows.
    pub stride: usize,
    /// The padding.
    pub padding: Ignored<PaddingConfig1d>,
    /// Count the padding in the divisor.
    pub count_include_pad: bool,
    /// Round the output length up.
    pub ceil_mode: bool,
}

impl AvgPool1dConfig {
    /// Builds the layer.
    pub fn init(&self) -> AvgPool1d {
        AvgPool1d {
            kernel_size: self.kernel_size,
            stride: self.stride,
            padding: Ignored(self.padding),
            count_include_pad: self.count_include_pad,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl AvgPool1d {
    /// `[batch, channels, length]` → `[batch, channels, out_length]`.
    ///
    /// # Panics
    /// If a window does not fit the padded input.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let (k, s) = (self.kernel_size, self.stride);
        let padding = self.padding.resolve("AvgPool1d", k, s, 1);
        avg_pool1d(input, k, s, padding, self.count_include_pad, self.ceil_mode)
    }
}

/// Configuration of an [`AdaptiveAvgPool2d`].
#[derive(Config, Debug)]
pub struct AdaptiveAvgPool2dConfig {
    /// The output `[height, width]`.
    pub output_size: [usize; 2],
}

/// Average pooling of `[batch, channels, height, width]` to a fixed output size.
#[derive(Module, Debug)]
pub struct AdaptiveAvgPool2d {
    /// The output `[height, width]`.
    pub output_size: [usize; 2],
}

impl AdaptiveAvgPool2dConfig {
    /// Builds the layer.
    pub fn init(&self) -> AdaptiveAvgPool2d {
        AdaptiveAvgPool2d {
            output_size: self.output_size,
        }
    }
}

impl AdaptiveAvgPool2d {
    /// `[batch, channels, height, width]` → `[batch, channels, ..output_size]`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        adaptive_avg_pool2d(input, self.output_size)
    }
}

/// Configuration of an [`AdaptiveAvgPool1d`].
#[derive(Config, Debug)]
pub struct AdaptiveAvgPool1dConfig {
    /// The output length.
    pub output_size: usize,
}

/// Average pooling of `[batch, channels, length]` to a fixed output length.
#[derive(Module, Debug)]
pub struct AdaptiveAvgPool1d {
    /// The output length.
    pub output_size: usize,
}

impl AdaptiveAvgPool1dConfig {
    /// Builds the layer.
    pub fn init(&self) -> AdaptiveAvgPool1d {
        AdaptiveAvgPool1d {
            output_size: self.output_size,
        }
    }
}

impl AdaptiveAvgPool1d {
    /// `[batch, channels, length]` → `[batch, channels, output_size]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        adaptive_avg_pool1d(input, self.output_size)
    }
}
