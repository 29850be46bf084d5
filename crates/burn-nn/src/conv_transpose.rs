//! [`ConvTranspose1d`], [`ConvTranspose2d`], [`ConvTranspose3d`]: learned
//! transposed convolutions (the input-gradient of a convolution, used to
//! upsample), each a thin layer over
//! `burn::tensor::module::conv_transpose{1,2,3}d`.
//!
//! Parameters follow Burn's (and PyTorch's) layout: `weight`
//! `[channels_in, channels_out / groups, ..kernel]`, `bias` `[channels_out]`.
//! The default initializer bounds both by `1/√fan_in` with
//! `fan_in = channels_out / groups · kernel volume` (PyTorch reads the fan
//! from the weight's second dim).

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::module::{
    ConvTransposeOptions, conv_transpose1d, conv_transpose2d, conv_transpose3d,
};
use burn::tensor::{Device, Tensor};

use crate::Initializer;
use crate::conv::conv_params;

/// Declares the config, the module and its `init` / `forward` for one rank:
/// the three ranks differ only in their array sizes.
macro_rules! conv_transpose {
    (
        $(#[$doc:meta])*
        $name:ident, $config:ident, $layer:literal, $rank:literal, $n:literal,
        $api:ident, $ones:tt, $zeros:tt
    ) => {
        #[doc = concat!("Configuration of a [`", stringify!($name), "`].")]
        #[derive(Config, Debug)]
        pub struct $config {
            /// `[channels_in, channels_out]`.
            pub channels: [usize; 2],
            /// Kernel size per spatial axis.
            pub kernel_size: [usize; $n],
            /// Stride of the convolution this layer transposes.
            #[config(default = $ones)]
            pub stride: [usize; $n],
            /// Spacing between kernel elements, per axis.
            #[config(default = $ones)]
            pub dilation: [usize; $n],
            /// Padding of the convolution this layer transposes (removed from the output).
            #[config(default = $zeros)]
            pub padding: [usize; $n],
            /// Extra size on one side of each output axis (below the stride or the dilation).
            #[config(default = $zeros)]
            pub padding_out: [usize; $n],
            /// Channel groups.
            #[config(default = "1")]
            pub groups: usize,
            /// Whether to add a learned bias.
            #[config(default = true)]
            pub bias: bool,
            /// How weight and bias are drawn.
            #[config(default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }")]
            pub initializer: Initializer,
        }

        $(#[$doc])*
        #[derive(Module, Debug)]
        pub struct $name {
            /// `[channels_in, channels_out / groups, ..kernel]`.
            pub weight: Param<Tensor<$rank>>,
            /// `[channels_out]`, if any.
            pub bias: Option<Param<Tensor<1>>>,
            /// Stride per axis.
            #[module(skip)]
            pub stride: [usize; $n],
            /// Kernel size per axis.
            #[module(skip)]
            pub kernel_size: [usize; $n],
            /// Spacing between kernel elements, per axis.
            #[module(skip)]
            pub dilation: [usize; $n],
            /// Padding per axis.
            #[module(skip)]
            pub padding: [usize; $n],
            /// Output padding per axis.
            #[module(skip)]
            pub padding_out: [usize; $n],
            /// Channel groups.
            #[module(skip)]
            pub groups: usize,
        }

        impl $config {
            /// Builds the layer on `device` (parameters drawn at first use).
            ///
            /// # Panics
            /// If `groups` does not divide both channel counts.
            pub fn init(&self, device: &Device) -> $name {
                let [channels_in, channels_out] = self.channels;
                let mut shape = [0; $rank];
                shape[0] = channels_in;
                shape[1] = channels_out / self.groups.max(1);
                shape[2..].copy_from_slice(&self.kernel_size);
                let (weight, bias) = conv_params(
                    $layer,
                    &self.initializer,
                    self.channels,
                    self.groups,
                    shape,
                    self.bias,
                    device,
                );
                $name {
                    weight,
                    bias,
                    stride: self.stride,
                    kernel_size: self.kernel_size,
                    dilation: self.dilation,
                    padding: self.padding,
                    padding_out: self.padding_out,
                    groups: self.groups,
                }
            }
        }

        impl $name {
            /// `[batch, channels_in, ..spatial]` → `[batch, channels_out, ..spatial_out]`,
            /// `out = (in − 1)·stride − 2·padding + dilation·(kernel − 1) + padding_out + 1`.
            ///
            /// # Panics
            /// On an input whose channels do not match the layer.
            pub fn forward(&self, input: Tensor<$rank>) -> Tensor<$rank> {
                let options = ConvTransposeOptions::new(
                    self.stride,
                    self.padding,
                    self.padding_out,
                    self.dilation,
                    self.groups,
                );
                $api(
                    input,
                    self.weight.val(),
                    self.bias.as_ref().map(Param::val),
                    options,
                )
            }
        }
    };
}

conv_transpose!(
    /// A 1-d transposed convolution: `[batch, channels_in, length]` → `[batch, channels_out, length_out]`.
    ConvTranspose1d, ConvTranspose1dConfig, "ConvTranspose1d", 3, 1,
    conv_transpose1d, "[1]", "[0]"
);
conv_transpose!(
    /// A 2-d transposed convolution: `[batch, channels_in, h, w]` → `[batch, channels_out, h_out, w_out]`.
    ConvTranspose2d, ConvTranspose2dConfig, "ConvTranspose2d", 4, 2,
    conv_transpose2d, "[1, 1]", "[0, 0]"
);
conv_transpose!(
    /// A 3-d transposed convolution: `[batch, channels_in, d, h, w]` → `[batch, channels_out, d_out, h_out, w_out]`.
    ConvTranspose3d, ConvTranspose3dConfig, "ConvTranspose3d", 5, 3,
    conv_transpose3d, "[1, 1, 1]", "[0, 0, 0]"
);
