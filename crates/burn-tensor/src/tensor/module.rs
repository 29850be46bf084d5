//! Functions of neural-network layers on float tensors
//! (`burn::tensor::module`): embedding, convolutions, transposed convolutions,
//! `unfold4d`, pooling, interpolation and attention. Each is the backend's `ModuleOps` method, so a backend's own
//! kernel runs, and under autodiff its recorded derivative.
//!
//! Shapes and semantics are PyTorch's `torch.nn.functional` ones: weights
//! are `[out_channels, in_channels / groups, ..kernel]` for a convolution and
//! `[in_channels, out_channels / groups, ..kernel]` for a transposed one.
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::module::{ConvOptions, conv2d};
//! use burn_tensor::{Device, Tensor};
//!
//! let device = Device::flex();
//! let x = Tensor::<4>::ones([1, 1, 3, 3], &device);
//! let weight = Tensor::<4>::ones([1, 1, 2, 2], &device);
//! // Four 2×2 windows of ones.
//! let y = conv2d(x, weight, None, ConvOptions::default());
//! assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![4.0; 4]);
//! # }
//! ```

pub use burn_backend::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions,
    UnfoldOptions,
};

use crate::bridge::ops::conv as bridge;
use crate::bridge::ops::pool as pool_bridge;
use crate::{Bool, Int, Tensor};

/// The rows of `weights` (`[n_embeddings, d_model]`) named by `indices`
/// (`[batch, seq]`), giving `[batch, seq, d_model]` (PyTorch's
/// `F.embedding`). Under autodiff the gradient of `weights` adds each
/// output row's gradient into the row it came from.
///
/// Out-of-range indices are the backend's to report, as for
/// [`Tensor::select`].
#[track_caller]
pub fn embedding(weights: Tensor<2>, indices: Tensor<2, Int>) -> Tensor<3> {
    Tensor::from_bridge(pool_bridge::embedding(weights.primitive, indices.primitive))
}

/// 1-d convolution: `x` `[batch, channels, length]`, `weight`
/// `[out_channels, channels / groups, kernel]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: ConvOptions<1>,
) -> Tensor<3> {
    Tensor::from_bridge(bridge::conv1d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// 2-d convolution: `x` `[batch, channels, height, width]`, `weight`
/// `[out_channels, channels / groups, kh, kw]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: ConvOptions<2>,
) -> Tensor<4> {
    Tensor::from_bridge(bridge::conv2d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// 3-d convolution: `x` `[batch, channels, depth, height, width]`, `weight`
/// `[out_channels, channels / groups, kd, kh, kw]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv3d(
    x: Tensor<5>,
    weight: Tensor<5>,
    bias: Option<Tensor<1>>,
    options: ConvOptions<3>,
) -> Tensor<5> {
    Tensor::from_bridge(bridge::conv3d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// 1-d transposed convolution: `x` `[batch, channels, length]`, `weight`
/// `[channels, out_channels / groups, kernel]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv_transpose1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<1>,
) -> Tensor<3> {
    Tensor::from_bridge(bridge::conv_transpose1d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// 2-d transposed convolution: `x` `[batch, channels, height, width]`,
/// `weight` `[channels, out_channels / groups, kh, kw]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv_transpose2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<2>,
) -> Tensor<4> {
    Tensor::from_bridge(bridge::conv_transpose2d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// 3-d transposed convolution: `x` `[batch, channels, depth, height, width]`,
/// `weight` `[channels, out_channels / groups, kd, kh, kw]`, `bias` `[out_channels]`.
///
/// # Panics
/// On shapes that do not fit together or the options (the message names them).
#[track_caller]
pub fn conv_transpose3d(
    x: Tensor<5>,
    weight: Tensor<5>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<3>,
) -> Tensor<5> {
    Tensor::from_bridge(bridge::conv_transpose3d(
        x.primitive,
        weight.primitive,
        bias.map(|b| b.primitive),
        options,
    ))
}

/// Sliding windows (im2col, PyTorch's `unfold`): `x` `[batch, channels,
/// height, width]` gives `[batch, channels · kh · kw, windows]`, each column
/// one window with its values in channel-major, then row-major kernel order.
///
/// # Panics
/// On an input that is not 4-d or a kernel that does not fit the padded input.
#[track_caller]
pub fn unfold4d(x: Tensor<4>, kernel_size: [usize; 2], options: UnfoldOptions) -> Tensor<3> {
    Tensor::from_bridge(bridge::unfold4d(x.primitive, kernel_size, options))
}

/// 2-d max pooling of `[batch, channels, height, width]`.
///
/// Windows of `kernel_size` taps spaced `dilation` apart move by `stride`
/// over the input padded by `padding` on each side (padding never wins);
/// `ceil_mode` rounds the output size up instead of down.
///
/// ```
/// # #[cfg(feature = "flex")] {
/// use burn_tensor::module::{avg_pool2d, max_pool2d};
/// use burn_tensor::{Device, Tensor};
///
/// let device = Device::flex();
/// let x = Tensor::<4>::from_data([[[[1.0, 2.0], [3.0, 4.0]]]], &device);
/// let max = max_pool2d(x.clone(), [2, 2], [1, 1], [0, 0], [1, 1], false);
/// let avg = avg_pool2d(x, [2, 2], [1, 1], [0, 0], true, false);
/// assert_eq!(max.into_data().to_vec::<f32>().unwrap(), vec![4.0]);
/// assert_eq!(avg.into_data().to_vec::<f32>().unwrap(), vec![2.5]);
/// # }
/// ```
///
/// # Panics
/// If `x` is not 4-d, or the padded input is shorter than a dilated window,
/// or `padding` is more than half the kernel.
pub fn max_pool2d(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> Tensor<4> {
    let (out, _) = pool_bridge::max_pool2d_with_indices(
        x.primitive,
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
        false,
    );
    Tensor::from_bridge(out)
}

/// [`max_pool2d`], with the index `h * width + w` of each maximum in its
/// input plane.
pub fn max_pool2d_with_indices(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> (Tensor<4>, Tensor<4, Int>) {
    let (out, indices) = pool_bridge::max_pool2d_with_indices(
        x.primitive,
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
        true,
    );
    let indices = indices.expect("indices were asked for");
    (Tensor::from_bridge(out), Tensor::from_bridge(indices))
}

/// 1-d max pooling of `[batch, channels, length]` (see [`max_pool2d`]).
pub fn max_pool1d(
    x: Tensor<3>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> Tensor<3> {
    let (out, _) = pool_bridge::max_pool1d_with_indices(
        x.primitive,
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
        false,
    );
    Tensor::from_bridge(out)
}

/// [`max_pool1d`], with the position of each maximum along the length.
pub fn max_pool1d_with_indices(
    x: Tensor<3>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> (Tensor<3>, Tensor<3, Int>) {
    let (out, indices) = pool_bridge::max_pool1d_with_indices(
        x.primitive,
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
        true,
    );
    let indices = indices.expect("indices were asked for");
    (Tensor::from_bridge(out), Tensor::from_bridge(indices))
}

/// 2-d average pooling of `[batch, channels, height, width]` over
/// zero-padded windows.
///
/// With `count_include_pad` the divisor counts the padding a window covers
/// (as PyTorch, not the part past the padding that `ceil_mode` adds);
/// without it, only the real elements.
///
/// # Panics
/// As [`max_pool2d`].
pub fn avg_pool2d(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<4> {
    Tensor::from_bridge(pool_bridge::avg_pool2d(
        x.primitive,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

/// 1-d average pooling of `[batch, channels, length]` (see [`avg_pool2d`]).
pub fn avg_pool1d(
    x: Tensor<3>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<3> {
    Tensor::from_bridge(pool_bridge::avg_pool1d(
        x.primitive,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

/// 2-d adaptive average pooling to `output_size` (`[height, width]`): cell
/// `o` of an axis of length `n` averages inputs `floor(o n / out)` to
/// `ceil((o + 1) n / out)`.
///
/// # Panics
/// If `x` is not 4-d or a size is zero.
pub fn adaptive_avg_pool2d(x: Tensor<4>, output_size: [usize; 2]) -> Tensor<4> {
    Tensor::from_bridge(pool_bridge::adaptive_avg_pool2d(x.primitive, output_size))
}

/// 1-d adaptive average pooling of `[batch, channels, length]`.
pub fn adaptive_avg_pool1d(x: Tensor<3>, output_size: usize) -> Tensor<3> {
    Tensor::from_bridge(pool_bridge::adaptive_avg_pool1d(x.primitive, output_size))
}

/// Resizes the planes of `[batch, channels, height, width]` to
/// `output_size` (PyTorch's `interpolate(x, size=...)`).
///
/// # Panics
/// If `x` is not 4-d or a size is zero.
pub fn interpolate(
    x: Tensor<4>,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> Tensor<4> {
    Tensor::from_bridge(pool_bridge::interpolate(x.primitive, output_size, options))
}

/// Scaled dot-product attention, `softmax(q kᵀ · scale) v`.
///
/// `query` is `[batch, heads, seq_q, d]`, `key` `[batch, heads, seq_k, d]`,
/// `value` `[batch, heads, seq_k, d_v]`; the result is `[batch, heads,
/// seq_q, d_v]`. `mask` (`[batch or 1, heads or 1, seq_q, seq_k]`) is true
/// where a query must not see a key (the negation of PyTorch's boolean
/// `attn_mask`); `options.is_causal` also hides later keys. A query that
/// sees no key gets NaN, as in PyTorch.
///
/// # Panics
/// If the shapes do not fit together.
pub fn attention(
    query: Tensor<4>,
    key: Tensor<4>,
    value: Tensor<4>,
    mask: Option<Tensor<4, Bool>>,
    options: AttentionOptions,
) -> Tensor<4> {
    Tensor::from_bridge(pool_bridge::attention(
        query.primitive,
        key.primitive,
        value.primitive,
        mask.map(|m| m.primitive),
        options,
    ))
}
