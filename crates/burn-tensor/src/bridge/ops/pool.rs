//! Forwarding of embedding, pooling, interpolation and attention
//! (`burn_tensor::module`), with the shape checks that give the API its
//! error messages.

use burn_backend::{
    AttentionOptions, InterpolateOptions, ModuleOps, TensorMetadata, dims3, dims4,
    nonempty_spatial, pool_output_size, pool2d_output_shape,
};
use burn_dispatch::Dispatch;

use super::float::float;
use super::{bool_operand, int_operand};
use crate::bridge::BridgeTensor;

pub(crate) fn embedding(weights: BridgeTensor, indices: BridgeTensor) -> BridgeTensor {
    // Both ranks are fixed by the API's types.
    let weights = float("embedding", weights);
    let indices = int_operand("embedding", indices);
    BridgeTensor::float(Dispatch::embedding(weights, indices))
}

pub(crate) fn max_pool2d_with_indices(
    x: BridgeTensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
    with_indices: bool,
) -> (BridgeTensor, Option<BridgeTensor>) {
    let op = "max_pool2d";
    let x = float(op, x);
    pool2d_output_shape(
        op,
        &x.shape(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    );
    if with_indices {
        let (out, indices) =
            Dispatch::max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode);
        (BridgeTensor::float(out), Some(BridgeTensor::int(indices)))
    } else {
        let out = Dispatch::max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode);
        (BridgeTensor::float(out), None)
    }
}

pub(crate) fn max_pool1d_with_indices(
    x: BridgeTensor,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
    with_indices: bool,
) -> (BridgeTensor, Option<BridgeTensor>) {
    let op = "max_pool1d";
    let x = float(op, x);
    let [_, _, l] = dims3(op, &x.shape());
    pool_output_size(op, l, kernel_size, stride, padding, dilation, ceil_mode);
    if with_indices {
        let (out, indices) =
            Dispatch::max_pool1d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode);
        (BridgeTensor::float(out), Some(BridgeTensor::int(indices)))
    } else {
        let out = Dispatch::max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode);
        (BridgeTensor::float(out), None)
    }
}

pub(crate) fn avg_pool2d(
    x: BridgeTensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> BridgeTensor {
    let op = "avg_pool2d";
    let x = float(op, x);
    pool2d_output_shape(
        op,
        &x.shape(),
        kernel_size,
        stride,
        padding,
        [1, 1],
        ceil_mode,
    );
    BridgeTensor::float(Dispatch::avg_pool2d(
        x,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

pub(crate) fn avg_pool1d(
    x: BridgeTensor,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> BridgeTensor {
    let op = "avg_pool1d";
    let x = float(op, x);
    let [_, _, l] = dims3(op, &x.shape());
    pool_output_size(op, l, kernel_size, stride, padding, 1, ceil_mode);
    BridgeTensor::float(Dispatch::avg_pool1d(
        x,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

pub(crate) fn adaptive_avg_pool2d(x: BridgeTensor, output_size: [usize; 2]) -> BridgeTensor {
    let op = "adaptive_avg_pool2d";
    let x = float(op, x);
    nonempty_spatial(op, &x.shape(), output_size);
    BridgeTensor::float(Dispatch::adaptive_avg_pool2d(x, output_size))
}

pub(crate) fn adaptive_avg_pool1d(x: BridgeTensor, output_size: usize) -> BridgeTensor {
    let op = "adaptive_avg_pool1d";
    let x = float(op, x);
    let [_, _, l] = dims3(op, &x.shape());
    if l == 0 || output_size == 0 {
        panic!("{op}: input length {l} and output size {output_size} must be positive");
    }
    BridgeTensor::float(Dispatch::adaptive_avg_pool1d(x, output_size))
}

pub(crate) fn interpolate(
    x: BridgeTensor,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> BridgeTensor {
    let op = "interpolate";
    let x = float(op, x);
    nonempty_spatial(op, &x.shape(), output_size);
    BridgeTensor::float(Dispatch::interpolate(x, output_size, options))
}

pub(crate) fn attention(
    query: BridgeTensor,
    key: BridgeTensor,
    value: BridgeTensor,
    mask: Option<BridgeTensor>,
    options: AttentionOptions,
) -> BridgeTensor {
    let op = "attention";
    let (q, k, v) = (float(op, query), float(op, key), float(op, value));
    let (qs, ks, vs) = (q.shape(), k.shape(), v.shape());
    let [b, h, lq, d] = dims4(op, &qs);
    let [kb, kh, lk, kd] = dims4(op, &ks);
    let [vb, vh, lv, _] = dims4(op, &vs);
    if (kb, kh, kd) != (b, h, d) || (vb, vh, lv) != (b, h, lk) {
        panic!(
            "attention: expected query [batch, heads, seq_q, d], key [batch, heads, seq_k, d] \
             and value [batch, heads, seq_k, d_v], got {qs}, {ks} and {vs}"
        );
    }
    let mask = mask.map(|m| {
        let m = bool_operand(op, m);
        let ms = m.shape();
        let fits = ms.num_dims() == 4
            && ms.dims[2..] == [lq, lk]
            && (ms.dims[0] == 1 || ms.dims[0] == b)
            && (ms.dims[1] == 1 || ms.dims[1] == h);
        if !fits {
            panic!("attention: mask {ms} does not broadcast to [{b}, {h}, {lq}, {lk}]");
        }
        m
    });
    BridgeTensor::float(Dispatch::attention(q, k, v, mask, options))
}
