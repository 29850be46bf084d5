//! Resizing of `[batch, channels, height, width]` planes (nearest, bilinear,
//! bicubic) and its backward pass, with PyTorch's source-index rules.
//!
//! Every mode is separable: output pixel `(i, j)` is
//! `sum_a sum_b wh[i][a] * ww[j][b] * x[ih[i][a]][iw[j][b]]` over a few taps
//! per axis (1, 2 or 4). The tap tables are computed once per axis; the
//! forward pass gathers through them and the backward pass scatters the
//! output gradient back through the same weights, plane by plane.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::InterpolateKernels;
use burn_backend::{InterpolateMode, InterpolateOptions, TensorMetadata, dims4, nonempty_spatial};
use burn_std::Shape;
use num_traits::{NumCast, Zero};

use crate::ops::elem::FloatElem;
use crate::ops::pool::for_each_plane;
use crate::with_float;
use crate::{Flex, FlexTensor};

/// The taps of one axis: output `o` reads `index[o * taps + t]` with weight
/// `weight[o * taps + t]`.
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
    // PyTorch's scale: corner centres aligned, or edges aligned.
    let scale = if options.align_corners {
        if output > 1 {
            (input - 1) as f64 / (output - 1) as f64
        } else {
            0.0
        }
    } else {
        input as f64 / output as f64
    };
    let source = |o: usize, cubic: bool| {
        if options.align_corners {
            scale * o as f64
        } else {
            let src = scale * (o as f64 + 0.5) - 0.5;
            // Linear modes clamp below 0; cubic keeps it (its taps clamp).
            if !cubic && src < 0.0 { 0.0 } else { src }
        }
    };
    let last = input - 1;
    match options.mode {
        InterpolateMode::Nearest => {
            // PyTorch computes this index in f32 (and shortcuts sizes 1x and 2x).
            let scale = input as f32 / output as f32;
            let index = (0..output)
                .map(|o| {
                    if output == input {
                        o
                    } else if output == 2 * input {
                        o / 2
                    } else {
                        (libm::floorf(o as f32 * scale) as usize).min(last)
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
                let base = libm::floor(src);
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

/// The weights of a tap table in the compute type of `E`.
fn weights<E: FloatElem>(taps: &Taps) -> Vec<E::C> {
    taps.weight
        .iter()
        .map(|&w| <<E as FloatElem>::C as NumCast>::from(w).expect("finite weight"))
        .collect()
}

// ------------------------------------------------------ InterpolateKernels

impl InterpolateKernels for Flex {
    /// Resizes every plane of `x` to `output_size`.
    fn interpolate(
        x: FlexTensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FlexTensor {
        let op = "interpolate";
        let shape = x.shape_ref().clone();
        nonempty_spatial(op, &shape, output_size);
        let [n, c, h, w] = dims4(op, &shape);
        let [oh, ow] = output_size;
        let (rows, cols) = (taps(h, oh, options), taps(w, ow, options));
        let dtype = x.dtype();
        with_float!(op, dtype, |E| {
            let x = x.to_contiguous();
            let input = x.contiguous_slice::<E>().expect("row-major");
            let (wr, wc) = (weights::<E>(&rows), weights::<E>(&cols));
            let (tr, tc) = (rows.taps, cols.taps);
            FlexTensor::build::<E>(Shape::new([n, c, oh, ow]), dtype, |out| {
                for_each_plane(input, h * w, out, oh * ow, |plane, out| {
                    for i in 0..oh {
                        for j in 0..ow {
                            let mut sum = <<E as FloatElem>::C as Zero>::zero();
                            for a in 0..tr {
                                let row = rows.index[i * tr + a] * w;
                                let mut line = <<E as FloatElem>::C as Zero>::zero();
                                for b in 0..tc {
                                    let v = plane[row + cols.index[j * tc + b]].up();
                                    line += wc[j * tc + b] * v;
                                }
                                sum += wr[i * tr + a] * line;
                            }
                            out[i * ow + j] = E::down(sum);
                        }
                    }
                });
            })
        })
    }

    /// The gradient of [`interpolate`] with respect to an input of `x_shape`.
    fn interpolate_backward(
        x_shape: &Shape,
        grad: FlexTensor,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FlexTensor {
        let op = "interpolate_backward";
        nonempty_spatial(op, x_shape, output_size);
        let [n, c, h, w] = dims4(op, x_shape);
        let [oh, ow] = output_size;
        if grad.shape_ref().dims[..] != [n, c, oh, ow] {
            panic!(
                "{op}: output gradient {} does not match [{n}, {c}, {oh}, {ow}]",
                grad.shape_ref()
            );
        }
        let (rows, cols) = (taps(h, oh, options), taps(w, ow, options));
        let dtype = grad.dtype();
        with_float!(op, dtype, |E| {
            let grad = grad.to_contiguous();
            let g = grad.contiguous_slice::<E>().expect("row-major");
            let (wr, wc) = (weights::<E>(&rows), weights::<E>(&cols));
            let (tr, tc) = (rows.taps, cols.taps);
            FlexTensor::build::<E>(x_shape.clone(), dtype, |out| {
                for_each_plane(g, oh * ow, out, h * w, |g, out| {
                    let mut acc = vec![<<E as FloatElem>::C as Zero>::zero(); h * w];
                    for i in 0..oh {
                        for j in 0..ow {
                            let gv = g[i * ow + j].up();
                            for a in 0..tr {
                                let row = rows.index[i * tr + a] * w;
                                let ga = wr[i * tr + a] * gv;
                                for b in 0..tc {
                                    let at = row + cols.index[j * tc + b];
                                    acc[at] += wc[j * tc + b] * ga;
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
