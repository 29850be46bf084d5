//! `ModuleOps` of Cube: the layer kernels of `crate::ops` (pooling,
//! interpolation, …); composites (embedding, the 1-d pools, attention) keep
//! the trait's defaults.

use burn_backend::{
    ConvOptions, ConvTransposeOptions, InterpolateOptions, ModuleOps, Shape, TensorMetadata,
};

use super::Cube;
use crate::CubeTensor;
use crate::ops::conv;
use crate::ops::interpolate;
use crate::ops::pool::{self, Window};

type T = CubeTensor;

impl ModuleOps<Self> for Cube {
    fn conv3d(x: T, weight: T, bias: Option<T>, options: ConvOptions<3>) -> T {
        conv::conv3d(x, weight, bias, options)
    }

    fn conv3d_weight_backward(
        x: T,
        output_grad: T,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> T {
        conv::conv3d_weight_backward(x, output_grad, weight_shape, options)
    }

    fn conv_transpose3d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<3>) -> T {
        conv::conv_transpose3d(x, weight, bias, options)
    }

    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> (T, T) {
        let window = Window {
            kernel: kernel_size,
            stride,
            padding,
            dilation,
        };
        pool::max_pool2d_with_indices(x, window, ceil_mode)
    }

    fn max_pool2d_with_indices_backward(
        x: T,
        _kernel_size: [usize; 2],
        _stride: [usize; 2],
        _padding: [usize; 2],
        _dilation: [usize; 2],
        _ceil_mode: bool,
        output_grad: T,
        indices: T,
    ) -> T {
        pool::max_pool2d_backward(&x.shape(), output_grad, indices)
    }

    fn avg_pool2d(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let window = Window {
            kernel: kernel_size,
            stride,
            padding,
            dilation: [1, 1],
        };
        pool::avg_pool2d(x, window, count_include_pad, ceil_mode)
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
        let window = Window {
            kernel: kernel_size,
            stride,
            padding,
            dilation: [1, 1],
        };
        pool::avg_pool2d_backward(&x.shape(), grad, window, count_include_pad, ceil_mode)
    }

    fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T {
        pool::adaptive_avg_pool2d(x, output_size)
    }

    fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T {
        pool::adaptive_avg_pool2d_backward(&x.shape(), grad)
    }

    fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T {
        interpolate::interpolate(x, output_size, options)
    }

    fn interpolate_backward(
        x: T,
        grad: T,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> T {
        interpolate::interpolate_backward(&x.shape(), grad, output_size, options)
    }
}
