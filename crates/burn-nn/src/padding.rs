//! [`PaddingConfig1d`], [`PaddingConfig2d`] and [`PaddingConfig3d`]: how much zero padding a
//! convolution or pooling layer adds on each side.

use burn::config::Config;

/// Padding of a 1-d layer.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum PaddingConfig1d {
    /// No padding.
    Valid,
    /// Enough padding that stride 1 keeps the length: `dilation * (kernel - 1) / 2`
    /// on each side (odd effective kernels only).
    Same,
    /// This many elements on each side.
    Explicit(usize),
}

/// Padding of a 2-d layer.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum PaddingConfig2d {
    /// No padding.
    Valid,
    /// Enough padding that stride 1 keeps the size: `dilation * (kernel - 1) / 2`
    /// on each side of each axis (odd effective kernels only).
    Same,
    /// `(height, width)` elements on each side.
    Explicit(usize, usize),
}

/// Padding of a 3-d layer.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum PaddingConfig3d {
    /// No padding.
    Valid,
    /// Enough padding that stride 1 keeps the size: `dilation * (kernel - 1) / 2`
    /// on each side of each axis (odd effective kernels only).
    Same,
    /// `(depth, height, width)` elements on each side.
    Explicit(usize, usize, usize),
}

/// The per-side padding of `Same` along one axis.
#[track_caller]
fn same(layer: &str, kernel: usize, stride: usize, dilation: usize) -> usize {
    let span = dilation * kernel.saturating_sub(1);
    assert!(
        stride == 1 && span.is_multiple_of(2),
        "{layer}: `Same` padding needs stride 1 and an odd effective kernel \
         (kernel {kernel}, stride {stride}, dilation {dilation})"
    );
    span / 2
}

impl PaddingConfig1d {
    /// The padding on each side, for a kernel, stride and dilation.
    ///
    /// # Panics
    /// For `Same` with a stride other than 1 or an even effective kernel
    /// (symmetric padding cannot keep the length then).
    #[track_caller]
    pub fn resolve(&self, layer: &str, kernel: usize, stride: usize, dilation: usize) -> usize {
        match *self {
            Self::Valid => 0,
            Self::Same => same(layer, kernel, stride, dilation),
            Self::Explicit(p) => p,
        }
    }
}

impl PaddingConfig2d {
    /// The padding on each side of `[height, width]`, for a kernel, stride
    /// and dilation.
    ///
    /// # Panics
    /// As [`PaddingConfig1d::resolve`], on either axis.
    #[track_caller]
    pub fn resolve(
        &self,
        layer: &str,
        kernel: [usize; 2],
        stride: [usize; 2],
        dilation: [usize; 2],
    ) -> [usize; 2] {
        match *self {
            Self::Valid => [0, 0],
            Self::Same => [
                same(layer, kernel[0], stride[0], dilation[0]),
                same(layer, kernel[1], stride[1], dilation[1]),
            ],
            Self::Explicit(h, w) => [h, w],
        }
    }
}

impl PaddingConfig3d {
    /// The padding on each side of `[depth, height, width]`, for a kernel,
    /// stride and dilation.
    ///
    /// # Panics
    /// As [`PaddingConfig1d::resolve`], on any axis.
    #[track_caller]
    pub fn resolve(
        &self,
        layer: &str,
        kernel: [usize; 3],
        stride: [usize; 3],
        dilation: [usize; 3],
    ) -> [usize; 3] {
        match *self {
            Self::Valid => [0, 0, 0],
            Self::Same => core::array::from_fn(|d| same(layer, kernel[d], stride[d], dilation[d])),
            Self::Explicit(d, h, w) => [d, h, w],
        }
    }
}
