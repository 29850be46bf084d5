//! The derivatives of the convolutions. Only the 3-d ops record steps: the
//! 1-d and 2-d ops (and `unfold4d`) are the trait's defaults, reshapes
//! around the 3-d ops, so their gradients flow through those reshapes.
//!
//! The bias is added outside the recorded step, as an autodiff broadcast
//! add, when any input is tracked: its gradient (the output gradient summed
//! over batch and positions) then comes from the add's own derivative. An
//! untracked call passes the bias to the backend kernel, which fuses it.

use burn_backend::{Backend, ConvOptions, ConvTransposeOptions, FloatTensorOps, TensorMetadata};
use burn_std::{Shape, Slice};

use super::{At, Ft};
use crate::Autodiff;
use crate::backward::{Backward, ParentGrads, Prepared};
use crate::checkpoint::{CheckpointStrategy, Checkpointed};

/// What a convolution step keeps: each side only the operand the other
/// side's gradient reads, and the shapes of both.
type ConvState<B, O> = (
    Option<Checkpointed<B>>,
    Option<Checkpointed<B>>,
    Shape,
    Shape,
    O,
);

struct Conv3d;

impl<B: Backend> Backward<B, 2> for Conv3d {
    type State = ConvState<B, ConvOptions<3>>;

    fn backward(self, g: Ft<B>, state: Self::State, grads: &mut ParentGrads<'_, B, 2>) {
        let (x, weight, x_shape, w_shape, o) = state;
        // dx = conv_transpose(g, w): each input element collects the output
        // gradients of the windows it fed, weighted by the kernel element;
        // padding_out restores the input size a strided conv rounded away.
        if let Some(weight) = weight {
            let padding_out = core::array::from_fn(|d| {
                let (k, size) = (w_shape.dims[2 + d], g.shape().dims[2 + d]);
                let reached =
                    (size - 1) * o.stride[d] + o.dilation[d] * (k - 1) + 1 - 2 * o.padding[d];
                x_shape.dims[2 + d] - reached
            });
            let options =
                ConvTransposeOptions::new(o.stride, o.padding, padding_out, o.dilation, o.groups);
            grads.register(
                0,
                B::conv_transpose3d(g.clone(), weight.value(), None, options),
            );
        }
        // dw[o, c, k] = Σ_{b, p} g[b, o, p] · x[b, c, p·s + k·d − pad].
        if let Some(x) = x {
            grads.register(1, B::conv3d_weight_backward(x.value(), g, w_shape, o));
        }
    }
}

/// `conv3d` on autodiff tensors.
pub(crate) fn conv3d<B: Backend, C: CheckpointStrategy>(
    x: At<B>,
    weight: At<B>,
    bias: Option<At<B>>,
    options: ConvOptions<3>,
) -> At<B> {
    let prep = Prepared::new(Conv3d, [x.node().node, weight.node().node], C::MODE);
    let bias_tracked = bias.as_ref().is_some_and(At::is_tracked);
    if !prep.is_tracked() && !bias_tracked {
        let bias = bias.map(At::into_primitive);
        let out = B::conv3d(x.into_primitive(), weight.into_primitive(), bias, options);
        return At::constant(out, C::MODE);
    }
    let prep = prep.compute_bound();
    let state = (
        prep.is_parent_tracked(1).then(|| prep.checkpoint(&x)),
        prep.is_parent_tracked(0).then(|| prep.checkpoint(&weight)),
        x.shape(),
        weight.shape(),
        options,
    );
    let out = B::conv3d(x.into_primitive(), weight.into_primitive(), None, options);
    add_bias::<B, C>(prep.finish(state, out), bias)
}

struct ConvTranspose3d;

impl<B: Backend> Backward<B, 2> for ConvTranspose3d {
    type State = ConvState<B, ConvTransposeOptions<3>>;

    fn backward(self, g: Ft<B>, state: Self::State, grads: &mut ParentGrads<'_, B, 2>) {
        let (x, weight, x_shape, w_shape, o) = state;
        let conv = ConvOptions::new(o.stride, o.padding, o.dilation, o.groups);
        // dx = conv(g, w): the transpose of the transpose. An output padding
        // of at least the stride (allowed below the dilation) makes the conv
        // reach past the input: the extra positions are cut off.
        if let Some(weight) = weight {
            let dx = B::conv3d(g.clone(), weight.value(), None, conv);
            let dx = if dx.shape() == x_shape {
                dx
            } else {
                let slices: alloc::vec::Vec<Slice> =
                    x_shape.dims.iter().map(|&n| Slice::from(0..n)).collect();
                B::float_slice(dx, &slices)
            };
            grads.register(0, dx);
        }
        // dw: ⟨conv_transpose(x, w), g⟩ = ⟨x, conv(g, w)⟩, so dw is the weight
        // gradient of conv(g, w) at output gradient x.
        if let Some(x) = x {
            grads.register(1, B::conv3d_weight_backward(g, x.value(), w_shape, conv));
        }
    }
}

/// `conv_transpose3d` on autodiff tensors.
pub(crate) fn conv_transpose3d<B: Backend, C: CheckpointStrategy>(
    x: At<B>,
    weight: At<B>,
    bias: Option<At<B>>,
    options: ConvTransposeOptions<3>,
) -> At<B> {
    let prep = Prepared::new(
        ConvTranspose3d,
        [x.node().node, weight.node().node],
        C::MODE,
    );
    let bias_tracked = bias.as_ref().is_some_and(At::is_tracked);
    if !prep.is_tracked() && !bias_tracked {
        let bias = bias.map(At::into_primitive);
        let out = B::conv_transpose3d(x.into_primitive(), weight.into_primitive(), bias, options);
        return At::constant(out, C::MODE);
    }
    let prep = prep.compute_bound();
    let state = (
        prep.is_parent_tracked(1).then(|| prep.checkpoint(&x)),
        prep.is_parent_tracked(0).then(|| prep.checkpoint(&weight)),
        x.shape(),
        weight.shape(),
        options,
    );
    let out = B::conv_transpose3d(x.into_primitive(), weight.into_primitive(), None, options);
    add_bias::<B, C>(prep.finish(state, out), bias)
}

/// `out + bias` broadcast over `[batch, channels, ..spatial]`, recorded by
/// the autodiff add (d bias = g summed over every dim but the channels).
fn add_bias<B: Backend, C: CheckpointStrategy>(out: At<B>, bias: Option<At<B>>) -> At<B> {
    let Some(bias) = bias else { return out };
    let mut dims = alloc::vec![1; out.shape().num_dims()];
    dims[1] = bias.shape().dims[0];
    let bias = Autodiff::<B, C>::float_reshape(bias, Shape::from(dims));
    Autodiff::<B, C>::float_add(out, bias)
}
