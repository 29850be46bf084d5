//! [`Interpolate1d`] and [`Interpolate2d`]: resize signals and images
//! (nearest, linear, cubic), over `burn::tensor::module::interpolate`.

use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::Tensor;
use burn::tensor::module::{InterpolateMode as TensorMode, InterpolateOptions, interpolate};

/// How [`Interpolate1d`] and [`Interpolate2d`] compute new samples.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum InterpolateMode {
    /// The nearest input sample (PyTorch's `"nearest"`).
    Nearest,
    /// Linear blend of the two neighbours along each axis (`"linear"` /
    /// `"bilinear"`).
    Linear,
    /// Cubic convolution over four neighbours along each axis (`"bicubic"`).
    Cubic,
}

impl InterpolateMode {
    fn options(self, align_corners: bool) -> InterpolateOptions {
        let mode = match self {
            Self::Nearest => TensorMode::Nearest,
            Self::Linear => TensorMode::Bilinear,
            Self::Cubic => TensorMode::Bicubic,
        };
        InterpolateOptions::new(mode).with_align_corners(align_corners)
    }
}

/// Configuration of an [`Interpolate2d`]: give `output_size` or
/// `scale_factor` (the output size is then `floor(input * scale)`).
#[derive(Config, Debug)]
pub struct Interpolate2dConfig {
    /// The output `[height, width]`; wins over `scale_factor`.
    #[config(default = "None")]
    pub output_size: Option<[usize; 2]>,
    /// The factor applied to `[height, width]`.
    #[config(default = "None")]
    pub scale_factor: Option<[f32; 2]>,
    /// The interpolation mode.
    #[config(default = "InterpolateMode::Nearest")]
    pub mode: InterpolateMode,
    /// Align the centres of the corner pixels (ignored by `Nearest`).
    #[config(default = false)]
    pub align_corners: bool,
}

/// Resizes `[batch, channels, height, width]` (PyTorch's `Upsample`).
#[derive(Module, Debug)]
pub struct Interpolate2d {
    /// The output size, if fixed.
    pub output_size: Ignored<Option<[usize; 2]>>,
    /// The scale factor, if the size follows the input.
    pub scale_factor: Ignored<Option<[f32; 2]>>,
    /// The interpolation mode.
    pub mode: Ignored<InterpolateMode>,
    /// Whether corner pixel centres are aligned.
    pub align_corners: bool,
}

impl Interpolate2dConfig {
    /// Builds the layer.
    ///
    /// # Panics
    /// If neither `output_size` nor `scale_factor` is set.
    pub fn init(&self) -> Interpolate2d {
        assert!(
            self.output_size.is_some() || self.scale_factor.is_some(),
            "Interpolate2dConfig::init: set output_size or scale_factor"
        );
        Interpolate2d {
            output_size: Ignored(self.output_size),
            scale_factor: Ignored(self.scale_factor),
            mode: Ignored(self.mode),
            align_corners: self.align_corners,
        }
    }
}

/// `floor(len * scale)`, the output length of a scaled axis.
fn scaled(len: usize, scale: f32) -> usize {
    (len as f64 * scale as f64).floor() as usize
}

impl Interpolate2d {
    /// `[batch, channels, height, width]` → `[batch, channels, out_h, out_w]`.
    ///
    /// # Panics
    /// If an input or output spatial size is zero.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let [_, _, h, w] = input.dims();
        let size = match (*self.output_size, *self.scale_factor) {
            (Some(size), _) => size,
            (None, Some([sh, sw])) => [scaled(h, sh), scaled(w, sw)],
            (None, None) => unreachable!("init requires a size or a scale"),
        };
        interpolate(input, size, self.mode.options(self.align_corners))
    }
}

/// Configuration of an [`Interpolate1d`]: give `output_size` or `scale_factor`.
#[derive(Config, Debug)]
pub struct Interpolate1dConfig {
    /// The output length; wins over `scale_factor`.
    #[config(default = "None")]
    pub output_size: Option<usize>,
    /// The factor applied to the length.
    #[config(default = "None")]
    pub scale_factor: Option<f32>,
    /// The interpolation mode.
    #[config(default = "InterpolateMode::Nearest")]
    pub mode: InterpolateMode,
    /// Align the centres of the end samples (ignored by `Nearest`).
    #[config(default = false)]
    pub align_corners: bool,
}

/// Resizes `[batch, channels, length]`.
#[derive(Module, Debug)]
pub struct Interpolate1d {
    /// The output length, if fixed.
    pub output_size: Ignored<Option<usize>>,
    /// The scale factor, if the length follows the input.
    pub scale_factor: Ignored<Option<f32>>,
    /// The interpolation mode.
    pub mode: Ignored<InterpolateMode>,
    /// Whether end sample centres are aligned.
    pub align_corners: bool,
}

impl Interpolate1dConfig {
    /// Builds the layer.
    ///
    /// # Panics
    /// If neither `output_size` nor `scale_factor` is set.
    pub fn init(&self) -> Interpolate1d {
        assert!(
            self.output_size.is_some() || self.scale_factor.is_some(),
            "Interpolate1dConfig::init: set output_size or scale_factor"
        );
        Interpolate1d {
            output_size: Ignored(self.output_size),
            scale_factor: Ignored(self.scale_factor),
            mode: Ignored(self.mode),
            align_corners: self.align_corners,
        }
    }
}

impl Interpolate1d {
    /// `[batch, channels, length]` → `[batch, channels, out_length]`: the 2-d
    /// resize on a height of 1 (which every mode leaves unchanged).
    ///
    /// # Panics
    /// If the input or output length is zero.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [n, c, l] = input.dims();
        let out = match (*self.output_size, *self.scale_factor) {
            (Some(size), _) => size,
            (None, Some(scale)) => scaled(l, scale),
            (None, None) => unreachable!("init requires a size or a scale"),
        };
        let x: Tensor<4> = input.reshape([n, c, 1, l]);
        let y = interpolate(x, [1, out], self.mode.options(self.align_corners));
        y.reshape([n, c, out])
    }
}
