//! Options and output-size rules of pooling, interpolation and attention, shared by
//! the backends and the tensor API so every layer agrees on one shape.
//!
//! The rules follow PyTorch's `torch.nn.functional` (the reference values of
//! the tests come from it).

use burn_std::Shape;

/// How [`interpolate`](crate::ModuleOps::interpolate) picks or blends input pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum InterpolateMode {
    /// The input pixel `floor(dst * in / out)` (PyTorch's `"nearest"`).
    Nearest,
    /// Linear blend of the two nearest pixels along each axis.
    Bilinear,
    /// Cubic convolution (Keys, `a = -0.75`) over four pixels along each
    /// axis, borders replicated.
    Bicubic,
}

/// Options of [`interpolate`](crate::ModuleOps::interpolate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct InterpolateOptions {
    /// The interpolation mode.
    pub mode: InterpolateMode,
    /// When true, the centres of the corner pixels of input and output are
    /// aligned (`src = dst * (in - 1) / (out - 1)`); when false, their outer
    /// edges are (`src = (dst + 0.5) * in / out - 0.5`). Ignored by `Nearest`.
    pub align_corners: bool,
}

impl InterpolateOptions {
    /// Options for `mode`, with `align_corners` false (PyTorch's default).
    pub fn new(mode: InterpolateMode) -> Self {
        Self {
            mode,
            align_corners: false,
        }
    }

    /// The same options with `align_corners` set.
    pub fn with_align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }
}

/// Options of [`attention`](crate::ModuleOps::attention).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AttentionOptions {
    /// The factor applied to `q kᵀ`; `None` means `1 / sqrt(head size)`.
    pub scale: Option<f64>,
    /// Hides key `j` from query `i` when `j > i` (a top-left aligned
    /// lower-triangular mask, as PyTorch's `is_causal`).
    pub is_causal: bool,
}

/// The geometry of a 2-d pooling window, per axis `[height, width]`: the
/// kernel, its stride, the zero padding on each side and the dilation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PoolWindow {
    /// Taps of the window.
    pub kernel: [usize; 2],
    /// Step between window positions.
    pub stride: [usize; 2],
    /// Zero padding on each side.
    pub padding: [usize; 2],
    /// Step between taps.
    pub dilation: [usize; 2],
}

impl PoolWindow {
    /// A window from the arguments of the pooling ops, in their order.
    pub const fn new(
        kernel: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
    ) -> Self {
        Self {
            kernel,
            stride,
            padding,
            dilation,
        }
    }
}

/// The length of a pooled axis: the number of window positions
/// `o * stride - padding` whose dilated window of `kernel` taps fits in the
/// padded input, rounded up when `ceil_mode` (as PyTorch, a last window that
/// would start inside the right padding is dropped).
///
/// # Panics
/// If `input`, `kernel`, `stride` or `dilation` is zero, `padding` is more
/// than half the kernel, or the padded input is shorter than the dilated
/// kernel.
#[track_caller]
pub fn pool_output_size(
    op: &str,
    input: usize,
    kernel: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> usize {
    if kernel == 0 || stride == 0 || dilation == 0 {
        panic!(
            "{op}: kernel size, stride and dilation must be positive, got kernel {kernel}, \
             stride {stride}, dilation {dilation}"
        );
    }
    if input == 0 {
        panic!("{op}: the pooled input has an empty spatial axis");
    }
    if padding * 2 > kernel {
        panic!("{op}: padding {padding} must be at most half the kernel size {kernel}");
    }
    let span = dilation * (kernel - 1) + 1;
    let padded = input + 2 * padding;
    if padded < span {
        panic!(
            "{op}: the padded input length {padded} is shorter than the dilated kernel {span} \
             (input {input}, kernel {kernel}, padding {padding}, dilation {dilation})"
        );
    }
    let steps = padded - span;
    let mut out = if ceil_mode {
        steps.div_ceil(stride) + 1
    } else {
        steps / stride + 1
    };
    // A window must start inside the input or the left padding.
    if ceil_mode && (out - 1) * stride >= input + padding {
        out -= 1;
    }
    out
}

/// The `[batch, channels, height, width]` of a 4-d pooling input.
#[track_caller]
pub fn dims4(op: &str, shape: &Shape) -> [usize; 4] {
    match shape.dims[..] {
        [n, c, h, w] => [n, c, h, w],
        _ => panic!("{op}: expected a 4-d input [batch, channels, height, width], got {shape}"),
    }
}

/// The `[batch, channels, length]` of a 3-d pooling input.
#[track_caller]
pub fn dims3(op: &str, shape: &Shape) -> [usize; 3] {
    match shape.dims[..] {
        [n, c, l] => [n, c, l],
        _ => panic!("{op}: expected a 3-d input [batch, channels, length], got {shape}"),
    }
}

/// The output shape of a 2-d pooling of `shape` (see [`pool_output_size`]).
#[track_caller]
pub fn pool2d_output_shape(
    op: &str,
    shape: &Shape,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> Shape {
    let [n, c, h, w] = dims4(op, shape);
    let oh = pool_output_size(
        op,
        h,
        kernel_size[0],
        stride[0],
        padding[0],
        dilation[0],
        ceil_mode,
    );
    let ow = pool_output_size(
        op,
        w,
        kernel_size[1],
        stride[1],
        padding[1],
        dilation[1],
        ceil_mode,
    );
    Shape::new([n, c, oh, ow])
}

/// Panics unless the spatial dims of `shape` and the requested output size
/// are positive (an empty plane has nothing to pool or interpolate from).
#[track_caller]
pub fn nonempty_spatial(op: &str, shape: &Shape, output_size: [usize; 2]) {
    let [_, _, h, w] = dims4(op, shape);
    if h == 0 || w == 0 || output_size[0] == 0 || output_size[1] == 0 {
        panic!(
            "{op}: input spatial size [{h}, {w}] and output size {output_size:?} must be positive"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_size_matches_pytorch_rules() {
        // floor((5 + 2 - 3) / 2) + 1 = 3.
        assert_eq!(pool_output_size("t", 5, 3, 2, 1, 1, false), 3);
        // (6 - 3) / 2 = 1.5: floor gives 2 windows, ceil 3.
        assert_eq!(pool_output_size("t", 6, 3, 2, 0, 1, false), 2);
        assert_eq!(pool_output_size("t", 6, 3, 2, 0, 1, true), 3);
        // ceil would start a window at 4 = input + padding: dropped.
        assert_eq!(pool_output_size("t", 3, 2, 2, 1, 1, true), 2);
        // Dilation 2 spreads a 3-tap kernel over 5 positions.
        assert_eq!(pool_output_size("t", 7, 3, 1, 0, 2, false), 3);
    }

    #[test]
    #[should_panic(expected = "at most half the kernel size")]
    fn rejects_large_padding() {
        pool_output_size("max_pool2d", 8, 2, 1, 2, 1, false);
    }
}
