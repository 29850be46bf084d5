//! Float ops of `Autodiff<B, C>`: each runs on `B` and, when an input is
//! tracked, records its backward step. Every derivative carries a one-line
//! comment with its math (`g` is the output gradient); gradients of
//! broadcast operands are summed back to their shapes with `unbroadcast`.
//! Non-differentiable outputs (comparisons, argmax, ints) are plain values;
//! piecewise-constant ops (round, floor, sign, …) pass a zero gradient, as
//! PyTorch does.

use alloc::vec::Vec;
use core::ops::Range;

use burn_backend::{
    Backend, BoolTensor, Device, ExecutionError, FloatTensorOps, IntTensor, TensorMetadata,
};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{At, Ft, binary, f, unary, unary_scalar, unbroadcast, zeros, zeros_like};
use crate::backward::{Backward, ParentGrads, Prepared, record_dyn};
use crate::checkpoint::{CheckpointStrategy, Checkpointed, Checkpointing};
use crate::{Autodiff, AutodiffTensor};

/// A one-input op whose derivative needs only plain data `S` (shapes, axes,
/// indices): `dx = derivative(g, &state)`. Memory-bound: recomputed from its
/// input with `forward` under balanced checkpointing.
struct Local<B: Backend, S> {
    name: &'static str,
    derivative: fn(Ft<B>, &S) -> Ft<B>,
}

impl<B: Backend, S: Send + 'static> Backward<B, 1> for Local<B, S> {
    type State = S;

    fn backward(self, grad: Ft<B>, state: S, grads: &mut ParentGrads<'_, B, 1>) {
        grads.register(0, (self.derivative)(grad, &state));
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

fn local<B: Backend, S: Clone + Send + Sync + 'static>(
    mode: Checkpointing,
    name: &'static str,
    x: At<B>,
    state: S,
    forward: fn(Ft<B>, &S) -> Ft<B>,
    derivative: fn(Ft<B>, &S) -> Ft<B>,
) -> At<B> {
    let prep = Prepared::new(Local { name, derivative }, [x.node().node], mode);
    if !prep.is_tracked() {
        return At::constant(forward(x.into_primitive(), &state), mode);
    }
    let retro_state = state.clone();
    let prep = prep.memory_bound([&x], move |mut inputs: Vec<Ft<B>>| {
        forward(inputs.remove(0), &retro_state)
    });
    let output = forward(x.into_primitive(), &state);
    prep.finish(state, output)
}

/// A two-input op whose derivatives need plain data `S` only:
/// `(dl, dr) = (left(g, &s), right(g, &s))`.
struct Local2<B: Backend, S> {
    name: &'static str,
    left: fn(Ft<B>, &S) -> Ft<B>,
    right: fn(Ft<B>, &S) -> Ft<B>,
}

impl<B: Backend, S: Send + 'static> Backward<B, 2> for Local2<B, S> {
    type State = S;

    fn backward(self, grad: Ft<B>, state: S, grads: &mut ParentGrads<'_, B, 2>) {
        if grads.is_tracked(0) {
            grads.register(0, (self.left)(grad.clone(), &state));
        }
        if grads.is_tracked(1) {
            grads.register(1, (self.right)(grad, &state));
        }
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

#[allow(clippy::too_many_arguments)]
fn local2<B: Backend, S: Clone + Send + Sync + 'static>(
    mode: Checkpointing,
    name: &'static str,
    lhs: At<B>,
    rhs: At<B>,
    state: S,
    forward: fn(Ft<B>, Ft<B>, &S) -> Ft<B>,
    left: fn(Ft<B>, &S) -> Ft<B>,
    right: fn(Ft<B>, &S) -> Ft<B>,
) -> At<B> {
    let prep = Prepared::new(
        Local2 { name, left, right },
        [lhs.node().node, rhs.node().node],
        mode,
    );
    if !prep.is_tracked() {
        let output = forward(lhs.into_primitive(), rhs.into_primitive(), &state);
        return At::constant(output, mode);
    }
    let retro_state = state.clone();
    let prep = prep.memory_bound([&lhs, &rhs], move |mut inputs: Vec<Ft<B>>| {
        let r = inputs.pop().expect("two inputs");
        let l = inputs.pop().expect("two inputs");
        forward(l, r, &retro_state)
    });
    let output = forward(lhs.into_primitive(), rhs.into_primitive(), &state);
    prep.finish(state, output)
}

/// The gradient of an op whose output picked elements of its input by
/// `indices` along `dim` (gather, sort, cummax): scattered back, summed
/// where an element was picked several times.
fn scatter_back<B: Backend>(grad: Ft<B>, dim: usize, indices: IntTensor<B>, shape: Shape) -> Ft<B> {
    let zeros = zeros::<B>(shape, &grad);
    B::float_scatter_add(dim, zeros, indices, grad)
}

/// The output `values` of an op on `x` that picked `x`'s elements at
/// `indices` along `dim`, tracked with the scatter-back derivative.
fn picked<B: Backend>(
    mode: Checkpointing,
    name: &'static str,
    x: &At<B>,
    values: Ft<B>,
    dim: usize,
    indices: IntTensor<B>,
) -> At<B> {
    let state = (dim, indices, x.shape());
    let prep = Prepared::new(
        Local::<B, (usize, IntTensor<B>, Shape)> {
            name,
            // d/dx_i of x[idx[k]] = [idx[k] = i]: scatter g back to where it came from.
            derivative: |g, (dim, indices, shape)| {
                scatter_back::<B>(g, *dim, indices.clone(), shape.clone())
            },
        },
        [x.node().node],
        mode,
    );
    if !prep.is_tracked() {
        return At::constant(values, mode);
    }
    prep.compute_bound().finish(state, values)
}

fn permute_inverse(axes: &[usize]) -> Vec<usize> {
    let mut inverse = alloc::vec![0; axes.len()];
    for (i, &axis) in axes.iter().enumerate() {
        inverse[axis] = i;
    }
    inverse
}

/// Exclusive running product along `dim` (1 at the start): `prod_{j<i} x_j`.
fn exclusive_cumprod<B: Backend>(x: Ft<B>, dim: usize) -> Ft<B> {
    let shape = x.shape();
    let n = shape[dim];
    let mut one_shape = shape.clone();
    one_shape.dims[dim] = 1;
    let ones = B::float_ones(one_shape, &B::float_device(&x), x.dtype());
    if n <= 1 {
        return B::float_ones(shape, &B::float_device(&x), x.dtype());
    }
    let running = B::float_narrow(B::float_cumprod(x, dim), dim, 0, n - 1);
    B::float_cat(alloc::vec![ones, running], dim)
}

/// The product of every element along `dim` but the `i`-th, for each `i`
/// (zero-safe: no division).
fn prod_of_others<B: Backend>(x: Ft<B>, dim: usize) -> Ft<B> {
    let left = exclusive_cumprod::<B>(x.clone(), dim);
    let flipped = B::float_flip(x, &[dim]);
    let right = B::float_flip(exclusive_cumprod::<B>(flipped, dim), &[dim]);
    B::float_mul(left, right)
}

impl<B: Backend, C: CheckpointStrategy> FloatTensorOps<Self> for Autodiff<B, C> {
    // ------------------------------------------------------------- creation

    fn float_from_data(data: TensorData, device: &Device<Self>) -> AutodiffTensor<B> {
        At::constant(B::float_from_data(data, device), C::MODE)
    }

    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<Self>,
        dtype: DType,
    ) -> AutodiffTensor<B> {
        At::constant(B::float_random(shape, distribution, device, dtype), C::MODE)
    }

    fn float_full(
        shape: Shape,
        value: Scalar,
        device: &Device<Self>,
        dtype: DType,
    ) -> AutodiffTensor<B> {
        At::constant(B::float_full(shape, value, device, dtype), C::MODE)
    }

    fn float_zeros(shape: Shape, device: &Device<Self>, dtype: DType) -> AutodiffTensor<B> {
        At::constant(B::float_zeros(shape, device, dtype), C::MODE)
    }

    fn float_ones(shape: Shape, device: &Device<Self>, dtype: DType) -> AutodiffTensor<B> {
        At::constant(B::float_ones(shape, device, dtype), C::MODE)
    }

    fn float_empty(shape: Shape, device: &Device<Self>, dtype: DType) -> AutodiffTensor<B> {
        At::constant(B::float_empty(shape, device, dtype), C::MODE)
    }

    fn float_arange(range: Range<i64>, device: &Device<Self>, dtype: DType) -> AutodiffTensor<B> {
        At::constant(B::float_arange(range, device, dtype), C::MODE)
    }

    fn float_into_data(tensor: AutodiffTensor<B>) -> Result<TensorData, ExecutionError> {
        B::float_into_data(tensor.into_primitive())
    }

    fn float_device(tensor: &AutodiffTensor<B>) -> Device<Self> {
        B::float_device(tensor.primitive())
    }

    fn float_to_device(tensor: AutodiffTensor<B>, device: &Device<Self>) -> AutodiffTensor<B> {
        let source = B::float_device(tensor.primitive());
        let prep = Prepared::new(
            Local::<B, Device<B>> {
                name: "to_device",
                // The transfer is the identity on values: dx = g, moved back.
                derivative: |g, source| B::float_to_device(g, source),
            },
            [tensor.node().node],
            C::MODE,
        );
        let output = B::float_to_device(tensor.into_primitive(), device);
        if !prep.is_tracked() {
            return At::constant(output, C::MODE);
        }
        prep.compute_bound().finish(source, output)
    }

    fn float_into_int(tensor: AutodiffTensor<B>, dtype: DType) -> IntTensor<Self> {
        B::float_into_int(tensor.into_primitive(), dtype)
    }

    fn float_cast(tensor: AutodiffTensor<B>, dtype: DType) -> AutodiffTensor<B> {
        let source = tensor.dtype();
        local(
            C::MODE,
            "cast",
            tensor,
            (dtype, source),
            |x, (dtype, _)| B::float_cast(x, *dtype),
            // Identity on values: dx = g, cast back to the input's dtype.
            |g, (_, source)| B::float_cast(g, *source),
        )
    }

    // ---------------------------------------------------------------- shape

    fn float_reshape(tensor: AutodiffTensor<B>, shape: Shape) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "reshape",
            tensor,
            (shape, source),
            |x, (shape, _)| B::float_reshape(x, shape.clone()),
            // dx = g reshaped back.
            |g, (_, source)| B::float_reshape(g, source.clone()),
        )
    }

    fn float_permute(tensor: AutodiffTensor<B>, axes: &[usize]) -> AutodiffTensor<B> {
        local(
            C::MODE,
            "permute",
            tensor,
            axes.to_vec(),
            |x, axes| B::float_permute(x, axes),
            // dx = g permuted by the inverse permutation.
            |g, axes| B::float_permute(g, &permute_inverse(axes)),
        )
    }

    fn float_flip(tensor: AutodiffTensor<B>, axes: &[usize]) -> AutodiffTensor<B> {
        local(
            C::MODE,
            "flip",
            tensor,
            axes.to_vec(),
            |x, axes| B::float_flip(x, axes),
            // dx = g flipped along the same axes.
            |g, axes| B::float_flip(g, axes),
        )
    }

    fn float_expand(tensor: AutodiffTensor<B>, shape: Shape) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "expand",
            tensor,
            (shape, source),
            |x, (shape, _)| B::float_expand(x, shape.clone()),
            // dx = g summed over the broadcast dims.
            |g, (_, source)| unbroadcast::<B>(g, source),
        )
    }

    fn float_slice(tensor: AutodiffTensor<B>, slices: &[Slice]) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "slice",
            tensor,
            (slices.to_vec(), source),
            |x, (slices, _)| B::float_slice(x, slices),
            // dx = g placed at the sliced positions, zero elsewhere.
            |g, (slices, source)| {
                let zeros = zeros::<B>(source.clone(), &g);
                B::float_slice_assign(zeros, slices, g)
            },
        )
    }

    fn float_slice_assign(
        tensor: AutodiffTensor<B>,
        slices: &[Slice],
        value: AutodiffTensor<B>,
    ) -> AutodiffTensor<B> {
        let value_shape = value.shape();
        local2(
            C::MODE,
            "slice_assign",
            tensor,
            value,
            (slices.to_vec(), value_shape),
            |x, v, (slices, _)| B::float_slice_assign(x, slices, v),
            // d/dx = g with the assigned region zeroed.
            |g, (slices, value_shape)| {
                let zeros = zeros::<B>(value_shape.clone(), &g);
                B::float_slice_assign(g, slices, zeros)
            },
            // d/dvalue = g over the assigned region.
            |g, (slices, _)| B::float_slice(g, slices),
        )
    }

    fn float_cat(tensors: Vec<AutodiffTensor<B>>, dim: usize) -> AutodiffTensor<B> {
        let sizes: Vec<usize> = tensors.iter().map(|t| t.shape()[dim]).collect();
        let mut parents = Vec::with_capacity(tensors.len());
        let mut values = Vec::with_capacity(tensors.len());
        for tensor in tensors {
            let (value, guard) = tensor.into_parts();
            parents.push(guard.node);
            values.push(value);
        }
        let output = B::float_cat(values, dim);
        // d/dx_k = the slice of g along `dim` that x_k filled.
        record_dyn("cat", C::MODE, parents, output, move |g, grads| {
            let mut start = 0;
            for (index, size) in sizes.iter().enumerate() {
                if grads.is_tracked(index) {
                    grads.register(index, B::float_narrow(g.clone(), dim, start, *size));
                }
                start += size;
            }
        })
    }

    fn float_repeat_dim(tensor: AutodiffTensor<B>, dim: usize, times: usize) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "repeat_dim",
            tensor,
            (dim, times, source),
            |x, (dim, times, _)| B::float_repeat_dim(x, *dim, *times),
            // dx = the sum of g's `times` copies along `dim`.
            |g, (dim, times, source)| {
                let mut split = source.dims.clone();
                split.insert(*dim, *times);
                let g = B::float_reshape(g, Shape::from(split));
                B::float_reshape(B::float_sum_dim(g, *dim), source.clone())
            },
        )
    }

    // ------------------------------------------------------------- indexing

    fn float_gather(
        dim: usize,
        tensor: AutodiffTensor<B>,
        indices: IntTensor<Self>,
    ) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "gather",
            tensor,
            (dim, indices, source),
            |x, (dim, indices, _)| B::float_gather(*dim, x, indices.clone()),
            // dx = g scattered back to the gathered positions (summed on repeats).
            |g, (dim, indices, source)| scatter_back::<B>(g, *dim, indices.clone(), source.clone()),
        )
    }

    fn float_scatter_add(
        dim: usize,
        tensor: AutodiffTensor<B>,
        indices: IntTensor<Self>,
        value: AutodiffTensor<B>,
    ) -> AutodiffTensor<B> {
        local2(
            C::MODE,
            "scatter_add",
            tensor,
            value,
            (dim, indices),
            |x, v, (dim, indices)| B::float_scatter_add(*dim, x, indices.clone(), v),
            // d/dx = g.
            |g, _| g,
            // d/dvalue = g read at the positions each value was added to.
            |g, (dim, indices)| B::float_gather(*dim, g, indices.clone()),
        )
    }

    fn float_select(
        tensor: AutodiffTensor<B>,
        dim: usize,
        indices: IntTensor<Self>,
    ) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "select",
            tensor,
            (dim, indices, source),
            |x, (dim, indices, _)| B::float_select(x, *dim, indices.clone()),
            // dx = g added back into the selected slices (summed on repeats).
            |g, (dim, indices, source)| {
                let zeros = zeros::<B>(source.clone(), &g);
                B::float_select_add(zeros, *dim, indices.clone(), g)
            },
        )
    }

    fn float_select_add(
        tensor: AutodiffTensor<B>,
        dim: usize,
        indices: IntTensor<Self>,
        value: AutodiffTensor<B>,
    ) -> AutodiffTensor<B> {
        local2(
            C::MODE,
            "select_add",
            tensor,
            value,
            (dim, indices),
            |x, v, (dim, indices)| B::float_select_add(x, *dim, indices.clone(), v),
            // d/dx = g.
            |g, _| g,
            // d/dvalue = the slices of g that each value slice was added to.
            |g, (dim, indices)| B::float_select(g, *dim, indices.clone()),
        )
    }

    fn float_mask_where(
        tensor: AutodiffTensor<B>,
        mask: BoolTensor<Self>,
        value: AutodiffTensor<B>,
    ) -> AutodiffTensor<B> {
        let shapes = (tensor.shape(), value.shape());
        local2(
            C::MODE,
            "mask_where",
            tensor,
            value,
            (mask, shapes),
            |x, v, (mask, _)| B::float_mask_where(x, mask.clone(), v),
            // d/dx = g where the mask is false, reduced over broadcast dims.
            |g, (mask, (x_shape, _))| {
                unbroadcast::<B>(B::float_mask_fill(g, mask.clone(), f(0.0)), x_shape)
            },
            // d/dvalue = g where the mask is true, reduced over broadcast dims.
            |g, (mask, (_, v_shape))| {
                let kept = B::float_mask_fill(g, B::bool_not(mask.clone()), f(0.0));
                unbroadcast::<B>(kept, v_shape)
            },
        )
    }

    fn float_mask_fill(
        tensor: AutodiffTensor<B>,
        mask: BoolTensor<Self>,
        value: Scalar,
    ) -> AutodiffTensor<B> {
        local(
            C::MODE,
            "mask_fill",
            tensor,
            (mask, value),
            |x, (mask, value)| B::float_mask_fill(x, mask.clone(), *value),
            // dx = g where the mask is false (filled positions are constants).
            |g, (mask, _)| B::float_mask_fill(g, mask.clone(), f(0.0)),
        )
    }

    // ----------------------------------------------------------- arithmetic

    fn float_add(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g, d/dr = g.
        binary(
            C::MODE,
            "add",
            lhs,
            rhs,
            false,
            B::float_add,
            |_, _, g| g,
            |_, _, g| g,
        )
    }

    fn float_add_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g.
        unary_scalar(
            C::MODE,
            "add_scalar",
            lhs,
            rhs,
            false,
            B::float_add_scalar,
            |_, g, _| g,
        )
    }

    fn float_sub(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g, d/dr = -g.
        binary(
            C::MODE,
            "sub",
            lhs,
            rhs,
            false,
            B::float_sub,
            |_, _, g| g,
            |_, _, g| B::float_neg(g),
        )
    }

    fn float_sub_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g.
        unary_scalar(
            C::MODE,
            "sub_scalar",
            lhs,
            rhs,
            false,
            B::float_sub_scalar,
            |_, g, _| g,
        )
    }

    fn float_mul(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g * r, d/dr = g * l.
        binary(
            C::MODE,
            "mul",
            lhs,
            rhs,
            true,
            B::float_mul,
            |_, r, g| B::float_mul(g, r.clone()),
            |l, _, g| B::float_mul(g, l.clone()),
        )
    }

    fn float_mul_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g * s.
        unary_scalar(
            C::MODE,
            "mul_scalar",
            lhs,
            rhs,
            false,
            B::float_mul_scalar,
            |_, g, s| B::float_mul_scalar(g, s),
        )
    }

    fn float_div(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g / r, d/dr = -g * l / r².
        binary(
            C::MODE,
            "div",
            lhs,
            rhs,
            true,
            B::float_div,
            |_, r, g| B::float_div(g, r.clone()),
            |l, r, g| {
                let r2 = B::float_mul(r.clone(), r.clone());
                B::float_neg(B::float_div(B::float_mul(g, l.clone()), r2))
            },
        )
    }

    fn float_div_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g / s.
        unary_scalar(
            C::MODE,
            "div_scalar",
            lhs,
            rhs,
            false,
            B::float_div_scalar,
            |_, g, s| B::float_div_scalar(g, s),
        )
    }

    fn float_remainder(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // l mod r = l - r * floor(l / r): d/dl = g, d/dr = -g * floor(l / r).
        binary(
            C::MODE,
            "remainder",
            lhs,
            rhs,
            true,
            B::float_remainder,
            |_, _, g| g,
            |l, r, g| {
                let quotient = B::float_floor(B::float_div(l.clone(), r.clone()));
                B::float_neg(B::float_mul(g, quotient))
            },
        )
    }

    fn float_remainder_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g (the subtracted multiple of s is piecewise constant).
        unary_scalar(
            C::MODE,
            "remainder_scalar",
            lhs,
            rhs,
            false,
            B::float_remainder_scalar,
            |_, g, _| g,
        )
    }

    fn float_powf(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g * r * l^(r-1), d/dr = g * l^r * ln(l).
        binary(
            C::MODE,
            "powf",
            lhs,
            rhs,
            true,
            B::float_powf,
            |l, r, g| {
                let power = B::float_powf(l.clone(), B::float_sub_scalar(r.clone(), f(1.0)));
                B::float_mul(g, B::float_mul(r.clone(), power))
            },
            |l, r, g| {
                let power = B::float_powf(l.clone(), r.clone());
                B::float_mul(g, B::float_mul(power, B::float_log(l.clone())))
            },
        )
    }

    fn float_powf_scalar(lhs: AutodiffTensor<B>, rhs: Scalar) -> AutodiffTensor<B> {
        // dx = g * s * x^(s-1) (0 for s = 0, even at x = 0, as in PyTorch).
        unary_scalar(
            C::MODE,
            "powf_scalar",
            lhs,
            rhs,
            true,
            B::float_powf_scalar,
            |x, g, s| {
                if s.to_f64() == 0.0 {
                    return zeros_like::<B>(&x);
                }
                let power = B::float_powf_scalar(x, f(s.to_f64() - 1.0));
                B::float_mul(g, B::float_mul_scalar(power, s))
            },
        )
    }

    fn float_atan2(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // atan2(y, x): d/dy = g * x / (x² + y²), d/dx = -g * y / (x² + y²).
        fn norm2<B: Backend>(y: &Ft<B>, x: &Ft<B>) -> Ft<B> {
            B::float_add(
                B::float_mul(x.clone(), x.clone()),
                B::float_mul(y.clone(), y.clone()),
            )
        }
        binary(
            C::MODE,
            "atan2",
            lhs,
            rhs,
            true,
            B::float_atan2,
            |y, x, g| B::float_div(B::float_mul(g, x.clone()), norm2::<B>(y, x)),
            |y, x, g| B::float_neg(B::float_div(B::float_mul(g, y.clone()), norm2::<B>(y, x))),
        )
    }

    fn float_max_pair(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g where l > r, g/2 on ties; d/dr = g where r > l, g/2 on ties (as PyTorch).
        binary(
            C::MODE,
            "max_pair",
            lhs,
            rhs,
            true,
            B::float_max_pair,
            |l, r, g| pair_share::<B>(l, r, g),
            |l, r, g| pair_share::<B>(r, l, g),
        )
    }

    fn float_min_pair(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // d/dl = g where l < r, g/2 on ties; d/dr = g where r < l, g/2 on ties (as PyTorch).
        binary(
            C::MODE,
            "min_pair",
            lhs,
            rhs,
            true,
            B::float_min_pair,
            |l, r, g| pair_share::<B>(r, l, g),
            |l, r, g| pair_share::<B>(l, r, g),
        )
    }

    fn float_matmul(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> AutodiffTensor<B> {
        struct Matmul;
        impl<B: Backend> Backward<B, 2> for Matmul {
            type State = (
                Option<Checkpointed<B>>,
                Option<Checkpointed<B>>,
                Shape,
                Shape,
            );

            fn backward(self, g: Ft<B>, state: Self::State, grads: &mut ParentGrads<'_, B, 2>) {
                let (lhs, rhs, l_shape, r_shape) = state;
                let t = |x: Ft<B>| {
                    let rank = x.shape().num_dims();
                    B::float_swap_dims(x, rank - 2, rank - 1)
                };
                // d/dl = g · rᵀ, reduced over broadcast batch dims.
                if let Some(rhs) = rhs {
                    let dl = B::float_matmul(g.clone(), t(rhs.value()));
                    grads.register(0, unbroadcast::<B>(dl, &l_shape));
                }
                // d/dr = lᵀ · g, reduced over broadcast batch dims.
                if let Some(lhs) = lhs {
                    let dr = B::float_matmul(t(lhs.value()), g);
                    grads.register(1, unbroadcast::<B>(dr, &r_shape));
                }
            }
        }
        let prep = Matmul.prepare::<C>([lhs.node(), rhs.node()]);
        if !prep.is_tracked() {
            return At::constant(
                B::float_matmul(lhs.into_primitive(), rhs.into_primitive()),
                C::MODE,
            );
        }
        let prep = prep.compute_bound();
        // Each side keeps only the operand its own gradient needs.
        let state = (
            prep.is_parent_tracked(1).then(|| prep.checkpoint(&lhs)),
            prep.is_parent_tracked(0).then(|| prep.checkpoint(&rhs)),
            lhs.shape(),
            rhs.shape(),
        );
        prep.finish(
            state,
            B::float_matmul(lhs.into_primitive(), rhs.into_primitive()),
        )
    }

    fn float_clamp_min(tensor: AutodiffTensor<B>, min: Scalar) -> AutodiffTensor<B> {
        // dx = g where x > min, 0 where clamped or on the bound (PyTorch's choice, as relu at 0).
        unary_scalar(
            C::MODE,
            "clamp_min",
            tensor,
            min,
            true,
            B::float_clamp_min,
            |x, g, min| B::float_mask_fill(g, B::float_lower_equal_elem(x, min), f(0.0)),
        )
    }

    fn float_clamp_max(tensor: AutodiffTensor<B>, max: Scalar) -> AutodiffTensor<B> {
        // dx = g where x < max, 0 where clamped or on the bound (PyTorch's choice).
        unary_scalar(
            C::MODE,
            "clamp_max",
            tensor,
            max,
            true,
            B::float_clamp_max,
            |x, g, max| B::float_mask_fill(g, B::float_greater_equal_elem(x, max), f(0.0)),
        )
    }

    // -------------------------------------------------------------- unary

    fn float_neg(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = -g.
        unary_scalar(
            C::MODE,
            "neg",
            tensor,
            f(0.0),
            false,
            |x, _| B::float_neg(x),
            |_, g, _| B::float_neg(g),
        )
    }

    fn float_recip(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = -g / x².
        unary(C::MODE, "recip", tensor, B::float_recip, |x, g| {
            B::float_neg(B::float_div(g, B::float_mul(x.clone(), x)))
        })
    }

    fn float_abs(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * sign(x) (0 at 0).
        unary(C::MODE, "abs", tensor, B::float_abs, |x, g| {
            B::float_mul(g, B::float_sign(x))
        })
    }

    fn float_exp(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * exp(x).
        unary(C::MODE, "exp", tensor, B::float_exp, |x, g| {
            B::float_mul(g, B::float_exp(x))
        })
    }

    fn float_log(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / x.
        unary(C::MODE, "log", tensor, B::float_log, |x, g| {
            B::float_div(g, x)
        })
    }

    fn float_log1p(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / (1 + x).
        unary(C::MODE, "log1p", tensor, B::float_log1p, |x, g| {
            B::float_div(g, B::float_add_scalar(x, f(1.0)))
        })
    }

    fn float_sqrt(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / (2 sqrt(x)).
        unary(C::MODE, "sqrt", tensor, B::float_sqrt, |x, g| {
            B::float_div(g, B::float_mul_scalar(B::float_sqrt(x), f(2.0)))
        })
    }

    fn float_sin(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * cos(x).
        unary(C::MODE, "sin", tensor, B::float_sin, |x, g| {
            B::float_mul(g, B::float_cos(x))
        })
    }

    fn float_cos(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = -g * sin(x).
        unary(C::MODE, "cos", tensor, B::float_cos, |x, g| {
            B::float_neg(B::float_mul(g, B::float_sin(x)))
        })
    }

    fn float_tan(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * (1 + tan²(x)).
        unary(C::MODE, "tan", tensor, B::float_tan, |x, g| {
            let t = B::float_tan(x);
            B::float_mul(g, B::float_add_scalar(B::float_mul(t.clone(), t), f(1.0)))
        })
    }

    fn float_sinh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * cosh(x).
        unary(C::MODE, "sinh", tensor, B::float_sinh, |x, g| {
            B::float_mul(g, B::float_cosh(x))
        })
    }

    fn float_cosh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * sinh(x).
        unary(C::MODE, "cosh", tensor, B::float_cosh, |x, g| {
            B::float_mul(g, B::float_sinh(x))
        })
    }

    fn float_tanh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * (1 - tanh²(x)).
        unary(C::MODE, "tanh", tensor, B::float_tanh, |x, g| {
            let t = B::float_tanh(x);
            let one_minus = B::float_add_scalar(B::float_neg(B::float_mul(t.clone(), t)), f(1.0));
            B::float_mul(g, one_minus)
        })
    }

    fn float_asin(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / sqrt(1 - x²).
        unary(C::MODE, "asin", tensor, B::float_asin, |x, g| {
            let d = B::float_sqrt(B::float_add_scalar(
                B::float_neg(B::float_mul(x.clone(), x)),
                f(1.0),
            ));
            B::float_div(g, d)
        })
    }

    fn float_acos(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = -g / sqrt(1 - x²).
        unary(C::MODE, "acos", tensor, B::float_acos, |x, g| {
            let d = B::float_sqrt(B::float_add_scalar(
                B::float_neg(B::float_mul(x.clone(), x)),
                f(1.0),
            ));
            B::float_neg(B::float_div(g, d))
        })
    }

    fn float_atan(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / (1 + x²).
        unary(C::MODE, "atan", tensor, B::float_atan, |x, g| {
            B::float_div(g, B::float_add_scalar(B::float_mul(x.clone(), x), f(1.0)))
        })
    }

    fn float_asinh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / sqrt(x² + 1).
        unary(C::MODE, "asinh", tensor, B::float_asinh, |x, g| {
            B::float_div(
                g,
                B::float_sqrt(B::float_add_scalar(B::float_mul(x.clone(), x), f(1.0))),
            )
        })
    }

    fn float_acosh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / sqrt(x² - 1).
        unary(C::MODE, "acosh", tensor, B::float_acosh, |x, g| {
            B::float_div(
                g,
                B::float_sqrt(B::float_sub_scalar(B::float_mul(x.clone(), x), f(1.0))),
            )
        })
    }

    fn float_atanh(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / (1 - x²).
        unary(C::MODE, "atanh", tensor, B::float_atanh, |x, g| {
            B::float_div(
                g,
                B::float_add_scalar(B::float_neg(B::float_mul(x.clone(), x)), f(1.0)),
            )
        })
    }

    fn float_erf(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g * 2/sqrt(pi) * exp(-x²).
        unary(C::MODE, "erf", tensor, B::float_erf, |x, g| {
            let gauss = B::float_exp(B::float_neg(B::float_mul(x.clone(), x)));
            B::float_mul(
                g,
                B::float_mul_scalar(gauss, f(core::f64::consts::FRAC_2_SQRT_PI)),
            )
        })
    }

    fn float_round(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // Piecewise constant: dx = 0.
        unary(C::MODE, "round", tensor, B::float_round, |x, _| {
            zeros_like::<B>(&x)
        })
    }

    fn float_floor(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // Piecewise constant: dx = 0.
        unary(C::MODE, "floor", tensor, B::float_floor, |x, _| {
            zeros_like::<B>(&x)
        })
    }

    fn float_ceil(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // Piecewise constant: dx = 0.
        unary(C::MODE, "ceil", tensor, B::float_ceil, |x, _| {
            zeros_like::<B>(&x)
        })
    }

    fn float_trunc(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // Piecewise constant: dx = 0.
        unary(C::MODE, "trunc", tensor, B::float_trunc, |x, _| {
            zeros_like::<B>(&x)
        })
    }

    fn float_sign(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // Piecewise constant: dx = 0.
        unary(C::MODE, "sign", tensor, B::float_sign, |x, _| {
            zeros_like::<B>(&x)
        })
    }

    // --------------------------------------------------------- comparisons

    fn float_equal(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_equal(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_not_equal(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_not_equal(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_greater(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_greater(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_greater_equal(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_greater_equal(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_lower(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_lower(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_lower_equal(lhs: AutodiffTensor<B>, rhs: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_lower_equal(lhs.into_primitive(), rhs.into_primitive())
    }

    fn float_equal_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_equal_elem(lhs.into_primitive(), rhs)
    }

    fn float_not_equal_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_not_equal_elem(lhs.into_primitive(), rhs)
    }

    fn float_greater_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_greater_elem(lhs.into_primitive(), rhs)
    }

    fn float_greater_equal_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_greater_equal_elem(lhs.into_primitive(), rhs)
    }

    fn float_lower_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_lower_elem(lhs.into_primitive(), rhs)
    }

    fn float_lower_equal_elem(lhs: AutodiffTensor<B>, rhs: Scalar) -> BoolTensor<Self> {
        B::float_lower_equal_elem(lhs.into_primitive(), rhs)
    }

    fn float_is_nan(tensor: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_is_nan(tensor.into_primitive())
    }

    fn float_is_inf(tensor: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_is_inf(tensor.into_primitive())
    }

    fn float_any(tensor: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_any(tensor.into_primitive())
    }

    fn float_any_dim(tensor: AutodiffTensor<B>, dim: usize) -> BoolTensor<Self> {
        B::float_any_dim(tensor.into_primitive(), dim)
    }

    fn float_all(tensor: AutodiffTensor<B>) -> BoolTensor<Self> {
        B::float_all(tensor.into_primitive())
    }

    fn float_all_dim(tensor: AutodiffTensor<B>, dim: usize) -> BoolTensor<Self> {
        B::float_all_dim(tensor.into_primitive(), dim)
    }

    // ---------------------------------------------------------- reductions

    fn float_sum(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "sum",
            tensor,
            source,
            |x, _| B::float_sum(x),
            // dx = g broadcast to every element.
            |g, source| {
                let ones = Shape::from(alloc::vec![1; source.num_dims()]);
                B::float_expand(B::float_reshape(g, ones), source.clone())
            },
        )
    }

    fn float_sum_dim(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "sum_dim",
            tensor,
            (dim, source),
            |x, (dim, _)| B::float_sum_dim(x, *dim),
            // dx = g broadcast along `dim`.
            |g, (_, source)| B::float_expand(g, source.clone()),
        )
    }

    fn float_mean(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "mean",
            tensor,
            source,
            |x, _| B::float_mean(x),
            // dx = g / n broadcast to every element.
            |g, source| {
                let ones = Shape::from(alloc::vec![1; source.num_dims()]);
                let g = B::float_div_scalar(g, f(source.num_elements() as f64));
                B::float_expand(B::float_reshape(g, ones), source.clone())
            },
        )
    }

    fn float_mean_dim(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        let source = tensor.shape();
        local(
            C::MODE,
            "mean_dim",
            tensor,
            (dim, source),
            |x, (dim, _)| B::float_mean_dim(x, *dim),
            // dx = g / n broadcast along `dim`.
            |g, (dim, source)| {
                let g = B::float_div_scalar(g, f(source[*dim] as f64));
                B::float_expand(g, source.clone())
            },
        )
    }

    fn float_prod(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx_i = g * prod_{j != i} x_j (computed without dividing, so zeros are fine).
        unary(C::MODE, "prod", tensor, B::float_prod, |x, g| {
            let shape = x.shape();
            let flat = B::float_reshape(x, Shape::from(alloc::vec![shape.num_elements()]));
            let others = B::float_reshape(prod_of_others::<B>(flat, 0), shape);
            B::float_mul(others, g)
        })
    }

    fn float_prod_dim(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        struct ProdDim(usize);
        impl<B: Backend> Backward<B, 1> for ProdDim {
            type State = Checkpointed<B>;
            // dx_i = g * prod_{j != i along dim} x_j (zero-safe).
            fn backward(self, g: Ft<B>, x: Checkpointed<B>, grads: &mut ParentGrads<'_, B, 1>) {
                grads.register(0, B::float_mul(prod_of_others::<B>(x.value(), self.0), g));
            }
        }
        let prep = ProdDim(dim).prepare::<C>([tensor.node()]);
        if !prep.is_tracked() {
            return At::constant(B::float_prod_dim(tensor.into_primitive(), dim), C::MODE);
        }
        let prep = prep.memory_bound([&tensor], move |mut inputs: Vec<Ft<B>>| {
            B::float_prod_dim(inputs.remove(0), dim)
        });
        let state = prep.checkpoint(&tensor);
        prep.finish(state, B::float_prod_dim(tensor.into_primitive(), dim))
    }

    fn float_max(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / k at the k positions equal to the maximum, 0 elsewhere.
        unary(C::MODE, "max", tensor, B::float_max, |x, g| {
            extreme_grad::<B>(x, g, true)
        })
    }

    fn float_min(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        // dx = g / k at the k positions equal to the minimum, 0 elsewhere.
        unary(C::MODE, "min", tensor, B::float_min, |x, g| {
            extreme_grad::<B>(x, g, false)
        })
    }

    fn float_max_dim(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        // dx = g at the index of the maximum along `dim` (the first one), 0 elsewhere.
        if !tensor.is_tracked() {
            return At::constant(B::float_max_dim(tensor.into_primitive(), dim), C::MODE);
        }
        let (values, indices) = B::float_max_dim_with_indices(tensor.primitive().clone(), dim);
        picked(C::MODE, "max_dim", &tensor, values, dim, indices)
    }

    fn float_min_dim(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        // dx = g at the index of the minimum along `dim` (the first one), 0 elsewhere.
        if !tensor.is_tracked() {
            return At::constant(B::float_min_dim(tensor.into_primitive(), dim), C::MODE);
        }
        let (values, indices) = B::float_min_dim_with_indices(tensor.primitive().clone(), dim);
        picked(C::MODE, "min_dim", &tensor, values, dim, indices)
    }

    fn float_max_dim_with_indices(
        tensor: AutodiffTensor<B>,
        dim: usize,
    ) -> (AutodiffTensor<B>, IntTensor<Self>) {
        let (values, indices) = B::float_max_dim_with_indices(tensor.primitive().clone(), dim);
        (
            picked(
                C::MODE,
                "max_dim_with_indices",
                &tensor,
                values,
                dim,
                indices.clone(),
            ),
            indices,
        )
    }

    fn float_min_dim_with_indices(
        tensor: AutodiffTensor<B>,
        dim: usize,
    ) -> (AutodiffTensor<B>, IntTensor<Self>) {
        let (values, indices) = B::float_min_dim_with_indices(tensor.primitive().clone(), dim);
        (
            picked(
                C::MODE,
                "min_dim_with_indices",
                &tensor,
                values,
                dim,
                indices.clone(),
            ),
            indices,
        )
    }

    fn float_argmax(tensor: AutodiffTensor<B>, dim: usize) -> IntTensor<Self> {
        B::float_argmax(tensor.into_primitive(), dim)
    }

    fn float_argmin(tensor: AutodiffTensor<B>, dim: usize) -> IntTensor<Self> {
        B::float_argmin(tensor.into_primitive(), dim)
    }

    // ---------------------------------------------------------- cumulative

    fn float_cumsum(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        local(
            C::MODE,
            "cumsum",
            tensor,
            dim,
            |x, dim| B::float_cumsum(x, *dim),
            // dx_i = sum_{k >= i} g_k: a reversed running sum.
            |g, dim| B::float_flip(B::float_cumsum(B::float_flip(g, &[*dim]), *dim), &[*dim]),
        )
    }

    fn float_cumprod(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        struct Cumprod(usize);
        impl<B: Backend> Backward<B, 1> for Cumprod {
            type State = Checkpointed<B>;
            // dx_i = sum_{k >= i} g_k * prod_{j <= k, j != i} x_j, computed by
            // expanding the running product per position (zero-safe, O(n²) along dim).
            fn backward(self, g: Ft<B>, x: Checkpointed<B>, grads: &mut ParentGrads<'_, B, 1>) {
                grads.register(0, cumprod_grad::<B>(x.value(), g, self.0));
            }
        }
        let prep = Cumprod(dim).prepare::<C>([tensor.node()]);
        if !prep.is_tracked() {
            return At::constant(B::float_cumprod(tensor.into_primitive(), dim), C::MODE);
        }
        let prep = prep.memory_bound([&tensor], move |mut inputs: Vec<Ft<B>>| {
            B::float_cumprod(inputs.remove(0), dim)
        });
        let state = prep.checkpoint(&tensor);
        prep.finish(state, B::float_cumprod(tensor.into_primitive(), dim))
    }

    fn float_cummin(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        // dx_i = sum of g_k over the k whose running minimum came from i.
        if !tensor.is_tracked() {
            return At::constant(B::float_cummin(tensor.into_primitive(), dim), C::MODE);
        }
        let values = B::float_cummin(tensor.primitive().clone(), dim);
        let indices = running_extreme_indices::<B>(tensor.primitive().clone(), values.clone(), dim);
        picked(C::MODE, "cummin", &tensor, values, dim, indices)
    }

    fn float_cummax(tensor: AutodiffTensor<B>, dim: usize) -> AutodiffTensor<B> {
        // dx_i = sum of g_k over the k whose running maximum came from i.
        if !tensor.is_tracked() {
            return At::constant(B::float_cummax(tensor.into_primitive(), dim), C::MODE);
        }
        let values = B::float_cummax(tensor.primitive().clone(), dim);
        let indices = running_extreme_indices::<B>(tensor.primitive().clone(), values.clone(), dim);
        picked(C::MODE, "cummax", &tensor, values, dim, indices)
    }

    // ---------------------------------------------------------------- sort

    fn float_sort_with_indices(
        tensor: AutodiffTensor<B>,
        dim: usize,
        descending: bool,
    ) -> (AutodiffTensor<B>, IntTensor<Self>) {
        // dx = g scattered back to where each sorted value came from.
        let (values, indices) =
            B::float_sort_with_indices(tensor.primitive().clone(), dim, descending);
        (
            picked(C::MODE, "sort", &tensor, values, dim, indices.clone()),
            indices,
        )
    }

    // ------------------------------------------------------------- autodiff

    fn float_detach(tensor: AutodiffTensor<B>) -> AutodiffTensor<B> {
        tensor.detach()
    }

    fn float_set_require_grad(tensor: AutodiffTensor<B>, require_grad: bool) -> AutodiffTensor<B> {
        tensor.set_require_grad(require_grad)
    }

    fn float_is_require_grad(tensor: &AutodiffTensor<B>) -> bool {
        tensor.is_require_grad()
    }
}

/// The gradient of a full max/min: `g / k` at the `k` positions holding the
/// extreme value (ties share it, as in PyTorch), 0 elsewhere.
fn extreme_grad<B: Backend>(x: Ft<B>, g: Ft<B>, max: bool) -> Ft<B> {
    let shape = x.shape();
    let extreme = if max {
        B::float_max(x.clone())
    } else {
        B::float_min(x.clone())
    };
    let ones = Shape::from(alloc::vec![1; shape.num_dims()]);
    let extreme = B::float_expand(B::float_reshape(extreme, ones.clone()), shape.clone());
    let hits = B::bool_into_float(B::float_equal(x, extreme), g.dtype());
    let count = B::float_sum(hits.clone());
    let share = B::float_div(g, count);
    B::float_mul(hits, B::float_expand(B::float_reshape(share, ones), shape))
}

/// For a running max/min `values` of `x` along `dim`: the index each
/// running value came from (the latest position that set it).
fn running_extreme_indices<B: Backend>(x: Ft<B>, values: Ft<B>, dim: usize) -> IntTensor<B> {
    let shape = x.shape();
    let device = B::float_device(&x);
    let n = shape[dim];
    // Positions where x itself is the running extreme (it set or tied it).
    let setters = B::float_equal(x, values);
    let mut line = alloc::vec![1; shape.num_dims()];
    line[dim] = n;
    let positions = B::int_expand(
        B::int_reshape(
            B::int_arange(0..n as i64, &device, DType::I64),
            Shape::from(line),
        ),
        shape.clone(),
    );
    let zero = B::int_zeros(shape, &device, DType::I64);
    // Latest setter at or before each position: a running max of its index.
    B::int_cummax(B::int_mask_where(zero, setters, positions), dim)
}

/// The zero-safe cumprod derivative: for each position `i` along `dim`,
/// `dx_i = sum_{k >= i} g_k * prod_{j <= k, j != i} x_j`.
fn cumprod_grad<B: Backend>(x: Ft<B>, g: Ft<B>, dim: usize) -> Ft<B> {
    let n = x.shape()[dim];
    let device = B::float_device(&x);
    let mut parts = Vec::with_capacity(n);
    for i in 0..n {
        // x with position i replaced by 1: its running product gives
        // prod_{j <= k, j != i} x_j for every k >= i.
        let mut mask_shape = alloc::vec![1; x.shape().num_dims()];
        mask_shape[dim] = n;
        let mut hot = alloc::vec![false; n];
        hot[i] = true;
        let mask = B::bool_from_data(TensorData::new(hot, Shape::from(mask_shape)), &device);
        let replaced = B::float_mask_fill(x.clone(), mask, f(1.0));
        let running = B::float_cumprod(replaced, dim);
        let tail = B::float_narrow(B::float_mul(running, g.clone()), dim, i, n - i);
        parts.push(B::float_sum_dim(tail, dim));
    }
    B::float_cat(parts, dim)
}

/// The share of `g` that goes to `winner` in an element-wise max of
/// (`winner`, `other`): all of it where `winner > other`, half on ties, none
/// elsewhere. (For a min, pass the operands swapped.)
fn pair_share<B: Backend>(winner: &Ft<B>, other: &Ft<B>, g: Ft<B>) -> Ft<B> {
    let dtype = g.dtype();
    let wins = B::bool_into_float(B::float_greater(winner.clone(), other.clone()), dtype);
    let ties = B::bool_into_float(B::float_equal(winner.clone(), other.clone()), dtype);
    let share = B::float_add(wins, B::float_mul_scalar(ties, f(0.5)));
    B::float_mul(g, share)
}
