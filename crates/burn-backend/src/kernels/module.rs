//! [`ModuleOps`] of a kernel backend: the 3-d convolutions and the 2-d
//! pooling and interpolation kernels; the composites (the 1-d and 2-d
//! convolutions, unfold, embedding, the 1-d pools, attention) keep the
//! trait's defaults.
//!
//! The kernels share the ops' names, so they are called by their trait.

use burn_std::Shape;

use super::{ConvKernels, InterpolateKernels, Kernels, PoolKernels};
use crate::ops::{ConvOptions, ConvTransposeOptions, InterpolateOptions, ModuleOps, PoolWindow};
use crate::{Backend, FloatTensor, IntTensor, TensorMetadata};

impl<K: Kernels + Backend> ModuleOps<K> for K {
    fn conv3d(
        x: FloatTensor<K>,
        weight: FloatTensor<K>,
        bias: Option<FloatTensor<K>>,
        options: ConvOptions<3>,
    ) -> FloatTensor<K> {
        <K as ConvKernels>::conv3d(x, weight, bias, options)
    }

    fn conv3d_weight_backward(
        x: FloatTensor<K>,
        output_grad: FloatTensor<K>,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> FloatTensor<K> {
        <K as ConvKernels>::conv3d_weight_backward(x, output_grad, weight_shape, options)
    }

    fn conv_transpose3d(
        x: FloatTensor<K>,
        weight: FloatTensor<K>,
        bias: Option<FloatTensor<K>>,
        options: ConvTransposeOptions<3>,
    ) -> FloatTensor<K> {
        <K as ConvKernels>::conv_transpose3d(x, weight, bias, options)
    }

    fn max_pool2d_with_indices(
        x: FloatTensor<K>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> (FloatTensor<K>, IntTensor<K>) {
        let window = PoolWindow::new(kernel_size, stride, padding, dilation);
        <K as PoolKernels>::max_pool2d_with_indices(x, window, ceil_mode)
    }

    // The indices name each maximum's input position, so the window
    // geometry is not needed again.
    fn max_pool2d_with_indices_backward(
        x: FloatTensor<K>,
        _kernel_size: [usize; 2],
        _stride: [usize; 2],
        _padding: [usize; 2],
        _dilation: [usize; 2],
        _ceil_mode: bool,
        output_grad: FloatTensor<K>,
        indices: IntTensor<K>,
    ) -> FloatTensor<K> {
        <K as PoolKernels>::max_pool2d_backward(&x.shape(), output_grad, indices)
    }

    fn avg_pool2d(
        x: FloatTensor<K>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<K> {
        let window = PoolWindow::new(kernel_size, stride, padding, [1, 1]);
        <K as PoolKernels>::avg_pool2d(x, window, count_include_pad, ceil_mode)
    }

    fn avg_pool2d_backward(
        x: FloatTensor<K>,
        grad: FloatTensor<K>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<K> {
        let window = PoolWindow::new(kernel_size, stride, padding, [1, 1]);
        <K as PoolKernels>::avg_pool2d_backward(
            &x.shape(),
            grad,
            window,
            count_include_pad,
            ceil_mode,
        )
    }

    fn adaptive_avg_pool2d(x: FloatTensor<K>, output_size: [usize; 2]) -> FloatTensor<K> {
        <K as PoolKernels>::adaptive_avg_pool2d(x, output_size)
    }

    fn adaptive_avg_pool2d_backward(x: FloatTensor<K>, grad: FloatTensor<K>) -> FloatTensor<K> {
        <K as PoolKernels>::adaptive_avg_pool2d_backward(&x.shape(), grad)
    }

    fn interpolate(
        x: FloatTensor<K>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<K> {
        <K as InterpolateKernels>::interpolate(x, output_size, options)
    }

    fn interpolate_backward(
        x: FloatTensor<K>,
        grad: FloatTensor<K>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<K> {
        <K as InterpolateKernels>::interpolate_backward(&x.shape(), grad, output_size, options)
    }
}
