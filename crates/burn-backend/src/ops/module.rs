//! Operations used by neural-network modules.

use burn_std::{Shape, TensorData};

use burn_std::Scalar;

use super::pool_options::{AttentionOptions, InterpolateOptions, dims3, dims4};
use super::positions;
use crate::{Backend, BoolTensor, FloatTensor, IntTensor, TensorMetadata};
use crate::{ConvOptions, ConvTransposeOptions, UnfoldOptions, check};

/// Operations that modules (layers) build on.
///
/// Embedding, the 1-d pooling ops and attention are composites over the
/// primitives; the 2-d pooling and interpolation kernels (and their
/// backward passes, which autodiff records) are required.
///
/// Convolutions: `conv3d`, `conv_transpose3d` and `conv3d_weight_backward`
/// are required; the 1-d and 2-d ops run as the 3-d ones over size-1 dims
/// (free views) and `unfold4d` as a grouped `conv2d` with one-hot kernels,
/// so their derivatives come from those of the 3-d ops.
pub trait ModuleOps<B: Backend> {
    /// Looks up rows of `weights` (`[n_embeddings, d_model]`) for each index of
    /// `indices` (`[batch, seq]`), giving `[batch, seq, d_model]`.
    fn embedding(weights: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B> {
        let [batch, seq] = dims2("embedding", &indices.shape());
        let d_model = weights.shape().dims[1];
        let flat = B::int_reshape(indices, Shape::new([batch * seq]));
        let rows = B::float_select(weights, 0, flat);
        B::float_reshape(rows, Shape::new([batch, seq, d_model]))
    }

    /// The gradient of [`embedding`](ModuleOps::embedding) with respect to the
    /// weights: each output row's gradient is added into the row it came from.
    fn embedding_backward(
        weights: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        indices: IntTensor<B>,
    ) -> FloatTensor<B> {
        let [batch, seq] = dims2("embedding_backward", &indices.shape());
        let [n, d_model] = dims2("embedding_backward", &weights.shape());
        let device = B::float_device(&weights);
        let zeros = B::float_zeros(Shape::new([n, d_model]), &device, weights.dtype());
        let flat = B::int_reshape(indices, Shape::new([batch * seq]));
        let grad = B::float_reshape(output_grad, Shape::new([batch * seq, d_model]));
        B::float_select_add(zeros, 0, flat, grad)
    }

    /// 1-d convolution: `x` `[batch, channels, length]`, `weight`
    /// `[out_channels, channels / groups, kernel]`, `bias` `[out_channels]`,
    /// giving `[batch, out_channels, out_length]` (see [`check::conv`]).
    /// Default: [`conv2d`](ModuleOps::conv2d) over a height of 1.
    fn conv1d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvOptions<1>,
    ) -> FloatTensor<B> {
        let bias_shape = bias.as_ref().map(|b| b.shape());
        let o = options;
        check::conv(
            "conv1d",
            &x.shape(),
            &weight.shape(),
            bias_shape.as_ref(),
            &o.stride,
            &o.padding,
            &o.dilation,
            o.groups,
        );
        let options = ConvOptions::new(
            [1, options.stride[0]],
            [0, options.padding[0]],
            [1, options.dilation[0]],
            options.groups,
        );
        let out = B::conv2d(
            unsqueeze_spatial::<B>(x),
            unsqueeze_spatial::<B>(weight),
            bias,
            options,
        );
        squeeze_spatial::<B>(out)
    }

    /// 2-d convolution: `x` `[batch, channels, height, width]`, `weight`
    /// `[out_channels, channels / groups, kh, kw]`, `bias` `[out_channels]`.
    /// Default: [`conv3d`](ModuleOps::conv3d) over a depth of 1.
    fn conv2d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvOptions<2>,
    ) -> FloatTensor<B> {
        let bias_shape = bias.as_ref().map(|b| b.shape());
        let o = options;
        check::conv(
            "conv2d",
            &x.shape(),
            &weight.shape(),
            bias_shape.as_ref(),
            &o.stride,
            &o.padding,
            &o.dilation,
            o.groups,
        );
        let [s, p, d] = [options.stride, options.padding, options.dilation];
        let options = ConvOptions::new(
            [1, s[0], s[1]],
            [0, p[0], p[1]],
            [1, d[0], d[1]],
            options.groups,
        );
        let out = B::conv3d(
            unsqueeze_spatial::<B>(x),
            unsqueeze_spatial::<B>(weight),
            bias,
            options,
        );
        squeeze_spatial::<B>(out)
    }

    /// 3-d convolution: `x` `[batch, channels, depth, height, width]`,
    /// `weight` `[out_channels, channels / groups, kd, kh, kw]`, `bias`
    /// `[out_channels]`. The primitive the other ranks reduce to.
    fn conv3d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvOptions<3>,
    ) -> FloatTensor<B>;

    /// The gradient of [`conv3d`](ModuleOps::conv3d) with respect to its
    /// weight, of shape `weight_shape`: `x` is the convolution's input and
    /// `output_grad` the gradient of its output (whose spatial sizes give the
    /// number of kernel positions).
    fn conv3d_weight_backward(
        x: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> FloatTensor<B>;

    /// 1-d transposed convolution: `x` `[batch, channels, length]`, `weight`
    /// `[channels, out_channels / groups, kernel]`, `bias` `[out_channels]`
    /// (see [`check::conv_transpose`]). Default: the 2-d op over a height of 1.
    fn conv_transpose1d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvTransposeOptions<1>,
    ) -> FloatTensor<B> {
        let bias_shape = bias.as_ref().map(|b| b.shape());
        let o = options;
        check::conv_transpose(
            "conv_transpose1d",
            &x.shape(),
            &weight.shape(),
            bias_shape.as_ref(),
            &o.stride,
            &o.padding,
            &o.padding_out,
            &o.dilation,
            o.groups,
        );
        let options = ConvTransposeOptions::new(
            [1, o.stride[0]],
            [0, o.padding[0]],
            [0, o.padding_out[0]],
            [1, o.dilation[0]],
            o.groups,
        );
        let out = B::conv_transpose2d(
            unsqueeze_spatial::<B>(x),
            unsqueeze_spatial::<B>(weight),
            bias,
            options,
        );
        squeeze_spatial::<B>(out)
    }

    /// 2-d transposed convolution: `x` `[batch, channels, height, width]`,
    /// `weight` `[channels, out_channels / groups, kh, kw]`, `bias`
    /// `[out_channels]`. Default: the 3-d op over a depth of 1.
    fn conv_transpose2d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvTransposeOptions<2>,
    ) -> FloatTensor<B> {
        let bias_shape = bias.as_ref().map(|b| b.shape());
        let o = options;
        check::conv_transpose(
            "conv_transpose2d",
            &x.shape(),
            &weight.shape(),
            bias_shape.as_ref(),
            &o.stride,
            &o.padding,
            &o.padding_out,
            &o.dilation,
            o.groups,
        );
        let [s, p, po, d] = [
            options.stride,
            options.padding,
            options.padding_out,
            options.dilation,
        ];
        let options = ConvTransposeOptions::new(
            [1, s[0], s[1]],
            [0, p[0], p[1]],
            [0, po[0], po[1]],
            [1, d[0], d[1]],
            options.groups,
        );
        let out = B::conv_transpose3d(
            unsqueeze_spatial::<B>(x),
            unsqueeze_spatial::<B>(weight),
            bias,
            options,
        );
        squeeze_spatial::<B>(out)
    }

    /// 3-d transposed convolution: `x` `[batch, channels, depth, height,
    /// width]`, `weight` `[channels, out_channels / groups, kd, kh, kw]`,
    /// `bias` `[out_channels]`. The gradient of `conv3d` with respect to its
    /// input, and the primitive the other ranks reduce to.
    fn conv_transpose3d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvTransposeOptions<3>,
    ) -> FloatTensor<B>;

    /// Sliding windows (im2col): `x` `[batch, channels, height, width]` gives
    /// `[batch, channels · kh · kw, windows]`, each column one window in
    /// channel-major then row-major kernel order, as PyTorch's `unfold`.
    /// Default: a grouped [`conv2d`](ModuleOps::conv2d) with one-hot
    /// kernels, so its gradient comes with the convolution's.
    fn unfold4d(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        options: UnfoldOptions,
    ) -> FloatTensor<B> {
        let shape = x.shape();
        if shape.num_dims() != 4 {
            panic!(
                "unfold4d: expected a 4-dim input [batch, channels, height, width], got {shape}"
            );
        }
        let (batch, channels) = (shape.dims[0], shape.dims[1]);
        let [kh, kw] = kernel_size;
        let window = kh * kw;
        // weight[c · window + q, 0, i, j] = 1 where q = i · kw + j.
        let mut values = alloc::vec![0f32; channels * window * window];
        for c in 0..channels {
            for q in 0..window {
                values[(c * window + q) * window + q] = 1.0;
            }
        }
        let device = B::float_device(&x);
        let weight = B::float_from_data(
            TensorData::new(values, [channels * window, 1, kh, kw]),
            &device,
        );
        let weight = B::float_cast(weight, x.dtype());
        let options = ConvOptions::new(
            options.stride,
            options.padding,
            options.dilation,
            channels.max(1),
        );
        let out = B::conv2d(x, weight, None, options);
        let out_shape = out.shape();
        let windows = out_shape.dims[2] * out_shape.dims[3];
        B::float_reshape(out, Shape::new([batch, channels * window, windows]))
    }

    // ----------------------------------------------------------- pooling
    //
    // Inputs are `[batch, channels, height, width]` (2-d) or `[batch,
    // channels, length]` (1-d); output sizes follow `pool_output_size`. The
    // 1-d ops are the 2-d ones on a height of 1, so a backend writes (and
    // autodiff differentiates) only the 2-d kernels.

    /// 2-d max pooling: the largest element of each dilated window (padding
    /// never wins; NaN does, as in PyTorch).
    fn max_pool2d(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        B::max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode).0
    }

    /// 2-d max pooling, with the position of each maximum as an index
    /// `h * width + w` into its input plane (int64, PyTorch's convention).
    fn max_pool2d_with_indices(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> (FloatTensor<B>, IntTensor<B>);

    /// The gradient of [`max_pool2d_with_indices`](ModuleOps::max_pool2d_with_indices)
    /// with respect to `x`: each output gradient added at the input position
    /// its index names.
    #[allow(clippy::too_many_arguments)]
    fn max_pool2d_with_indices_backward(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
        output_grad: FloatTensor<B>,
        indices: IntTensor<B>,
    ) -> FloatTensor<B>;

    /// 2-d average pooling over zero-padded windows. The divisor is the
    /// window's size clipped to the padded input when `count_include_pad`,
    /// else the number of real (unpadded) elements it covers.
    fn avg_pool2d(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B>;

    /// The gradient of [`avg_pool2d`](ModuleOps::avg_pool2d) with respect to
    /// `x`, given the output gradient `grad`.
    fn avg_pool2d_backward(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B>;

    /// 2-d adaptive average pooling to `output_size`: output cell `o` of an
    /// axis of length `n` averages input `floor(o n / out) .. ceil((o + 1) n / out)`.
    fn adaptive_avg_pool2d(x: FloatTensor<B>, output_size: [usize; 2]) -> FloatTensor<B>;

    /// The gradient of [`adaptive_avg_pool2d`](ModuleOps::adaptive_avg_pool2d)
    /// with respect to `x`.
    fn adaptive_avg_pool2d_backward(x: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B>;

    /// 1-d max pooling of `[batch, channels, length]`.
    fn max_pool1d(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        B::max_pool1d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode).0
    }

    /// 1-d max pooling with the position of each maximum along the length.
    fn max_pool1d_with_indices(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let [n, c, l] = dims3("max_pool1d", &x.shape());
        let x = B::float_reshape(x, Shape::new([n, c, 1, l]));
        let (out, indices) = B::max_pool2d_with_indices(
            x,
            [1, kernel_size],
            [1, stride],
            [0, padding],
            [1, dilation],
            ceil_mode,
        );
        // With a height of 1 the plane index `h * l + w` is `w`.
        let [_, _, _, ol] = dims4("max_pool1d", &out.shape());
        (
            B::float_reshape(out, Shape::new([n, c, ol])),
            B::int_reshape(indices, Shape::new([n, c, ol])),
        )
    }

    /// 1-d average pooling of `[batch, channels, length]`.
    fn avg_pool1d(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        let [n, c, l] = dims3("avg_pool1d", &x.shape());
        let x = B::float_reshape(x, Shape::new([n, c, 1, l]));
        let out = B::avg_pool2d(
            x,
            [1, kernel_size],
            [1, stride],
            [0, padding],
            count_include_pad,
            ceil_mode,
        );
        let [_, _, _, ol] = dims4("avg_pool1d", &out.shape());
        B::float_reshape(out, Shape::new([n, c, ol]))
    }

    /// 1-d adaptive average pooling of `[batch, channels, length]`.
    fn adaptive_avg_pool1d(x: FloatTensor<B>, output_size: usize) -> FloatTensor<B> {
        let [n, c, l] = dims3("adaptive_avg_pool1d", &x.shape());
        let x = B::float_reshape(x, Shape::new([n, c, 1, l]));
        let out = B::adaptive_avg_pool2d(x, [1, output_size]);
        B::float_reshape(out, Shape::new([n, c, output_size]))
    }

    // ------------------------------------------------------ interpolation

    /// Resizes the planes of `[batch, channels, height, width]` to
    /// `output_size` (PyTorch's `interpolate` with a size).
    fn interpolate(
        x: FloatTensor<B>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<B>;

    /// The gradient of [`interpolate`](ModuleOps::interpolate) with respect
    /// to `x`: the output gradient spread back with the forward weights.
    fn interpolate_backward(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<B>;

    // ---------------------------------------------------------- attention

    /// Scaled dot-product attention, `softmax(q kᵀ · scale + masks) v`.
    ///
    /// `query` is `[batch, heads, seq_q, d]`, `key` `[batch, heads, seq_k, d]`,
    /// `value` `[batch, heads, seq_k, d_v]`; the output is `[batch, heads,
    /// seq_q, d_v]`. `mask` (broadcast to `[batch, heads, seq_q, seq_k]`) is
    /// true where a query must *not* attend to a key (Burn's convention; it is
    /// the negation of PyTorch's boolean `attn_mask`). `options.is_causal`
    /// also hides key `j` from query `i` when `j > i`. A row with every key
    /// hidden is NaN, as in PyTorch. The scale defaults to `1 / sqrt(d)`.
    ///
    /// Composed of matmul, mask_fill and softmax, so its derivative follows
    /// from theirs.
    fn attention(
        query: FloatTensor<B>,
        key: FloatTensor<B>,
        value: FloatTensor<B>,
        mask: Option<BoolTensor<B>>,
        options: AttentionOptions,
    ) -> FloatTensor<B> {
        let q_shape = query.shape();
        let [_, _, seq_q, d] = dims4("attention", &q_shape);
        let [_, _, seq_k, d_k] = dims4("attention", &key.shape());
        if d != d_k {
            panic!(
                "attention: query {q_shape} and key {} have different head sizes",
                key.shape()
            );
        }
        let scale = options.scale.unwrap_or(1.0 / libm::sqrt(d as f64));
        let key_t = B::float_swap_dims(key, 2, 3);
        let scores = B::float_mul_scalar(B::float_matmul(query, key_t), Scalar::Float(scale));
        let hidden = Scalar::Float(f64::NEG_INFINITY);
        let scores = match mask {
            Some(mask) => B::float_mask_fill(scores, mask, hidden),
            None => scores,
        };
        let scores = if options.is_causal {
            let device = B::float_device(&scores);
            let rows = positions::<B>(seq_q, 2, 4, &device);
            let cols = positions::<B>(seq_k, 3, 4, &device);
            B::float_mask_fill(scores, B::int_greater(cols, rows), hidden)
        } else {
            scores
        };
        B::float_matmul(B::softmax(scores, 3), value)
    }
}

/// `[a, b, ..rest]` → `[a, b, 1, ..rest]`: one more spatial dim of size 1,
/// so a lower-rank convolution runs as the next rank up.
fn unsqueeze_spatial<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    let mut dims = tensor.shape().dims.to_vec();
    dims.insert(2, 1);
    B::float_reshape(tensor, Shape::from(dims))
}

/// The inverse of [`unsqueeze_spatial`].
fn squeeze_spatial<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    let mut dims = tensor.shape().dims.to_vec();
    dims.remove(2);
    B::float_reshape(tensor, Shape::from(dims))
}

#[track_caller]
fn dims2(op: &str, shape: &Shape) -> [usize; 2] {
    match shape.dims[..] {
        [a, b] => [a, b],
        _ => panic!("{op}: expected 2 dims, got shape {shape}"),
    }
}
