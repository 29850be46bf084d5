//! The recorded steps of pooling and interpolation (called from the
//! `ModuleOps` impl in `module.rs`).
//!
//! Forward ops keep their input (a [`Checkpointed`] value: the backend's
//! backward kernels read its shape) and call the backend's backward kernel.
//! The backward kernels are linear in the output gradient, so they are
//! differentiable too (double backward): their derivative with respect to
//! that gradient is the forward op again (or, for max pooling, a gather at
//! the recorded indices); with respect to `x` it is zero almost everywhere.

use burn_backend::{Backend, IntTensor, InterpolateOptions, TensorMetadata, dims4};
use burn_std::Shape;

use super::{At, Ft};
use crate::backward::{Backward, ParentGrads, Prepared};
use crate::checkpoint::{Checkpointed, Checkpointing};

/// A one-input op whose derivative reads its input `x` and plain state `S`:
/// `dx = derivative(x, g, &s)`.
struct WithInput<B: Backend, S> {
    name: &'static str,
    derivative: fn(Ft<B>, Ft<B>, &S) -> Ft<B>,
}

impl<B: Backend, S: Send + 'static> Backward<B, 1> for WithInput<B, S> {
    type State = (Checkpointed<B>, S);

    fn backward(self, grad: Ft<B>, (x, s): Self::State, grads: &mut ParentGrads<'_, B, 1>) {
        grads.register(0, (self.derivative)(x.value(), grad, &s));
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs `forward(x, &s)` and records `dx = derivative(x, g, &s)`.
pub(crate) fn with_input<B: Backend, S: Send + 'static>(
    mode: Checkpointing,
    name: &'static str,
    x: At<B>,
    state: S,
    forward: impl FnOnce(Ft<B>, &S) -> Ft<B>,
    derivative: fn(Ft<B>, Ft<B>, &S) -> Ft<B>,
) -> At<B> {
    let prep = Prepared::new(WithInput { name, derivative }, [x.node().node], mode);
    if !prep.is_tracked() {
        return At::constant(forward(x.into_primitive(), &state), mode);
    }
    let prep = prep.compute_bound();
    let kept = prep.checkpoint(&x);
    let output = forward(x.into_primitive(), &state);
    prep.finish((kept, state), output)
}

/// A backward kernel `(x, g) -> dx`, linear in `g`: its own derivative with
/// respect to `g` is `adjoint(gg, &s)`; with respect to `x` it is zero.
struct LinearInGrad<B: Backend, S> {
    name: &'static str,
    adjoint: fn(Ft<B>, &S) -> Ft<B>,
}

impl<B: Backend, S: Send + 'static> Backward<B, 2> for LinearInGrad<B, S> {
    type State = S;

    fn backward(self, grad: Ft<B>, s: S, grads: &mut ParentGrads<'_, B, 2>) {
        // d/dx = 0 (the kernel reads only the shape of x).
        if grads.is_tracked(1) {
            grads.register(1, (self.adjoint)(grad, &s));
        }
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs the backward kernel `forward(x, g, &s)` and records its derivative.
pub(crate) fn linear_in_grad<B: Backend, S: Send + 'static>(
    mode: Checkpointing,
    name: &'static str,
    x: At<B>,
    grad: At<B>,
    state: S,
    forward: impl FnOnce(Ft<B>, Ft<B>, &S) -> Ft<B>,
    adjoint: fn(Ft<B>, &S) -> Ft<B>,
) -> At<B> {
    let prep = Prepared::new(
        LinearInGrad { name, adjoint },
        [x.node().node, grad.node().node],
        mode,
    );
    let output = forward(x.into_primitive(), grad.into_primitive(), &state);
    if !prep.is_tracked() {
        return At::constant(output, mode);
    }
    prep.compute_bound().finish(state, output)
}

/// The parameters of a max pooling.
#[derive(Clone, Debug)]
pub(crate) struct MaxPool<B: Backend> {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
    pub indices: IntTensor<B>,
}

/// `gg` gathered at the argmax `indices` of each plane of an input of
/// `x_shape`: the derivative of max pooling's backward with respect to its
/// gradient (`[n, c, h, w] -> [n, c, oh, ow]`).
pub(crate) fn gather_at_indices<B: Backend>(gg: Ft<B>, indices: IntTensor<B>) -> Ft<B> {
    let [n, c, h, w] = dims4("max_pool2d_with_indices_backward", &gg.shape());
    let out_shape = indices.shape();
    let [_, _, oh, ow] = dims4("max_pool2d_with_indices_backward", &out_shape);
    let flat = B::float_reshape(gg, Shape::new([n, c, h * w]));
    let idx = B::int_reshape(indices, Shape::new([n, c, oh * ow]));
    B::float_reshape(B::float_gather(2, flat, idx), out_shape)
}

/// The parameters of an average pooling.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AvgPool {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub count_include_pad: bool,
    pub ceil_mode: bool,
}

/// The parameters of an interpolation.
pub(crate) type Resize = ([usize; 2], InterpolateOptions);

/// The spatial size `[h, w]` of a 4-d tensor.
pub(crate) fn spatial<B: Backend>(t: &Ft<B>) -> [usize; 2] {
    let [_, _, h, w] = dims4("adaptive_avg_pool2d_backward", &t.shape());
    [h, w]
}
