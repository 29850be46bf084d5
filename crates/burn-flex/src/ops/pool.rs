//! Pooling kernels over `[batch, channels, height, width]` planes: max (with
//! indices), average and adaptive average, each with its backward pass.
//!
//! Every kernel works plane by plane (one `(batch, channel)` pair), so the
//! planes run in parallel with no shared writes: the backward passes
//! scatter into their own plane's accumulator, in a fixed order, which
//! keeps results bit-identical for any thread count. f16/bf16 accumulate in
//! f32 and round once per element.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_backend::kernels::PoolKernels;
use burn_backend::{PoolWindow, dims4, pool2d_output_shape};
use burn_std::{DType, Shape};
use num_traits::{Float, NumCast, Zero};

use crate::ops::elem::{FloatElem, cast_elem};
use crate::{Flex, FlexTensor};
use crate::{with_float, with_int};

/// Runs `f(input_plane, output_plane)` for each plane pair, on the worker threads when the
/// output is large. `input` holds whole planes of `in_plane` elements and
/// `out` of `out_plane` elements, in the same order.
pub(crate) fn for_each_plane<I: Sync, O: Send>(
    input: &[I],
    in_plane: usize,
    out: &mut [O],
    out_plane: usize,
    f: impl Fn(&[I], &mut [O]) + Sync + Send,
) {
    if out_plane == 0 || out.is_empty() {
        return;
    }
    if out.len() + input.len() >= crate::engine::PARALLEL_THRESHOLD && out.len() > out_plane {
        let in_plane = in_plane.max(1);
        crate::threads::chunks_mut(out, out_plane, |p, o| {
            let start = (p * in_plane).min(input.len());
            f(&input[start..(start + in_plane).min(input.len())], o)
        });
        return;
    }
    for (o, i) in out.chunks_mut(out_plane).zip(input.chunks(in_plane.max(1))) {
        f(i, o);
    }
}

/// The input positions of window `o` along one axis: `o * stride - padding +
/// k * dilation` for each tap `k`, or `None` for taps in the padding.
#[inline]
fn taps(
    o: usize,
    axis: usize,
    len: usize,
    w: &PoolWindow,
) -> impl Iterator<Item = Option<usize>> + use<> {
    let (stride, padding, dilation) = (w.stride[axis], w.padding[axis], w.dilation[axis]);
    (0..w.kernel[axis]).map(move |k| {
        let pos = (o * stride + k * dilation) as isize - padding as isize;
        (pos >= 0 && (pos as usize) < len).then_some(pos as usize)
    })
}

// ---------------------------------------------------------------- max pool

/// The argmax of each window of one plane.
fn argmax_plane<E: FloatElem>(
    plane: &[E],
    [h, w]: [usize; 2],
    [oh, ow]: [usize; 2],
    window: &PoolWindow,
    out: &mut [i64],
) {
    for i in 0..oh {
        for j in 0..ow {
            let mut best: Option<(usize, E::C)> = None;
            for hi in taps(i, 0, h, window).flatten() {
                for wi in taps(j, 1, w, window).flatten() {
                    let at = hi * w + wi;
                    let v = plane[at].up();
                    let better = match best {
                        None => true,
                        Some((_, m)) => v > m || (v.is_nan() && !m.is_nan()),
                    };
                    if better {
                        best = Some((at, v));
                    }
                }
            }
            // `pool_output_size` keeps every window overlapping the input.
            out[i * ow + j] = best.map_or(0, |(at, _)| at as i64);
        }
    }
}

// ---------------------------------------------------------------- avg pool

/// The real input range of a window along one axis, and the count its
/// average divides by.
#[derive(Clone, Copy, Debug)]
struct AvgRange {
    start: usize,
    end: usize,
    count: usize,
}

fn avg_ranges(
    axis: usize,
    len: usize,
    out: usize,
    w: &PoolWindow,
    count_include_pad: bool,
) -> Vec<AvgRange> {
    let (k, s, p) = (w.kernel[axis], w.stride[axis], w.padding[axis]);
    (0..out)
        .map(|o| {
            // In padded coordinates the window is [o s, o s + k), clipped to
            // the padded input [0, len + 2p).
            let padded_start = o * s;
            let padded_end = (padded_start + k).min(len + 2 * p);
            let start = padded_start.saturating_sub(p).min(len);
            let end = padded_end.saturating_sub(p).min(len);
            let count = if count_include_pad {
                padded_end - padded_start
            } else {
                end - start
            };
            AvgRange { start, end, count }
        })
        .collect()
}

// ------------------------------------------------------- adaptive avg pool

/// The input range `floor(o n / out) .. ceil((o + 1) n / out)` of each output cell.
fn adaptive_ranges(len: usize, out: usize) -> Vec<(usize, usize)> {
    (0..out)
        .map(|o| ((o * len) / out, ((o + 1) * len).div_ceil(out)))
        .collect()
}

// ------------------------------------------------------------- PoolKernels

impl PoolKernels for Flex {
    /// Max pooling with the plane index (`h * width + w`) of each maximum, as an
    /// int64 tensor. Padding never wins; a NaN does (PyTorch's rule).
    fn max_pool2d_with_indices(
        x: FlexTensor,
        window: PoolWindow,
        ceil_mode: bool,
    ) -> (FlexTensor, FlexTensor) {
        let op = "max_pool2d_with_indices";
        let shape = x.shape_ref().clone();
        let out_shape = pool2d_output_shape(
            op,
            &shape,
            window.kernel,
            window.stride,
            window.padding,
            window.dilation,
            ceil_mode,
        );
        let [_, _, h, w] = dims4(op, &shape);
        let [_, _, oh, ow] = dims4(op, &out_shape);
        let dtype = x.dtype();
        with_float!(op, dtype, |E| {
            let x = x.to_contiguous();
            let input = x.contiguous_slice::<E>().expect("row-major");
            let indices = FlexTensor::build::<i64>(out_shape.clone(), DType::I64, |idx| {
                for_each_plane(input, h * w, idx, oh * ow, |plane, idx| {
                    argmax_plane::<E>(plane, [h, w], [oh, ow], &window, idx)
                });
            });
            let idx = indices.contiguous_slice::<i64>().expect("row-major");
            // Pair each input plane with its index plane, then gather.
            let pairs: Vec<(&[E], &[i64])> = input
                .chunks((h * w).max(1))
                .zip(idx.chunks((oh * ow).max(1)))
                .collect();
            let values = FlexTensor::build::<E>(out_shape.clone(), dtype, |out| {
                for_each_plane(&pairs, 1, out, oh * ow, |pair, out| {
                    let (plane, idx) = pair[0];
                    for (o, &i) in out.iter_mut().zip(idx) {
                        *o = plane[i as usize];
                    }
                });
            });
            (values, indices)
        })
    }

    /// The gradient of max pooling: `grad[o]` added at `indices[o]` of its plane.
    fn max_pool2d_backward(x_shape: &Shape, grad: FlexTensor, indices: FlexTensor) -> FlexTensor {
        let op = "max_pool2d_with_indices_backward";
        let [_, _, h, w] = dims4(op, x_shape);
        let g_shape = grad.shape_ref().clone();
        if *indices.shape_ref() != g_shape {
            panic!(
                "{op}: indices {} and output gradient {g_shape} must have the same shape",
                indices.shape_ref()
            );
        }
        let [gn, gc, oh, ow] = dims4(op, &g_shape);
        if gn != x_shape.dims[0] || gc != x_shape.dims[1] {
            panic!("{op}: output gradient {g_shape} does not match the input {x_shape}");
        }
        let idx: Vec<i64> = with_int!(op, indices.dtype(), |I| {
            indices
                .to_vec::<I>()
                .into_iter()
                .map(cast_elem::<I, i64>)
                .collect()
        });
        let dtype = grad.dtype();
        with_float!(op, dtype, |E| {
            let grad = grad.to_contiguous();
            let g = grad.contiguous_slice::<E>().expect("row-major");
            let plane_out = oh * ow;
            // Pair each gradient plane with its index plane.
            let pairs: Vec<(&[E], &[i64])> = g
                .chunks(plane_out.max(1))
                .zip(idx.chunks(plane_out.max(1)))
                .collect();
            FlexTensor::build::<E>(x_shape.clone(), dtype, |out| {
                for_each_plane(&pairs, 1, out, h * w, |pair, out| {
                    let (g, idx) = pair[0];
                    let mut acc = vec![<<E as FloatElem>::C as Zero>::zero(); h * w];
                    for (&gv, &i) in g.iter().zip(idx) {
                        let i = usize::try_from(i)
                            .ok()
                            .filter(|&i| i < h * w)
                            .unwrap_or_else(|| {
                                panic!("{op}: index {i} is outside a plane of {h}x{w}")
                            });
                        acc[i] += gv.up();
                    }
                    for (o, a) in out.iter_mut().zip(acc) {
                        *o = E::down(a);
                    }
                });
            })
        })
    }

    /// Average pooling; the divisor follows PyTorch: the window clipped to the
    /// padded input when `count_include_pad`, else its real elements.
    fn avg_pool2d(
        x: FlexTensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FlexTensor {
        let op = "avg_pool2d";
        let shape = x.shape_ref().clone();
        let out_shape = pool2d_output_shape(
            op,
            &shape,
            window.kernel,
            window.stride,
            window.padding,
            window.dilation,
            ceil_mode,
        );
        let [_, _, h, w] = dims4(op, &shape);
        let [_, _, oh, ow] = dims4(op, &out_shape);
        let dtype = x.dtype();
        let rows = avg_ranges(0, h, oh, &window, count_include_pad);
        let cols = avg_ranges(1, w, ow, &window, count_include_pad);
        with_float!(op, dtype, |E| {
            let x = x.to_contiguous();
            let input = x.contiguous_slice::<E>().expect("row-major");
            FlexTensor::build::<E>(out_shape, dtype, |out| {
                for_each_plane(input, h * w, out, oh * ow, |plane, out| {
                    for (i, r) in rows.iter().enumerate() {
                        for (j, c) in cols.iter().enumerate() {
                            let mut sum = <<E as FloatElem>::C as Zero>::zero();
                            for hi in r.start..r.end {
                                for wi in c.start..c.end {
                                    sum += plane[hi * w + wi].up();
                                }
                            }
                            let div = <<E as FloatElem>::C as NumCast>::from(r.count * c.count)
                                .expect("window size");
                            out[i * ow + j] = E::down(sum / div);
                        }
                    }
                });
            })
        })
    }

    /// The gradient of average pooling: `grad[o] / divisor` spread over window `o`.
    fn avg_pool2d_backward(
        x_shape: &Shape,
        grad: FlexTensor,
        window: PoolWindow,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FlexTensor {
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
        if *grad.shape_ref() != out_shape {
            panic!(
                "{op}: output gradient {} does not match the pooled shape {out_shape}",
                grad.shape_ref()
            );
        }
        let [_, _, h, w] = dims4(op, x_shape);
        let [_, _, oh, ow] = dims4(op, &out_shape);
        let rows = avg_ranges(0, h, oh, &window, count_include_pad);
        let cols = avg_ranges(1, w, ow, &window, count_include_pad);
        let dtype = grad.dtype();
        with_float!(op, dtype, |E| {
            let grad = grad.to_contiguous();
            let g = grad.contiguous_slice::<E>().expect("row-major");
            FlexTensor::build::<E>(x_shape.clone(), dtype, |out| {
                for_each_plane(g, oh * ow, out, h * w, |g, out| {
                    let mut acc = vec![<<E as FloatElem>::C as Zero>::zero(); h * w];
                    for (i, r) in rows.iter().enumerate() {
                        for (j, c) in cols.iter().enumerate() {
                            let div = <<E as FloatElem>::C as NumCast>::from(r.count * c.count)
                                .expect("window size");
                            let share = g[i * ow + j].up() / div;
                            for hi in r.start..r.end {
                                for wi in c.start..c.end {
                                    acc[hi * w + wi] += share;
                                }
                            }
                        }
                    }
                    for (o, a) in out.iter_mut().zip(acc) {
                        *o = E::down(a);
                    }
                });
            })
        })
    }

    /// Adaptive average pooling to `output_size`.
    fn adaptive_avg_pool2d(x: FlexTensor, output_size: [usize; 2]) -> FlexTensor {
        let op = "adaptive_avg_pool2d";
        let shape = x.shape_ref().clone();
        burn_backend::nonempty_spatial(op, &shape, output_size);
        let [n, c, h, w] = dims4(op, &shape);
        let [oh, ow] = output_size;
        let rows = adaptive_ranges(h, oh);
        let cols = adaptive_ranges(w, ow);
        let dtype = x.dtype();
        with_float!(op, dtype, |E| {
            let x = x.to_contiguous();
            let input = x.contiguous_slice::<E>().expect("row-major");
            FlexTensor::build::<E>(Shape::new([n, c, oh, ow]), dtype, |out| {
                for_each_plane(input, h * w, out, oh * ow, |plane, out| {
                    for (i, &(h0, h1)) in rows.iter().enumerate() {
                        for (j, &(w0, w1)) in cols.iter().enumerate() {
                            let mut sum = <<E as FloatElem>::C as Zero>::zero();
                            for hi in h0..h1 {
                                for wi in w0..w1 {
                                    sum += plane[hi * w + wi].up();
                                }
                            }
                            let div = <<E as FloatElem>::C as NumCast>::from((h1 - h0) * (w1 - w0))
                                .expect("window size");
                            out[i * ow + j] = E::down(sum / div);
                        }
                    }
                });
            })
        })
    }

    /// The gradient of adaptive average pooling with respect to an input of `x_shape`.
    fn adaptive_avg_pool2d_backward(x_shape: &Shape, grad: FlexTensor) -> FlexTensor {
        let op = "adaptive_avg_pool2d_backward";
        let [n, c, h, w] = dims4(op, x_shape);
        let [gn, gc, oh, ow] = dims4(op, grad.shape_ref());
        if gn != n || gc != c {
            panic!(
                "{op}: output gradient {} does not match the input {x_shape}",
                grad.shape_ref()
            );
        }
        burn_backend::nonempty_spatial(op, x_shape, [oh, ow]);
        let rows = adaptive_ranges(h, oh);
        let cols = adaptive_ranges(w, ow);
        let dtype = grad.dtype();
        with_float!(op, dtype, |E| {
            let grad = grad.to_contiguous();
            let g = grad.contiguous_slice::<E>().expect("row-major");
            FlexTensor::build::<E>(x_shape.clone(), dtype, |out| {
                for_each_plane(g, oh * ow, out, h * w, |g, out| {
                    let mut acc = vec![<<E as FloatElem>::C as Zero>::zero(); h * w];
                    for (i, &(h0, h1)) in rows.iter().enumerate() {
                        for (j, &(w0, w1)) in cols.iter().enumerate() {
                            let div = <<E as FloatElem>::C as NumCast>::from((h1 - h0) * (w1 - w0))
                                .expect("window size");
                            let share = g[i * ow + j].up() / div;
                            for hi in h0..h1 {
                                for wi in w0..w1 {
                                    acc[hi * w + wi] += share;
                                }
                            }
                        }
                    }
                    for (o, a) in out.iter_mut().zip(acc) {
                        *o = E::down(a);
                    }
                });
            })
        })
    }
}
