//! 2-d pooling and its backward passes.
//!
//! Every kernel runs one thread per element it writes: the forward passes
//! one per output element looping over its window, the backward passes one
//! per *input* element gathering the output gradients of the windows that
//! cover it. No two threads write the same element, so no atomics are
//! needed and the results do not depend on scheduling. Each backward
//! thread visits its windows in row-major output order, the order in which
//! Flex adds them up. f16/bf16 accumulate in f32 (f64 in f64), rounding once.
//!
//! Max pooling's backward pass gets no window geometry, only the argmax
//! indices: a first kernel records, per plane, the range of input rows hit
//! by each output row and of input columns hit by each output column, so
//! each input element only reads the outputs whose row and column ranges
//! contain it.

use burn_backend::kernels::{CreationKernels, PoolKernels};
use burn_backend::{PoolWindow, check, dims4, nonempty_spatial, pool2d_output_shape};
use burn_std::{DType, Shape};
use cubecl::prelude::*;

use super::elemwise_dims;
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

/// The dtype float kernels of `dtype` accumulate in: f64 for f64, f32
/// otherwise (f16/bf16 round once at the end).
pub(crate) fn acc_dtype(dtype: DType) -> DType {
    if dtype == DType::F64 {
        DType::F64
    } else {
        DType::F32
    }
}

/// The storage types `[element, accumulator]` of a float kernel.
pub(crate) fn float_acc_types(dtype: DType) -> [StorageType; 2] {
    [dtype::storage(dtype), dtype::storage(acc_dtype(dtype))]
}

// ---------------------------------------------------------------- max pool

/// Whether `v` is NaN, through the compiler's NaN test (`v != v` may be
/// folded away: WGSL lets implementations assume there are no NaNs).
#[cube]
fn is_nan<F: Float>(v: F) -> bool {
    let lanes = Vector::<F, Const<1>>::new(v).is_nan();
    lanes[0]
}

/// One thread per output element: the first maximum of its window in
/// row-major tap order (NaN beats any number; padding never wins).
#[cube(launch_unchecked)]
fn max_pool2d_kernel<F: Float, I: Int>(
    x: &Tensor<F>,
    out: &mut Tensor<F>,
    indices: &mut Tensor<I>,
    len: usize,
    x_offset: usize,
    kernel_h: usize,
    kernel_w: usize,
    stride_h: usize,
    stride_w: usize,
    pad_h: usize,
    pad_w: usize,
    dil_h: usize,
    dil_w: usize,
    #[define(F, I)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let ow = out.shape(3);
    let oh = out.shape(2);
    let channels = out.shape(1);
    let j = pos % ow;
    let i = (pos / ow) % oh;
    let c = (pos / (ow * oh)) % channels;
    let n = pos / (ow * oh * channels);
    let h = x.shape(2);
    let w = x.shape(3);
    let base = x_offset + n * x.stride(0) + c * x.stride(1);

    let mut best = x[base];
    let mut best_at = 0usize;
    let mut found = false;
    for kh in 0..kernel_h {
        // Positions in padded coordinates: the real input is pad..pad + len.
        let hp = i * stride_h + kh * dil_h;
        if hp >= pad_h && hp < pad_h + h {
            let hi = hp - pad_h;
            for kw in 0..kernel_w {
                let wp = j * stride_w + kw * dil_w;
                if wp >= pad_w && wp < pad_w + w {
                    let wi = wp - pad_w;
                    let v = x[base + hi * x.stride(2) + wi * x.stride(3)];
                    let better = !found || v > best || (is_nan::<F>(v) && !is_nan::<F>(best));
                    if better {
                        best = v;
                        best_at = hi * w + wi;
                        found = true;
                    }
                }
            }
        }
    }
    // A window with no real tap (possible only with dilation over padding)
    // keeps the plane's first element, as Flex does.
    out[pos] = best;
    indices[pos] = I::cast_from(best_at);
}

/// Per plane: for each output row the range of input rows its indices
/// name, and for each output column the range of input columns, as
/// `[lo, hi]` pairs (`lo > hi` when empty). Thread `t < planes·oh` takes
/// row `t`, the others column `t - planes·oh`. Indices outside the plane
/// are left out.
#[cube(launch_unchecked)]
fn index_bounds_kernel<I: Int>(
    indices: &Tensor<I>,
    bounds: &mut Tensor<u32>,
    len: usize,
    idx_offset: usize,
    h: usize,
    w: usize,
    #[define(I)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let channels = indices.shape(1);
    let oh = indices.shape(2);
    let ow = indices.shape(3);
    let planes = indices.shape(0) * channels;
    let plane_len = I::cast_from(h * w);
    let zero = I::cast_from(0u32);
    let row_mode = pos < planes * oh;
    let q = pos - select(row_mode, 0, planes * oh);
    let plane = select(row_mode, q / oh, q / ow);
    let line = select(row_mode, q % oh, q % ow);
    let steps = select(row_mode, ow, oh);
    let base = idx_offset
        + (plane / channels) * indices.stride(0)
        + (plane % channels) * indices.stride(1);
    let mut lo = h * w;
    let mut hi = 0usize;
    for s in 0..steps {
        let mut at = base + line * indices.stride(3) + s * indices.stride(2);
        if row_mode {
            at = base + line * indices.stride(2) + s * indices.stride(3);
        }
        let idx = indices[at];
        if idx >= zero && idx < plane_len {
            let flat = usize::cast_from(idx);
            let mut v = flat % w;
            if row_mode {
                v = flat / w;
            }
            lo = min(lo, v);
            hi = max(hi, v);
        }
    }
    bounds[pos * 2] = u32::cast_from(lo);
    bounds[pos * 2 + 1] = u32::cast_from(hi);
}

/// One thread per input element: the sum of the output gradients whose
/// index names it, in row-major output order.
#[cube(launch_unchecked)]
fn max_pool2d_backward_kernel<F: Float, A: Float, I: Int>(
    grad: &Tensor<F>,
    indices: &Tensor<I>,
    bounds: &Tensor<u32>,
    out: &mut Tensor<F>,
    len: usize,
    grad_offset: usize,
    idx_offset: usize,
    #[define(F, A, I)] _dtypes: [StorageType; 3],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let w = out.shape(3);
    let h = out.shape(2);
    let channels = out.shape(1);
    let wi = pos % w;
    let hi = (pos / w) % h;
    let plane = pos / (w * h);
    let n = plane / channels;
    let c = plane % channels;
    let oh = grad.shape(2);
    let ow = grad.shape(3);
    let planes = grad.shape(0) * channels;
    let target = I::cast_from(hi * w + wi);
    let g_base = grad_offset + n * grad.stride(0) + c * grad.stride(1);
    let i_base = idx_offset + n * indices.stride(0) + c * indices.stride(1);
    let hi32 = u32::cast_from(hi);
    let wi32 = u32::cast_from(wi);
    let cols = planes * oh;
    let mut acc = A::cast_from(0u32);
    for i in 0..oh {
        let r = (plane * oh + i) * 2;
        if bounds[r] <= hi32 && hi32 <= bounds[r + 1] {
            for j in 0..ow {
                let b = (cols + plane * ow + j) * 2;
                if bounds[b] <= wi32 && wi32 <= bounds[b + 1] {
                    let idx = indices[i_base + i * indices.stride(2) + j * indices.stride(3)];
                    if idx == target {
                        acc += A::cast_from(grad[g_base + i * grad.stride(2) + j * grad.stride(3)]);
                    }
                }
            }
        }
    }
    out[pos] = F::cast_from(acc);
}

// ---------------------------------------------------------------- avg pool

/// The real input range `[start, end)` of window `o` along one axis and the
/// count its average divides by: in padded coordinates the window is
/// `[o·s, o·s + k)` clipped to the padded input `[0, len + 2p)`.
#[cube]
fn avg_range(
    o: usize,
    kernel: usize,
    stride: usize,
    pad: usize,
    len: usize,
    #[comptime] count_include_pad: bool,
) -> (usize, usize, usize) {
    let padded_start = o * stride;
    let padded_end = min(padded_start + kernel, len + 2 * pad);
    let start = min(select(padded_start > pad, padded_start - pad, 0), len);
    let end = min(select(padded_end > pad, padded_end - pad, 0), len);
    let mut count = end - start;
    if comptime![count_include_pad] {
        count = padded_end - padded_start;
    }
    (start, end, count)
}

/// One thread per output element: the mean of its window's real elements.
#[cube(launch_unchecked)]
fn avg_pool2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    kernel_h: usize,
    kernel_w: usize,
    stride_h: usize,
    stride_w: usize,
    pad_h: usize,
    pad_w: usize,
    #[comptime] count_include_pad: bool,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let ow = out.shape(3);
    let oh = out.shape(2);
    let channels = out.shape(1);
    let j = pos % ow;
    let i = (pos / ow) % oh;
    let c = (pos / (ow * oh)) % channels;
    let n = pos / (ow * oh * channels);
    let base = x_offset + n * x.stride(0) + c * x.stride(1);
    let (h0, h1, ch) = avg_range(i, kernel_h, stride_h, pad_h, x.shape(2), count_include_pad);
    let (w0, w1, cw) = avg_range(j, kernel_w, stride_w, pad_w, x.shape(3), count_include_pad);
    let mut sum = A::cast_from(0u32);
    for hi in h0..h1 {
        for wi in w0..w1 {
            sum += A::cast_from(x[base + hi * x.stride(2) + wi * x.stride(3)]);
        }
    }
    out[pos] = F::cast_from(sum / A::cast_from(ch * cw));
}

/// One thread per input element: the shares of the windows covering it.
#[cube(launch_unchecked)]
fn avg_pool2d_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    grad_offset: usize,
    kernel_h: usize,
    kernel_w: usize,
    stride_h: usize,
    stride_w: usize,
    pad_h: usize,
    pad_w: usize,
    #[comptime] count_include_pad: bool,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let w = out.shape(3);
    let h = out.shape(2);
    let channels = out.shape(1);
    let wi = pos % w;
    let hi = (pos / w) % h;
    let c = (pos / (w * h)) % channels;
    let n = pos / (w * h * channels);
    let oh = grad.shape(2);
    let ow = grad.shape(3);
    // Window o covers padded position q when o·s <= q < o·s + k.
    let qh = hi + pad_h;
    let qw = wi + pad_w;
    let i0 = select(qh + 1 > kernel_h, (qh + stride_h - kernel_h) / stride_h, 0);
    let i1 = min(qh / stride_h + 1, oh);
    let j0 = select(qw + 1 > kernel_w, (qw + stride_w - kernel_w) / stride_w, 0);
    let j1 = min(qw / stride_w + 1, ow);
    let base = grad_offset + n * grad.stride(0) + c * grad.stride(1);
    let mut acc = A::cast_from(0u32);
    for i in i0..i1 {
        let (_h0, _h1, ch) = avg_range(i, kernel_h, stride_h, pad_h, h, count_include_pad);
        for j in j0..j1 {
            let (_w0, _w1, cw) = avg_range(j, kernel_w, stride_w, pad_w, w, count_include_pad);
            let g = A::cast_from(grad[base + i * grad.stride(2) + j * grad.stride(3)]);
            acc += g / A::cast_from(ch * cw);
        }
    }
    out[pos] = F::cast_from(acc);
}

// ------------------------------------------------------- adaptive avg pool

/// The input range `floor(o·n / out) .. ceil((o + 1)·n / out)` of output `o`.
#[cube]
fn adaptive_range(o: usize, len: usize, out: usize) -> (usize, usize) {
    ((o * len) / out, ((o + 1) * len).div_ceil(out))
}

/// One thread per output element: the mean of its input range.
#[cube(launch_unchecked)]
fn adaptive_avg_pool2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let ow = out.shape(3);
    let oh = out.shape(2);
    let channels = out.shape(1);
    let j = pos % ow;
    let i = (pos / ow) % oh;
    let c = (pos / (ow * oh)) % channels;
    let n = pos / (ow * oh * channels);
    let base = x_offset + n * x.stride(0) + c * x.stride(1);
    let (h0, h1) = adaptive_range(i, x.shape(2), oh);
    let (w0, w1) = adaptive_range(j, x.shape(3), ow);
    let mut sum = A::cast_from(0u32);
    for hi in h0..h1 {
        for wi in w0..w1 {
            sum += A::cast_from(x[base + hi * x.stride(2) + wi * x.stride(3)]);
        }
    }
    out[pos] = F::cast_from(sum / A::cast_from((h1 - h0) * (w1 - w0)));
}

/// One thread per input element: the shares of the output cells whose
/// range holds it (cells `floor(i·out / n) ..= ceil((i + 1)·out / n) - 1`).
#[cube(launch_unchecked)]
fn adaptive_avg_pool2d_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    grad_offset: usize,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let w = out.shape(3);
    let h = out.shape(2);
    let channels = out.shape(1);
    let wi = pos % w;
    let hi = (pos / w) % h;
    let c = (pos / (w * h)) % channels;
    let n = pos / (w * h * channels);
    let oh = grad.shape(2);
    let ow = grad.shape(3);
    let i0 = (hi * oh) / h;
    let i1 = min(((hi + 1) * oh).div_ceil(h), oh);
    let j0 = (wi * ow) / w;
    let j1 = min(((wi + 1) * ow).div_ceil(w), ow);
    let base = grad_offset + n * grad.stride(0) + c * grad.stride(1);
    let mut acc = A::cast_from(0u32);
    for i in i0..i1 {
        let (h0, h1) = adaptive_range(i, h, oh);
        if h0 <= hi && hi < h1 {
            for j in j0..j1 {
                let (w0, w1) = adaptive_range(j, w, ow);
                if w0 <= wi && wi < w1 {
                    let g = A::cast_from(grad[base + i * grad.stride(2) + j * grad.stride(3)]);
                    acc += g / A::cast_from((h1 - h0) * (w1 - w0));
                }
            }
        }
    }
    out[pos] = F::cast_from(acc);
}

// ------------------------------------------------------------- PoolKernels

impl PoolKernels for CubeBackend {
    /// Max pooling with the flat `h·w` index of each max.
    fn max_pool2d_with_indices(
        x: CubeTensor,
        window: PoolWindow,
        ceil_mode: bool,
    ) -> (CubeTensor, CubeTensor) {
        let op = "max_pool2d_with_indices";
        let out_shape = pool2d_output_shape(
            op,
            &x.shape,
            window.kernel,
            window.stride,
            window.padding,
            window.dilation,
            ceil_mode,
        );
        check::float_dtype(op, x.dtype);
        let dtype = x.dtype;
        // The backend default int dtype (Flex and PyTorch use int64, theirs).
        let index_dtype = dtype::INDEX;
        let out = x.empty_like(out_shape.clone(), dtype);
        let indices = x.empty_like(out_shape, index_dtype);
        let n = out.num_elements();
        if n == 0 {
            return (out, indices);
        }
        let types = [dtype::storage(dtype), dtype::storage(index_dtype)];
        let w = window;
        with_runtime!(&x.client, R, c => {
            let (count, dim) = elemwise_dims(c, n);
            unsafe {
                max_pool2d_kernel::launch_unchecked::<R>(
                    c, count, dim,
                    x.arg::<R>(), out.arg::<R>(), indices.arg::<R>(),
                    n, x.offset,
                    w.kernel[0], w.kernel[1], w.stride[0], w.stride[1],
                    w.padding[0], w.padding[1], w.dilation[0], w.dilation[1],
                    types,
                );
            }
        });
        (out, indices)
    }

    /// Gradient of max pooling: each output gradient added at the input
    /// position its index names. Indices outside their plane are skipped (a
    /// GPU kernel cannot panic; [`max_pool2d_with_indices`] never makes them).
    fn max_pool2d_backward(x_shape: &Shape, grad: CubeTensor, indices: CubeTensor) -> CubeTensor {
        let op = "max_pool2d_with_indices_backward";
        let [n, c, h, w] = dims4(op, x_shape);
        let g_shape = grad.shape.clone();
        if indices.shape != g_shape {
            panic!(
                "{op}: indices {} and output gradient {g_shape} must have the same shape",
                indices.shape
            );
        }
        let [gn, gc, oh, ow] = dims4(op, &g_shape);
        if gn != n || gc != c {
            panic!("{op}: output gradient {g_shape} does not match the input {x_shape}");
        }
        check::float_dtype(op, grad.dtype);
        check::int_dtype(op, indices.dtype);
        let dtype = grad.dtype;
        if g_shape.num_elements() == 0 && x_shape.num_elements() > 0 {
            // No output gradient to gather: the input gradient is zero.
            return CubeBackend::full(
                x_shape.clone(),
                burn_std::Scalar::Float(0.0),
                &grad.device,
                dtype,
            );
        }
        let out = grad.empty_like(x_shape.clone(), dtype);
        let len = out.num_elements();
        if len == 0 {
            return out;
        }
        let planes = n * c;
        let bound_units = planes * (oh + ow);
        let bounds = grad.empty_like(Shape::new([bound_units * 2]), DType::U32);
        let idx_ty = dtype::storage(indices.dtype);
        let [f_ty, a_ty] = float_acc_types(dtype);
        with_runtime!(&grad.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, bound_units);
            unsafe {
                index_bounds_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    indices.arg::<R>(), bounds.arg::<R>(),
                    bound_units, indices.offset, h, w, idx_ty,
                );
            }
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                max_pool2d_backward_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    grad.arg::<R>(), indices.arg::<R>(), bounds.arg::<R>(), out.arg::<R>(),
                    len, grad.offset, indices.offset,
                    [f_ty, a_ty, idx_ty],
                );
            }
        });
        out
    }

    /// Average pooling.
    fn avg_pool2d(
        x: CubeTensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> CubeTensor {
        let op = "avg_pool2d";
        let out_shape = pool2d_output_shape(
            op,
            &x.shape,
            window.kernel,
            window.stride,
            window.padding,
            window.dilation,
            ceil_mode,
        );
        check::float_dtype(op, x.dtype);
        let dtype = x.dtype;
        let out = x.empty_like(out_shape, dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let types = float_acc_types(dtype);
        let w = window;
        with_runtime!(&x.client, R, c => {
            let (count, dim) = elemwise_dims(c, n);
            unsafe {
                avg_pool2d_kernel::launch_unchecked::<R>(
                    c, count, dim,
                    x.arg::<R>(), out.arg::<R>(),
                    n, x.offset,
                    w.kernel[0], w.kernel[1], w.stride[0], w.stride[1],
                    w.padding[0], w.padding[1],
                    count_include_pad, types,
                );
            }
        });
        out
    }

    /// Gradient of average pooling.
    fn avg_pool2d_backward(
        x_shape: &Shape,
        grad: CubeTensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> CubeTensor {
        let op = "avg_pool2d_backward";
        let out_shape = pool2d_output_shape(
            op,
            x_shape,
            window.kernel,
            window.stride,
            window.padding,
            window.dilation,
            ceil_mode,
        );
        if grad.shape != out_shape {
            panic!(
                "{op}: output gradient {} does not match the pooled shape {out_shape}",
                grad.shape
            );
        }
        check::float_dtype(op, grad.dtype);
        let dtype = grad.dtype;
        let out = grad.empty_like(x_shape.clone(), dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let types = float_acc_types(dtype);
        let w = window;
        with_runtime!(&grad.client, R, c => {
            let (count, dim) = elemwise_dims(c, n);
            unsafe {
                avg_pool2d_backward_kernel::launch_unchecked::<R>(
                    c, count, dim,
                    grad.arg::<R>(), out.arg::<R>(),
                    n, grad.offset,
                    w.kernel[0], w.kernel[1], w.stride[0], w.stride[1],
                    w.padding[0], w.padding[1],
                    count_include_pad, types,
                );
            }
        });
        out
    }

    /// Adaptive average pooling.
    fn adaptive_avg_pool2d(x: CubeTensor, output_size: [usize; 2]) -> CubeTensor {
        let op = "adaptive_avg_pool2d";
        nonempty_spatial(op, &x.shape, output_size);
        check::float_dtype(op, x.dtype);
        let [n, c, _, _] = dims4(op, &x.shape);
        let dtype = x.dtype;
        let out = x.empty_like(Shape::new([n, c, output_size[0], output_size[1]]), dtype);
        let len = out.num_elements();
        if len == 0 {
            return out;
        }
        let types = float_acc_types(dtype);
        with_runtime!(&x.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                adaptive_avg_pool2d_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    x.arg::<R>(), out.arg::<R>(),
                    len, x.offset, types,
                );
            }
        });
        out
    }

    /// Gradient of adaptive average pooling.
    fn adaptive_avg_pool2d_backward(x_shape: &Shape, grad: CubeTensor) -> CubeTensor {
        let op = "adaptive_avg_pool2d_backward";
        let [n, c, _, _] = dims4(op, x_shape);
        let [gn, gc, oh, ow] = dims4(op, &grad.shape);
        if gn != n || gc != c {
            panic!(
                "{op}: output gradient {} does not match the input {x_shape}",
                grad.shape
            );
        }
        nonempty_spatial(op, x_shape, [oh, ow]);
        check::float_dtype(op, grad.dtype);
        let dtype = grad.dtype;
        let out = grad.empty_like(x_shape.clone(), dtype);
        let len = out.num_elements();
        if len == 0 {
            return out;
        }
        let types = float_acc_types(dtype);
        with_runtime!(&grad.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                adaptive_avg_pool2d_backward_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    grad.arg::<R>(), out.arg::<R>(),
                    len, grad.offset, types,
                );
            }
        });
        out
    }
}
