//! Module and activation ops of `Autodiff<B, C>`.
//!
//! Most methods keep the trait's default body, a composition of float
//! primitives whose derivatives are recorded in `float.rs`: the backward of
//! `embedding`, `relu`, `gelu`, `softmax`, … follows from them. The
//! exceptions record their own step, because the composed default has a
//! kink where the derivative of the composition is not the derivative of
//! the function:
//!
//! - `sigmoid` and `log_sigmoid` are composed from `max(-x, 0)` and `|x|`
//!   (to stay finite for large |x|); at `x = 0` the subgradients the
//!   primitives pick (1 for the clamp, 0 for `|x|`) do not cancel, and the
//!   composition would give σ'(0) = 1/2 instead of 1/4.
//! - `leaky_relu` is a `mask_where` on `x < 0`, which credits `x = 0` to the
//!   identity branch; PyTorch (and `relu` here) credit 0 to the negative side.

use burn_backend::{
    ActivationOps, Backend, ConvOptions, ConvTransposeOptions, IntTensor, InterpolateOptions,
    ModuleOps, TransactionOps,
};
use burn_std::{Scalar, Shape};

use super::pool::{self, AvgPool, MaxPool, Resize};
use super::{At, conv, f, unary, unary_scalar};
use crate::{Autodiff, CheckpointStrategy};

impl<B: Backend, C: CheckpointStrategy> ModuleOps<Self> for Autodiff<B, C> {
    fn conv3d(x: At<B>, weight: At<B>, bias: Option<At<B>>, options: ConvOptions<3>) -> At<B> {
        conv::conv3d::<B, C>(x, weight, bias, options)
    }

    fn conv3d_weight_backward(
        x: At<B>,
        output_grad: At<B>,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> At<B> {
        // Used by backward passes, which run on `B`: a second derivative is
        // not recorded.
        let out = B::conv3d_weight_backward(
            x.into_primitive(),
            output_grad.into_primitive(),
            weight_shape,
            options,
        );
        At::constant(out, C::MODE)
    }

    fn conv_transpose3d(
        x: At<B>,
        weight: At<B>,
        bias: Option<At<B>>,
        options: ConvTransposeOptions<3>,
    ) -> At<B> {
        conv::conv_transpose3d::<B, C>(x, weight, bias, options)
    }

    fn max_pool2d_with_indices(
        x: At<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> (At<B>, IntTensor<B>) {
        let (values, indices) = B::max_pool2d_with_indices(
            x.primitive().clone(),
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        );
        let state = MaxPool::<B> {
            kernel: kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
            indices: indices.clone(),
        };
        let out = pool::with_input(
            C::MODE,
            "max_pool2d",
            x,
            state,
            |_, _| values,
            // dx = g added at the argmax of each window.
            |x, g, p| {
                B::max_pool2d_with_indices_backward(
                    x,
                    p.kernel,
                    p.stride,
                    p.padding,
                    p.dilation,
                    p.ceil_mode,
                    g,
                    p.indices.clone(),
                )
            },
        );
        (out, indices)
    }

    fn max_pool2d_with_indices_backward(
        x: At<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
        output_grad: At<B>,
        indices: IntTensor<B>,
    ) -> At<B> {
        pool::linear_in_grad(
            C::MODE,
            "max_pool2d_with_indices_backward",
            x,
            output_grad,
            indices,
            |x, g, indices| {
                B::max_pool2d_with_indices_backward(
                    x,
                    kernel_size,
                    stride,
                    padding,
                    dilation,
                    ceil_mode,
                    g,
                    indices.clone(),
                )
            },
            // d/dg = gg gathered at the argmax indices.
            |gg, indices| pool::gather_at_indices::<B>(gg, indices.clone()),
        )
    }

    fn avg_pool2d(
        x: At<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> At<B> {
        let p = AvgPool {
            kernel: kernel_size,
            stride,
            padding,
            count_include_pad,
            ceil_mode,
        };
        pool::with_input(
            C::MODE,
            "avg_pool2d",
            x,
            p,
            |x, p| {
                let (k, s, pad) = (p.kernel, p.stride, p.padding);
                B::avg_pool2d(x, k, s, pad, p.count_include_pad, p.ceil_mode)
            },
            // dx = g / divisor spread over each window.
            |x, g, p| {
                let (k, s, pad) = (p.kernel, p.stride, p.padding);
                B::avg_pool2d_backward(x, g, k, s, pad, p.count_include_pad, p.ceil_mode)
            },
        )
    }

    fn avg_pool2d_backward(
        x: At<B>,
        grad: At<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> At<B> {
        let p = AvgPool {
            kernel: kernel_size,
            stride,
            padding,
            count_include_pad,
            ceil_mode,
        };
        pool::linear_in_grad(
            C::MODE,
            "avg_pool2d_backward",
            x,
            grad,
            p,
            |x, g, p| {
                let (k, s, pad) = (p.kernel, p.stride, p.padding);
                B::avg_pool2d_backward(x, g, k, s, pad, p.count_include_pad, p.ceil_mode)
            },
            // d/dg = avg_pool2d(gg): the adjoint of spreading is averaging.
            |gg, p| {
                let (k, s, pad) = (p.kernel, p.stride, p.padding);
                B::avg_pool2d(gg, k, s, pad, p.count_include_pad, p.ceil_mode)
            },
        )
    }

    fn adaptive_avg_pool2d(x: At<B>, output_size: [usize; 2]) -> At<B> {
        pool::with_input(
            C::MODE,
            "adaptive_avg_pool2d",
            x,
            output_size,
            |x, size| B::adaptive_avg_pool2d(x, *size),
            // dx = g / cell size spread over each cell's input range.
            |x, g, _| B::adaptive_avg_pool2d_backward(x, g),
        )
    }

    fn adaptive_avg_pool2d_backward(x: At<B>, grad: At<B>) -> At<B> {
        let output_size = pool::spatial::<B>(grad.primitive());
        pool::linear_in_grad(
            C::MODE,
            "adaptive_avg_pool2d_backward",
            x,
            grad,
            output_size,
            |x, g, _| B::adaptive_avg_pool2d_backward(x, g),
            // d/dg = adaptive_avg_pool2d(gg) back to the gradient's size.
            |gg, size| B::adaptive_avg_pool2d(gg, *size),
        )
    }

    fn interpolate(x: At<B>, output_size: [usize; 2], options: InterpolateOptions) -> At<B> {
        let resize: Resize = (output_size, options);
        pool::with_input(
            C::MODE,
            "interpolate",
            x,
            resize,
            |x, (size, options)| B::interpolate(x, *size, *options),
            // dx = g spread back with the interpolation weights (the adjoint).
            |x, g, (size, options)| B::interpolate_backward(x, g, *size, *options),
        )
    }

    fn interpolate_backward(
        x: At<B>,
        grad: At<B>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> At<B> {
        let resize: Resize = (output_size, options);
        pool::linear_in_grad(
            C::MODE,
            "interpolate_backward",
            x,
            grad,
            resize,
            |x, g, (size, options)| B::interpolate_backward(x, g, *size, *options),
            // d/dg = interpolate(gg): the adjoint of the adjoint.
            |gg, (size, options)| B::interpolate(gg, *size, *options),
        )
    }
}

impl<B: Backend, C: CheckpointStrategy> ActivationOps<Self> for Autodiff<B, C> {
    fn sigmoid(tensor: At<B>) -> At<B> {
        // dx = g * σ(x) (1 - σ(x)).
        unary(C::MODE, "sigmoid", tensor, B::sigmoid, |x, g| {
            B::sigmoid_backward(B::sigmoid(x), g)
        })
    }

    fn log_sigmoid(tensor: At<B>) -> At<B> {
        // dx = g * σ(-x).
        unary(
            C::MODE,
            "log_sigmoid",
            tensor,
            B::log_sigmoid,
            B::log_sigmoid_backward,
        )
    }

    fn leaky_relu(tensor: At<B>, slope: Scalar) -> At<B> {
        // dx = g where x > 0, g * slope where x <= 0.
        unary_scalar(
            C::MODE,
            "leaky_relu",
            tensor,
            slope,
            true,
            B::leaky_relu,
            |x, g, slope| {
                let negative = B::float_lower_equal_elem(x, f(0.0));
                let scaled = B::float_mul_scalar(g.clone(), slope);
                B::float_mask_where(g, negative, scaled)
            },
        )
    }
}

// Reads go through `float_into_data`, which hands the value to `B`.
impl<B: Backend, C: CheckpointStrategy> TransactionOps<Self> for Autodiff<B, C> {}
