//! `ModuleOps` of the router: every layer op is recorded as itself, with
//! its output shape from the shape rules the backends share (`check::conv`,
//! `pool_output_size`, …).

use burn_backend::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateOptions, ModuleOps,
    TensorMetadata, UnfoldOptions, check, dims3, dims4, pool_output_size, pool2d_output_shape,
};
use burn_ir::{
    ConvIr, ConvTransposeIr, ModuleOperationIr as M, OperationIr, Pool1dIr, Pool2dIr, TensorIr,
};
use burn_std::Shape;

use super::{Recorder, unary_to};
use crate::{BackendRouter, RouterTensor, RunnerChannel};

type T = RouterTensor;

fn module(op: M) -> OperationIr {
    OperationIr::Module(op)
}

#[track_caller]
fn dims2(op: &str, shape: &Shape) -> [usize; 2] {
    match shape.dims[..] {
        [a, b] => [a, b],
        _ => panic!("{op}: expected 2 dims, got shape {shape}"),
    }
}

/// A convolution of any rank: `shape` is its checked output shape.
fn conv<const D: usize>(
    name: &'static str,
    x: T,
    weight: T,
    bias: Option<T>,
    options: ConvOptions<D>,
    make: fn(ConvIr<D>) -> M,
) -> T {
    let bias_shape = bias.as_ref().map(|b| b.shape());
    let shape = check::conv(
        name,
        &x.shape(),
        &weight.shape(),
        bias_shape.as_ref(),
        &options.stride,
        &options.padding,
        &options.dilation,
        options.groups,
    );
    let mut rec = Recorder::new(name, &x);
    let out = rec.output(shape, x.dtype());
    let desc = ConvIr {
        x: rec.input(x),
        weight: rec.input(weight),
        bias: rec.input_opt(bias),
        options,
        out: out.ir_uninit(),
    };
    rec.register(module(make(desc)));
    out
}

/// A transposed convolution of any rank.
fn conv_transpose<const D: usize>(
    name: &'static str,
    x: T,
    weight: T,
    bias: Option<T>,
    options: ConvTransposeOptions<D>,
    make: fn(ConvTransposeIr<D>) -> M,
) -> T {
    let bias_shape = bias.as_ref().map(|b| b.shape());
    let shape = check::conv_transpose(
        name,
        &x.shape(),
        &weight.shape(),
        bias_shape.as_ref(),
        &options.stride,
        &options.padding,
        &options.padding_out,
        &options.dilation,
        options.groups,
    );
    let mut rec = Recorder::new(name, &x);
    let out = rec.output(shape, x.dtype());
    let desc = ConvTransposeIr {
        x: rec.input(x),
        weight: rec.input(weight),
        bias: rec.input_opt(bias),
        options,
        out: out.ir_uninit(),
    };
    rec.register(module(make(desc)));
    out
}

/// An op reading `x` and `grad`, giving a tensor shaped as `x` (the
/// gradients of pooling and interpolation with respect to their input).
fn input_grad(
    name: &'static str,
    x: T,
    grad: T,
    make: impl FnOnce(TensorIr, TensorIr, TensorIr) -> M,
) -> T {
    let mut rec = Recorder::new(name, &x);
    let out = rec.output(x.shape(), x.dtype());
    let (x, grad) = (rec.input(x), rec.input(grad));
    rec.register(module(make(x, grad, out.ir_uninit())));
    out
}

/// The 1-d pooled shape of `[batch, channels, length]`.
#[track_caller]
fn pool1d_shape(name: &str, x: &Shape, pool: &Pool1dIr) -> Shape {
    let [n, c, l] = dims3(name, x);
    let length = pool_output_size(
        name,
        l,
        pool.kernel_size,
        pool.stride,
        pool.padding,
        pool.dilation,
        pool.ceil_mode,
    );
    Shape::new([n, c, length])
}

/// The 2-d pooled shape of `[batch, channels, height, width]`.
#[track_caller]
fn pool2d_shape(name: &str, x: &Shape, pool: &Pool2dIr) -> Shape {
    pool2d_output_shape(
        name,
        x,
        pool.kernel_size,
        pool.stride,
        pool.padding,
        pool.dilation,
        pool.ceil_mode,
    )
}

/// Max pooling values, and with `with_indices` the positions.
fn max_pool<P: Copy>(
    name: &'static str,
    x: T,
    pool: P,
    shape: Shape,
    with_indices: bool,
    make: fn(TensorIr, P, TensorIr, Option<TensorIr>) -> M,
) -> (T, Option<T>) {
    let mut rec = Recorder::new(name, &x);
    let out = rec.output(shape.clone(), x.dtype());
    let indices = with_indices.then(|| rec.output(shape, x.client().index_dtype()));
    let x = rec.input(x);
    let op = make(x, pool, out.ir_uninit(), indices.as_ref().map(T::ir_uninit));
    rec.register(module(op));
    (out, indices)
}

fn pool2d(
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> Pool2dIr {
    Pool2dIr {
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    }
}

fn pool1d(
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> Pool1dIr {
    Pool1dIr {
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    }
}

fn max_pool2d_ir(x: TensorIr, pool: Pool2dIr, out: TensorIr, indices: Option<TensorIr>) -> M {
    match indices {
        Some(indices) => M::MaxPool2dWithIndices {
            x,
            pool,
            out,
            indices,
        },
        None => M::MaxPool2d { x, pool, out },
    }
}

fn max_pool1d_ir(x: TensorIr, pool: Pool1dIr, out: TensorIr, indices: Option<TensorIr>) -> M {
    match indices {
        Some(indices) => M::MaxPool1dWithIndices {
            x,
            pool,
            out,
            indices,
        },
        None => M::MaxPool1d { x, pool, out },
    }
}

/// The indices of a pooling recorded with them.
fn indices_of((out, indices): (T, Option<T>)) -> (T, T) {
    let indices = indices.expect("max pooling recorded with indices returns them");
    (out, indices)
}

impl<C: RunnerChannel> ModuleOps<Self> for BackendRouter<C> {
    fn embedding(weights: T, indices: T) -> T {
        let [batch, seq] = dims2("embedding", &indices.shape());
        let [_, d_model] = dims2("embedding", &weights.shape());
        let mut rec = Recorder::new("embedding", &weights);
        let out = rec.output(Shape::new([batch, seq, d_model]), weights.dtype());
        let op = M::Embedding {
            weights: rec.input(weights),
            indices: rec.input(indices),
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }

    fn embedding_backward(weights: T, output_grad: T, indices: T) -> T {
        dims2("embedding_backward", &weights.shape());
        let mut rec = Recorder::new("embedding_backward", &weights);
        let out = rec.output(weights.shape(), weights.dtype());
        let op = M::EmbeddingBackward {
            weights: rec.input(weights),
            output_grad: rec.input(output_grad),
            indices: rec.input(indices),
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }

    fn conv1d(x: T, weight: T, bias: Option<T>, options: ConvOptions<1>) -> T {
        conv("conv1d", x, weight, bias, options, M::Conv1d)
    }

    fn conv2d(x: T, weight: T, bias: Option<T>, options: ConvOptions<2>) -> T {
        conv("conv2d", x, weight, bias, options, M::Conv2d)
    }

    fn conv3d(x: T, weight: T, bias: Option<T>, options: ConvOptions<3>) -> T {
        conv("conv3d", x, weight, bias, options, M::Conv3d)
    }

    fn conv3d_weight_backward(
        x: T,
        output_grad: T,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> T {
        let mut rec = Recorder::new("conv3d_weight_backward", &x);
        let out = rec.output(weight_shape, x.dtype());
        let op = M::Conv3dWeightBackward {
            x: rec.input(x),
            output_grad: rec.input(output_grad),
            options,
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }

    fn conv_transpose1d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<1>) -> T {
        conv_transpose(
            "conv_transpose1d",
            x,
            weight,
            bias,
            options,
            M::ConvTranspose1d,
        )
    }

    fn conv_transpose2d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<2>) -> T {
        conv_transpose(
            "conv_transpose2d",
            x,
            weight,
            bias,
            options,
            M::ConvTranspose2d,
        )
    }

    fn conv_transpose3d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<3>) -> T {
        conv_transpose(
            "conv_transpose3d",
            x,
            weight,
            bias,
            options,
            M::ConvTranspose3d,
        )
    }

    fn unfold4d(x: T, kernel_size: [usize; 2], options: UnfoldOptions) -> T {
        let shape = x.shape();
        let [batch, channels, _, _] = dims4("unfold4d", &shape);
        let [kh, kw] = kernel_size;
        // The windows of a convolution with this kernel and geometry.
        let windows = check::conv(
            "unfold4d",
            &shape,
            &Shape::new([channels, 1, kh, kw]),
            None,
            &options.stride,
            &options.padding,
            &options.dilation,
            channels.max(1),
        );
        let out_shape = Shape::new([batch, channels * kh * kw, windows.dims[2] * windows.dims[3]]);
        let mut rec = Recorder::new("unfold4d", &x);
        let out = rec.output(out_shape, x.dtype());
        let op = M::Unfold4d {
            x: rec.input(x),
            kernel_size,
            options,
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }

    fn max_pool2d(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> T {
        let pool = pool2d(kernel_size, stride, padding, dilation, ceil_mode);
        let shape = pool2d_shape("max_pool2d", &x.shape(), &pool);
        max_pool("max_pool2d", x, pool, shape, false, max_pool2d_ir).0
    }

    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> (T, T) {
        let pool = pool2d(kernel_size, stride, padding, dilation, ceil_mode);
        let shape = pool2d_shape("max_pool2d_with_indices", &x.shape(), &pool);
        indices_of(max_pool(
            "max_pool2d_with_indices",
            x,
            pool,
            shape,
            true,
            max_pool2d_ir,
        ))
    }

    fn max_pool2d_with_indices_backward(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
        output_grad: T,
        indices: T,
    ) -> T {
        let pool = pool2d(kernel_size, stride, padding, dilation, ceil_mode);
        let mut rec = Recorder::new("max_pool2d_with_indices_backward", &x);
        let out = rec.output(x.shape(), x.dtype());
        let op = M::MaxPool2dWithIndicesBackward {
            x: rec.input(x),
            pool,
            output_grad: rec.input(output_grad),
            indices: rec.input(indices),
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }

    fn avg_pool2d(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let pool = pool2d(kernel_size, stride, padding, [1, 1], ceil_mode);
        let shape = pool2d_shape("avg_pool2d", &x.shape(), &pool);
        let dtype = x.dtype();
        unary_to("avg_pool2d", x, shape, dtype, |desc| {
            module(M::AvgPool2d {
                x: desc.input,
                pool,
                count_include_pad,
                out: desc.out,
            })
        })
    }

    fn avg_pool2d_backward(
        x: T,
        grad: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let pool = pool2d(kernel_size, stride, padding, [1, 1], ceil_mode);
        input_grad("avg_pool2d_backward", x, grad, |x, grad, out| {
            M::AvgPool2dBackward {
                x,
                grad,
                pool,
                count_include_pad,
                out,
            }
        })
    }

    fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T {
        let [n, c, _, _] = dims4("adaptive_avg_pool2d", &x.shape());
        let shape = Shape::new([n, c, output_size[0], output_size[1]]);
        let dtype = x.dtype();
        unary_to("adaptive_avg_pool2d", x, shape, dtype, |desc| {
            module(M::AdaptiveAvgPool2d(desc))
        })
    }

    fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T {
        input_grad("adaptive_avg_pool2d_backward", x, grad, |x, grad, out| {
            M::AdaptiveAvgPool2dBackward { x, grad, out }
        })
    }

    fn max_pool1d(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> T {
        let pool = pool1d(kernel_size, stride, padding, dilation, ceil_mode);
        let shape = pool1d_shape("max_pool1d", &x.shape(), &pool);
        max_pool("max_pool1d", x, pool, shape, false, max_pool1d_ir).0
    }

    fn max_pool1d_with_indices(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> (T, T) {
        let pool = pool1d(kernel_size, stride, padding, dilation, ceil_mode);
        let shape = pool1d_shape("max_pool1d", &x.shape(), &pool);
        indices_of(max_pool(
            "max_pool1d_with_indices",
            x,
            pool,
            shape,
            true,
            max_pool1d_ir,
        ))
    }

    fn avg_pool1d(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let pool = pool1d(kernel_size, stride, padding, 1, ceil_mode);
        let shape = pool1d_shape("avg_pool1d", &x.shape(), &pool);
        let dtype = x.dtype();
        unary_to("avg_pool1d", x, shape, dtype, |desc| {
            module(M::AvgPool1d {
                x: desc.input,
                pool,
                count_include_pad,
                out: desc.out,
            })
        })
    }

    fn adaptive_avg_pool1d(x: T, output_size: usize) -> T {
        let [n, c, _] = dims3("adaptive_avg_pool1d", &x.shape());
        let dtype = x.dtype();
        unary_to(
            "adaptive_avg_pool1d",
            x,
            Shape::new([n, c, output_size]),
            dtype,
            |desc| module(M::AdaptiveAvgPool1d(desc)),
        )
    }

    fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T {
        let [n, c, _, _] = dims4("interpolate", &x.shape());
        let shape = Shape::new([n, c, output_size[0], output_size[1]]);
        let dtype = x.dtype();
        unary_to("interpolate", x, shape, dtype, |desc| {
            module(M::Interpolate {
                x: desc.input,
                options,
                out: desc.out,
            })
        })
    }

    fn interpolate_backward(
        x: T,
        grad: T,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> T {
        let [_, _, gh, gw] = dims4("interpolate_backward", &grad.shape());
        if [gh, gw] != output_size {
            panic!(
                "interpolate_backward: the gradient {} does not have the output size {output_size:?}",
                grad.shape()
            );
        }
        input_grad("interpolate_backward", x, grad, |x, grad, out| {
            M::InterpolateBackward {
                x,
                grad,
                options,
                out,
            }
        })
    }

    fn attention(query: T, key: T, value: T, mask: Option<T>, options: AttentionOptions) -> T {
        let [b, h, seq_q, _] = dims4("attention", &query.shape());
        let [_, _, _, d_v] = dims4("attention", &value.shape());
        let mut rec = Recorder::new("attention", &query);
        let out = rec.output(Shape::new([b, h, seq_q, d_v]), query.dtype());
        let op = M::Attention {
            query: rec.input(query),
            key: rec.input(key),
            value: rec.input(value),
            mask: rec.input_opt(mask),
            options,
            out: out.ir_uninit(),
        };
        rec.register(module(op));
        out
    }
}
