//! Option types of tensor operations (`burn::tensor::ops`): padding modes
//! and the options of the layer functions in [`module`](crate::module).
//!
//! Definitions and re-exports only; the operations that take them live on
//! [`Tensor`](crate::Tensor) and in [`module`](crate::module), or in crates
//! built on this one (`burn-vision`'s `filter2d` and `Transform2D`).

pub use burn_backend::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions,
    UnfoldOptions,
};

/// How values beyond a tensor's edge are made up when it is padded.
///
/// On `[1, 2, 3, 4]` padded by 2 on the left:
/// `Constant(0.0)` gives `[0, 0, 1, 2, 3, 4]`, `Reflect` gives
/// `[3, 2, 1, 2, 3, 4]` (the edge value is not repeated, so the padding
/// must be smaller than the dim), `Edge` gives `[1, 1, 1, 2, 3, 4]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadMode {
    /// Every padded value is this constant.
    Constant(f32),
    /// Mirror image about the edge element, which is not repeated
    /// (NumPy's `reflect`, OpenCV's `BORDER_REFLECT_101`).
    Reflect,
    /// The edge element repeated (NumPy's `edge`, OpenCV's `BORDER_REPLICATE`).
    Edge,
}

impl Default for PadMode {
    /// `Constant(0.0)`.
    fn default() -> Self {
        PadMode::Constant(0.0)
    }
}

/// What a grid sample outside the input reads, PyTorch's `padding_mode` of
/// `grid_sample`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GridSamplePaddingMode {
    /// Zero (PyTorch's default).
    #[default]
    Zeros,
    /// The nearest edge value (coordinates clamped to the input).
    Border,
    /// Coordinates reflected at the input's edges until they fall inside.
    Reflection,
}
