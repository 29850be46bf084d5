//! 2-d interpolation (nearest, bilinear, bicubic) and its gradient.
//!
//! Every mode is separable: output `(i, j)` is
//! `Σ_a Σ_b wr[i][a]·wc[j][b]·x[ir[i][a], ic[j][b]]` over 1, 2 or 4 taps per
//! axis. The tap tables (source index and weight of each tap) are computed
//! on the host with PyTorch's source-index rules, in f64 as Flex does, and
//! uploaded; the forward kernel gathers through them, one thread per output
//! element.
//!
//! The backward kernel runs one thread per *input* element, with the tables
//! inverted per axis (for each input index, the `(output, weight)` pairs of
//! the taps reading it, in output order): each thread sums the output
//! gradients it contributed to, so no two threads write one element and no
//! atomics are needed. f16/bf16 accumulate in f32.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::InterpolateKernels;
use burn_backend::{InterpolateMode, InterpolateOptions, check, dims4, nonempty_spatial};
use burn_std::{DType, Shape, TensorData};
use cubecl::prelude::*;

use super::elemwise_dims;
use super::pool::{acc_dtype, float_acc_types};
use crate::client::with_runtime;
use crate::{CubeBackend, CubeDevice, CubeTensor};

/// The taps of one axis: output `o` reads `index[o·taps + t]` with weight
/// `weight[o·taps + t]`.
struct Taps {
    taps: usize,
    index: Vec<usize>,
    weight: Vec<f64>,
}

/// Keys' cubic convolution weight for `|x| <= 1`.
fn cubic_near(x: f64, a: f64) -> f64 {
    ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
}

/// Keys' cubic convolution weight for `1 < |x| < 2`.
fn cubic_far(x: f64, a: f64) -> f64 {
    ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
}

/// The tap table of an axis resized from `input` to `output` elements.
fn taps(input: usize, output: usize, options: InterpolateOptions) -> Taps {
    let scale = if options.align_corners {
        if output > 1 {
            (input - 1) as f64 / (output - 1) as f64
        } else {
            0.0
        }
    } else {
        input as f64 / output as f64
    };
    // The source coordinate of output `o`; linear modes clamp it below at
    // 0, cubic keeps it (its taps are clamped instead).
    let source = |o: usize, cubic: bool| {
        if options.align_corners {
            scale * o as f64
        } else {
            let src = scale * (o as f64 + 0.5) - 0.5;
            if !cubic && src < 0.0 { 0.0 } else { src }
        }
    };
    let last = input - 1;
    match options.mode {
        InterpolateMode::Nearest => {
            // PyTorch's nearest index is computed in f32, with the 1x and 2x
            // sizes special-cased.
            let scale = input as f32 / output as f32;
            let index = (0..output)
                .map(|o| {
                    if output == input {
                        o
                    } else if output == 2 * input {
                        o / 2
                    } else {
                        ((o as f32 * scale).floor() as usize).min(last)
                    }
                })
                .collect();
            Taps {
                taps: 1,
                index,
                weight: vec![1.0; output],
            }
        }
        InterpolateMode::Bilinear => {
            let mut index = Vec::with_capacity(2 * output);
            let mut weight = Vec::with_capacity(2 * output);
            for o in 0..output {
                let src = source(o, false);
                let i0 = (src as usize).min(last);
                let i1 = if i0 < last { i0 + 1 } else { i0 };
                let t = src - i0 as f64;
                index.extend([i0, i1]);
                weight.extend([1.0 - t, t]);
            }
            Taps {
                taps: 2,
                index,
                weight,
            }
        }
        InterpolateMode::Bicubic => {
            const A: f64 = -0.75;
            let mut index = Vec::with_capacity(4 * output);
            let mut weight = Vec::with_capacity(4 * output);
            for o in 0..output {
                let src = source(o, true);
                let base = src.floor();
                let t = src - base;
                let base = base as isize;
                for k in 0..4 {
                    index.push((base - 1 + k).clamp(0, last as isize) as usize);
                }
                weight.extend([
                    cubic_far(t + 1.0, A),
                    cubic_near(t, A),
                    cubic_near(1.0 - t, A),
                    cubic_far(2.0 - t, A),
                ]);
            }
            Taps {
                taps: 4,
                index,
                weight,
            }
        }
    }
}

/// The inverse of a tap table over an input of `input` elements: for input
/// `i`, the entries `offsets[i]..offsets[i + 1]` of `outputs`/`weights`
/// are the `(output, weight)` of every tap reading `i`, in output order.
struct Inverse {
    offsets: Vec<u32>,
    outputs: Vec<u32>,
    weights: Vec<f64>,
}

fn invert(taps: &Taps, input: usize) -> Inverse {
    let mut counts = vec![0u32; input + 1];
    for &i in &taps.index {
        counts[i + 1] += 1;
    }
    for i in 0..input {
        counts[i + 1] += counts[i];
    }
    let offsets = counts.clone();
    let total = taps.index.len();
    let mut outputs = vec![0u32; total];
    let mut weights = vec![0f64; total];
    let mut next = counts;
    for (e, (&i, &w)) in taps.index.iter().zip(&taps.weight).enumerate() {
        let at = next[i] as usize;
        outputs[at] = (e / taps.taps) as u32;
        weights[at] = w;
        next[i] += 1;
    }
    Inverse {
        offsets,
        outputs,
        weights,
    }
}

/// `values` as a 1-d tensor on `device`.
fn upload_u32(values: Vec<u32>, device: &CubeDevice) -> CubeTensor {
    let len = values.len();
    CubeTensor::from_data(TensorData::new(values, [len]), device)
}

/// `values` as a 1-d tensor of the accumulator dtype `acc` on `device`.
fn upload_weights(values: &[f64], acc: DType, device: &CubeDevice) -> CubeTensor {
    let len = values.len();
    let data = if acc == DType::F64 {
        TensorData::new(values.to_vec(), [len])
    } else {
        TensorData::new(
            values.iter().map(|&w| w as f32).collect::<Vec<f32>>(),
            [len],
        )
    };
    CubeTensor::from_data(data, device)
}

/// One thread per output element: the weighted taps of its row and column.
#[cube(launch_unchecked)]
fn interpolate_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    row_index: &Tensor<u32>,
    row_weight: &Tensor<A>,
    col_index: &Tensor<u32>,
    col_weight: &Tensor<A>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    row_taps: usize,
    col_taps: usize,
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
    let mut sum = A::cast_from(0u32);
    for a in 0..row_taps {
        let r = i * row_taps + a;
        let row = base + usize::cast_from(row_index[r]) * x.stride(2);
        let mut line = A::cast_from(0u32);
        for b in 0..col_taps {
            let t = j * col_taps + b;
            let v = A::cast_from(x[row + usize::cast_from(col_index[t]) * x.stride(3)]);
            line += col_weight[t] * v;
        }
        sum += row_weight[r] * line;
    }
    out[pos] = F::cast_from(sum);
}

/// One thread per input element: the output gradients of the taps that
/// read it, through the inverted tables.
#[cube(launch_unchecked)]
fn interpolate_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    row_offsets: &Tensor<u32>,
    row_outputs: &Tensor<u32>,
    row_weights: &Tensor<A>,
    col_offsets: &Tensor<u32>,
    col_outputs: &Tensor<u32>,
    col_weights: &Tensor<A>,
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
    let base = grad_offset + n * grad.stride(0) + c * grad.stride(1);
    let r0 = usize::cast_from(row_offsets[hi]);
    let r1 = usize::cast_from(row_offsets[hi + 1]);
    let c0 = usize::cast_from(col_offsets[wi]);
    let c1 = usize::cast_from(col_offsets[wi + 1]);
    let mut acc = A::cast_from(0u32);
    // Each term is `wc·(wr·g)`, as Flex forms it; only inputs read by two
    // taps of one output (clamped borders) add them in another order.
    for e in r0..r1 {
        let row = base + usize::cast_from(row_outputs[e]) * grad.stride(2);
        let wr = row_weights[e];
        for f in c0..c1 {
            let g = A::cast_from(grad[row + usize::cast_from(col_outputs[f]) * grad.stride(3)]);
            acc += col_weights[f] * (wr * g);
        }
    }
    out[pos] = F::cast_from(acc);
}

// ------------------------------------------------------ InterpolateKernels

impl InterpolateKernels for CubeBackend {
    /// Resizes `[n, c, h, w]` to `output_size`.
    fn interpolate(
        x: CubeTensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> CubeTensor {
        let op = "interpolate";
        nonempty_spatial(op, &x.shape, output_size);
        check::float_dtype(op, x.dtype);
        let [n, c, h, w] = dims4(op, &x.shape);
        let [oh, ow] = output_size;
        let dtype = x.dtype;
        let out = x.empty_like(Shape::new([n, c, oh, ow]), dtype);
        let len = out.num_elements();
        if len == 0 {
            return out;
        }
        let (rows, cols) = (taps(h, oh, options), taps(w, ow, options));
        let acc = acc_dtype(dtype);
        let device = x.device.clone();
        let index = |t: &Taps| upload_u32(t.index.iter().map(|&i| i as u32).collect(), &device);
        let (row_index, col_index) = (index(&rows), index(&cols));
        let row_weight = upload_weights(&rows.weight, acc, &device);
        let col_weight = upload_weights(&cols.weight, acc, &device);
        let types = float_acc_types(dtype);
        with_runtime!(&x.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                interpolate_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    x.arg::<R>(),
                    row_index.arg::<R>(), row_weight.arg::<R>(),
                    col_index.arg::<R>(), col_weight.arg::<R>(),
                    out.arg::<R>(),
                    len, x.offset, rows.taps, cols.taps, types,
                );
            }
        });
        out
    }

    /// Gradient of [`interpolate`] with respect to its input.
    fn interpolate_backward(
        x_shape: &Shape,
        grad: CubeTensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> CubeTensor {
        let op = "interpolate_backward";
        nonempty_spatial(op, x_shape, output_size);
        let [n, c, h, w] = dims4(op, x_shape);
        let [oh, ow] = output_size;
        if grad.shape.dims[..] != [n, c, oh, ow] {
            panic!(
                "{op}: output gradient {} does not match [{n}, {c}, {oh}, {ow}]",
                grad.shape
            );
        }
        check::float_dtype(op, grad.dtype);
        let dtype = grad.dtype;
        let out = grad.empty_like(x_shape.clone(), dtype);
        let len = out.num_elements();
        if len == 0 {
            return out;
        }
        let rows = invert(&taps(h, oh, options), h);
        let cols = invert(&taps(w, ow, options), w);
        let acc = acc_dtype(dtype);
        let device = grad.device.clone();
        let upload = |inv: Inverse| {
            (
                upload_u32(inv.offsets, &device),
                upload_u32(inv.outputs, &device),
                upload_weights(&inv.weights, acc, &device),
            )
        };
        let (row_offsets, row_outputs, row_weights) = upload(rows);
        let (col_offsets, col_outputs, col_weights) = upload(cols);
        let types = float_acc_types(dtype);
        with_runtime!(&grad.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                interpolate_backward_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    grad.arg::<R>(),
                    row_offsets.arg::<R>(), row_outputs.arg::<R>(), row_weights.arg::<R>(),
                    col_offsets.arg::<R>(), col_outputs.arg::<R>(), col_weights.arg::<R>(),
                    out.arg::<R>(),
                    len, grad.offset, types,
                );
            }
        });
        out
    }
}
