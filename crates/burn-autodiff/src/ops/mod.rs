//! The ops traits of `Autodiff<B, C>`, and the building blocks shared by
//! the derivatives: element-wise unary/binary steps and gradient
//! reduction over broadcast dimensions.

mod bool;
mod conv;
mod float;
mod int;
mod module;
mod pool;
mod qtensor;

use alloc::vec::Vec;

use burn_backend::{Backend, FloatTensor, TensorMetadata};
use burn_std::{Scalar, Shape};

use crate::backward::{Backward, ParentGrads, Prepared};
use crate::checkpoint::{Checkpointed, Checkpointing};
use crate::tensor::AutodiffTensor;

pub(crate) type Ft<B> = FloatTensor<B>;
pub(crate) type At<B> = AutodiffTensor<B>;
/// A derivative of a binary op: `(lhs, rhs, grad) -> gradient of one side`.
pub(crate) type BinaryDerivative<B> = fn(&Ft<B>, &Ft<B>, Ft<B>) -> Ft<B>;

/// `x * value` as a scalar argument.
pub(crate) fn f(value: f64) -> Scalar {
    Scalar::Float(value)
}

/// Zeros with the shape, dtype and device of `like`.
pub(crate) fn zeros_like<B: Backend>(like: &Ft<B>) -> Ft<B> {
    B::float_zeros(like.shape(), &B::float_device(like), like.dtype())
}

/// Zeros of `shape` with the dtype and device of `like`.
pub(crate) fn zeros<B: Backend>(shape: Shape, like: &Ft<B>) -> Ft<B> {
    B::float_zeros(shape, &B::float_device(like), like.dtype())
}

/// The gradient of a broadcast operand: `grad` summed over the dimensions
/// `shape` broadcast along (missing leading dims, and dims of size 1 that
/// the output stretched), so it has `shape` again.
pub(crate) fn unbroadcast<B: Backend>(grad: Ft<B>, shape: &Shape) -> Ft<B> {
    let grad_shape = grad.shape();
    if grad_shape == *shape {
        return grad;
    }
    let extra = grad_shape.num_dims() - shape.num_dims();
    let mut grad = grad;
    for dim in 0..grad_shape.num_dims() {
        let target = if dim < extra { 1 } else { shape[dim - extra] };
        if target == 1 && grad_shape[dim] != 1 {
            grad = B::float_sum_dim(grad, dim);
        }
    }
    B::float_reshape(grad, shape.clone())
}

/// An element-wise op whose derivative is computed from its input:
/// `dx = derivative(x, grad)`.
pub(crate) struct Unary<B: Backend> {
    name: &'static str,
    derivative: fn(Ft<B>, Ft<B>) -> Ft<B>,
}

impl<B: Backend> Backward<B, 1> for Unary<B> {
    type State = Checkpointed<B>;

    fn backward(self, grad: Ft<B>, x: Checkpointed<B>, grads: &mut ParentGrads<'_, B, 1>) {
        grads.register(0, (self.derivative)(x.value(), grad));
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs the element-wise `forward` on `x` and records `Unary` (memory-bound).
pub(crate) fn unary<B: Backend>(
    mode: Checkpointing,
    name: &'static str,
    x: At<B>,
    forward: fn(Ft<B>) -> Ft<B>,
    derivative: fn(Ft<B>, Ft<B>) -> Ft<B>,
) -> At<B> {
    let prep = Prepared::new(Unary { name, derivative }, [x.node().node], mode);
    if !prep.is_tracked() {
        return At::constant(forward(x.into_primitive()), mode);
    }
    let prep = prep.memory_bound([&x], move |mut inputs: Vec<Ft<B>>| {
        forward(inputs.remove(0))
    });
    let state = prep.checkpoint(&x);
    prep.finish(state, forward(x.into_primitive()))
}

/// An element-wise op with a scalar argument: `dx = derivative(x, grad, scalar)`.
pub(crate) struct UnaryScalar<B: Backend> {
    name: &'static str,
    scalar: Scalar,
    derivative: fn(Ft<B>, Ft<B>, Scalar) -> Ft<B>,
}

impl<B: Backend> Backward<B, 1> for UnaryScalar<B> {
    type State = Option<Checkpointed<B>>;

    fn backward(self, grad: Ft<B>, x: Self::State, grads: &mut ParentGrads<'_, B, 1>) {
        // Derivatives that ignore `x` get the gradient in its place.
        let x = x.map_or_else(|| grad.clone(), Checkpointed::value);
        grads.register(0, (self.derivative)(x, grad, self.scalar));
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs `forward(x, scalar)` and records `UnaryScalar`; `needs_x` says
/// whether the derivative reads `x` (else nothing is kept).
pub(crate) fn unary_scalar<B: Backend>(
    mode: Checkpointing,
    name: &'static str,
    x: At<B>,
    scalar: Scalar,
    needs_x: bool,
    forward: fn(Ft<B>, Scalar) -> Ft<B>,
    derivative: fn(Ft<B>, Ft<B>, Scalar) -> Ft<B>,
) -> At<B> {
    let backward = UnaryScalar {
        name,
        scalar,
        derivative,
    };
    let prep = Prepared::new(backward, [x.node().node], mode);
    if !prep.is_tracked() {
        return At::constant(forward(x.into_primitive(), scalar), mode);
    }
    let prep = prep.memory_bound([&x], move |mut inputs: Vec<Ft<B>>| {
        forward(inputs.remove(0), scalar)
    });
    let state = needs_x.then(|| prep.checkpoint(&x));
    prep.finish(state, forward(x.into_primitive(), scalar))
}

/// An element-wise binary op with broadcasting: `dl = left(l, r, grad)`,
/// `dr = right(l, r, grad)`, each then reduced to its operand's shape.
pub(crate) struct Binary<B: Backend> {
    name: &'static str,
    left: BinaryDerivative<B>,
    right: BinaryDerivative<B>,
}

/// What a binary step keeps: both values (when some derivative reads them) and both shapes.
pub(crate) struct BinaryState<B: Backend> {
    values: Option<(Checkpointed<B>, Checkpointed<B>)>,
    shapes: (Shape, Shape),
}

impl<B: Backend> Backward<B, 2> for Binary<B> {
    type State = BinaryState<B>;

    fn backward(self, grad: Ft<B>, state: Self::State, grads: &mut ParentGrads<'_, B, 2>) {
        let (l, r) = match state.values {
            Some((l, r)) => (l.value(), r.value()),
            None => (grad.clone(), grad.clone()),
        };
        if grads.is_tracked(0) {
            let dl = (self.left)(&l, &r, grad.clone());
            grads.register(0, unbroadcast::<B>(dl, &state.shapes.0));
        }
        if grads.is_tracked(1) {
            let dr = (self.right)(&l, &r, grad);
            grads.register(1, unbroadcast::<B>(dr, &state.shapes.1));
        }
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

/// Runs `forward(l, r)` and records `Binary` (memory-bound); `needs_values`
/// says whether the derivatives read the operands.
#[allow(clippy::too_many_arguments)]
pub(crate) fn binary<B: Backend>(
    mode: Checkpointing,
    name: &'static str,
    lhs: At<B>,
    rhs: At<B>,
    needs_values: bool,
    forward: fn(Ft<B>, Ft<B>) -> Ft<B>,
    left: BinaryDerivative<B>,
    right: BinaryDerivative<B>,
) -> At<B> {
    let backward = Binary { name, left, right };
    let prep = Prepared::new(backward, [lhs.node().node, rhs.node().node], mode);
    if !prep.is_tracked() {
        return At::constant(forward(lhs.into_primitive(), rhs.into_primitive()), mode);
    }
    let prep = prep.memory_bound([&lhs, &rhs], move |mut inputs: Vec<Ft<B>>| {
        let r = inputs.pop().expect("two inputs");
        let l = inputs.pop().expect("two inputs");
        forward(l, r)
    });
    let state = BinaryState {
        values: needs_values.then(|| (prep.checkpoint(&lhs), prep.checkpoint(&rhs))),
        shapes: (lhs.shape(), rhs.shape()),
    };
    prep.finish(state, forward(lhs.into_primitive(), rhs.into_primitive()))
}
