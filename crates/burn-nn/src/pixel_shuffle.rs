//! [`PixelShuffle`]: trade channels for resolution.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

/// Configuration of a [`PixelShuffle`].
#[derive(Config, Debug)]
pub struct PixelShuffleConfig {
    /// How much each spatial dim grows.
    pub upscale_factor: usize,
}

/// Rearranges `[batch, C·r², H, W]` into `[batch, C, H·r, W·r]` (Shi et
/// al.'s sub-pixel convolution), as PyTorch's `PixelShuffle`: output pixel
/// `(h·r + i, w·r + j)` of channel `c` is input channel `c·r² + i·r + j` at
/// `(h, w)`.
#[derive(Module, Debug)]
pub struct PixelShuffle {
    /// `r`.
    pub upscale_factor: usize,
}

impl PixelShuffleConfig {
    /// Builds the layer.
    ///
    /// # Panics
    /// If `upscale_factor` is 0.
    pub fn init(&self) -> PixelShuffle {
        assert!(
            self.upscale_factor > 0,
            "PixelShuffleConfig::init: upscale_factor must be positive"
        );
        PixelShuffle {
            upscale_factor: self.upscale_factor,
        }
    }
}

impl PixelShuffle {
    /// `[batch, C·r², H, W]` → `[batch, C, H·r, W·r]`.
    ///
    /// # Panics
    /// If the channels are not a multiple of `r²`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let r = self.upscale_factor;
        let [batch, channels, height, width] = input.dims();
        assert!(
            channels.is_multiple_of(r * r),
            "PixelShuffle::forward: {channels} channels are not a multiple of {r}² (input {})",
            input.shape()
        );
        let c = channels / (r * r);
        // [b, c, r, r, h, w] -> [b, c, h, r, w, r]
        let x: Tensor<6> = input.reshape([batch, c, r, r, height, width]);
        x.permute([0, 1, 4, 2, 5, 3])
            .reshape([batch, c, height * r, width * r])
    }
}
