//! 3-d convolution, its weight gradient, and 3-d transposed convolution
//! (the 1-d/2-d ops use the trait's defaults over these and matmul).
//!
//! Direct kernels, one thread per element written, each summing its own
//! terms (no atomics, results independent of scheduling):
//!
//! - forward: one thread per output `(b, o, z, y, x)` over the `C/g` input
//!   channels of its group and the kernel taps that land inside the input;
//! - weight gradient: one thread per weight `(o, c, kd, kh, kw)` over the
//!   batch and the output positions;
//! - transposed: one thread per output `(b, o, z, y, x)` gathering the
//!   input positions whose window tap lands on it (`i·s + k·d − p = z`).
//!
//! Positions are compared in padded coordinates (`z + p`) so every index
//! stays unsigned. Operands may have any strides and offset; f16/bf16
//! accumulate in f32 (f64 in f64) and round once, as Flex does.

use burn_backend::{ConvOptions, ConvTransposeOptions, check};
use burn_std::{DType, Shape};
use cubecl::prelude::*;

use super::elemwise_dims;
use super::pool::float_acc_types;
use crate::CubeTensor;
use crate::client::with_runtime;

/// The row-major coordinates of `pos` in a contiguous 5-d `out`.
#[cube]
fn coords5<F: Float>(out: &Tensor<F>, pos: usize) -> (usize, usize, usize, usize, usize) {
    let w = out.shape(4);
    let h = out.shape(3);
    let d = out.shape(2);
    let c = out.shape(1);
    let x = pos % w;
    let y = (pos / w) % h;
    let z = (pos / (w * h)) % d;
    let ch = (pos / (w * h * d)) % c;
    let b = pos / (w * h * d * c);
    (b, ch, z, y, x)
}

/// One thread per output element of a convolution.
#[allow(clippy::too_many_arguments)]
#[cube(launch_unchecked)]
fn conv3d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    weight: &Tensor<F>,
    bias: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    w_offset: usize,
    b_offset: usize,
    stride: Sequence<usize>,
    padding: Sequence<usize>,
    dilation: Sequence<usize>,
    groups: usize,
    #[comptime] has_bias: bool,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let (b, o, z, y, xo) = coords5::<F>(out, pos);
    let cg = weight.shape(1);
    let og = out.shape(1) / groups;
    let c0 = (o / og) * cg;
    let (id, ih, iw) = (x.shape(2), x.shape(3), x.shape(4));
    let (kd, kh, kw) = (weight.shape(2), weight.shape(3), weight.shape(4));
    let (s0, s1, s2) = (stride[0], stride[1], stride[2]);
    let (p0, p1, p2) = (padding[0], padding[1], padding[2]);
    let (d0, d1, d2) = (dilation[0], dilation[1], dilation[2]);
    let x_base = x_offset + b * x.stride(0);
    let w_base = w_offset + o * weight.stride(0);
    let mut acc = A::cast_from(0u32);
    for ci in 0..cg {
        let xc = x_base + (c0 + ci) * x.stride(1);
        let wc = w_base + ci * weight.stride(1);
        for a in 0..kd {
            let zp = z * s0 + a * d0;
            if zp >= p0 && zp < p0 + id {
                let xz = xc + (zp - p0) * x.stride(2);
                let wz = wc + a * weight.stride(2);
                for e in 0..kh {
                    let yp = y * s1 + e * d1;
                    if yp >= p1 && yp < p1 + ih {
                        let xy = xz + (yp - p1) * x.stride(3);
                        let wy = wz + e * weight.stride(3);
                        for f in 0..kw {
                            let xp = xo * s2 + f * d2;
                            if xp >= p2 && xp < p2 + iw {
                                let xv = A::cast_from(x[xy + (xp - p2) * x.stride(4)]);
                                let wv = A::cast_from(weight[wy + f * weight.stride(4)]);
                                acc += xv * wv;
                            }
                        }
                    }
                }
            }
        }
    }
    if comptime![has_bias] {
        acc += A::cast_from(bias[b_offset + o * bias.stride(0)]);
    }
    out[pos] = F::cast_from(acc);
}

/// One thread per weight element: `Σ_b Σ_pos x[b, c, pos·s + k·d − p] ·
/// grad[b, o, pos]` over the output positions of `grad`.
#[cube(launch_unchecked)]
fn conv3d_weight_grad_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    grad: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    g_offset: usize,
    stride: Sequence<usize>,
    padding: Sequence<usize>,
    dilation: Sequence<usize>,
    groups: usize,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let (o, ci, a, e, f) = coords5::<F>(out, pos);
    let cg = out.shape(1);
    let og = out.shape(0) / groups;
    let c = (o / og) * cg + ci;
    let (id, ih, iw) = (x.shape(2), x.shape(3), x.shape(4));
    let (od, oh, ow) = (grad.shape(2), grad.shape(3), grad.shape(4));
    let (s0, s1, s2) = (stride[0], stride[1], stride[2]);
    let (p0, p1, p2) = (padding[0], padding[1], padding[2]);
    let (d0, d1, d2) = (dilation[0], dilation[1], dilation[2]);
    let mut acc = A::cast_from(0u32);
    for b in 0..x.shape(0) {
        let xc = x_offset + b * x.stride(0) + c * x.stride(1);
        let gc = g_offset + b * grad.stride(0) + o * grad.stride(1);
        for z in 0..od {
            let zp = z * s0 + a * d0;
            if zp >= p0 && zp < p0 + id {
                let xz = xc + (zp - p0) * x.stride(2);
                let gz = gc + z * grad.stride(2);
                for y in 0..oh {
                    let yp = y * s1 + e * d1;
                    if yp >= p1 && yp < p1 + ih {
                        let xy = xz + (yp - p1) * x.stride(3);
                        let gy = gz + y * grad.stride(3);
                        for xo in 0..ow {
                            let xp = xo * s2 + f * d2;
                            if xp >= p2 && xp < p2 + iw {
                                let xv = A::cast_from(x[xy + (xp - p2) * x.stride(4)]);
                                let gv = A::cast_from(grad[gy + xo * grad.stride(4)]);
                                acc += xv * gv;
                            }
                        }
                    }
                }
            }
        }
    }
    out[pos] = F::cast_from(acc);
}

/// One thread per output element of a transposed convolution: the input
/// positions `i` and taps `k` with `i·s + k·d = z + p`, over the input
/// channels of the output channel's group.
#[cube(launch_unchecked)]
fn conv_transpose3d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    weight: &Tensor<F>,
    bias: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    w_offset: usize,
    b_offset: usize,
    stride: Sequence<usize>,
    padding: Sequence<usize>,
    dilation: Sequence<usize>,
    groups: usize,
    #[comptime] has_bias: bool,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let (b, o, z, y, xo) = coords5::<F>(out, pos);
    let og = weight.shape(1);
    let cg = x.shape(1) / groups;
    let (g, oc) = (o / og, o % og);
    let (id, ih, iw) = (x.shape(2), x.shape(3), x.shape(4));
    let (kd, kh, kw) = (weight.shape(2), weight.shape(3), weight.shape(4));
    let (s0, s1, s2) = (stride[0], stride[1], stride[2]);
    let (d0, d1, d2) = (dilation[0], dilation[1], dilation[2]);
    let zp = z + padding[0];
    let yp = y + padding[1];
    let xp = xo + padding[2];
    let x_base = x_offset + b * x.stride(0);
    let mut acc = A::cast_from(0u32);
    for ci in 0..cg {
        let c = g * cg + ci;
        let xc = x_base + c * x.stride(1);
        let wc = w_offset + c * weight.stride(0) + oc * weight.stride(1);
        for a in 0..kd {
            let ka = a * d0;
            let qz = (zp - ka) / s0;
            if zp >= ka && qz * s0 == zp - ka && qz < id {
                let xz = xc + qz * x.stride(2);
                let wz = wc + a * weight.stride(2);
                for e in 0..kh {
                    let ke = e * d1;
                    let qy = (yp - ke) / s1;
                    if yp >= ke && qy * s1 == yp - ke && qy < ih {
                        let xy = xz + qy * x.stride(3);
                        let wy = wz + e * weight.stride(3);
                        for f in 0..kw {
                            let kf = f * d2;
                            let qx = (xp - kf) / s2;
                            if xp >= kf && qx * s2 == xp - kf && qx < iw {
                                let xv = A::cast_from(x[xy + qx * x.stride(4)]);
                                let wv = A::cast_from(weight[wy + f * weight.stride(4)]);
                                acc += xv * wv;
                            }
                        }
                    }
                }
            }
        }
    }
    if comptime![has_bias] {
        acc += A::cast_from(bias[b_offset + o * bias.stride(0)]);
    }
    out[pos] = F::cast_from(acc);
}

/// The three values of a spatial option as a kernel argument.
fn seq3<R: Runtime>(values: [usize; 3]) -> SequenceArg<R, usize> {
    let mut seq = SequenceArg::new();
    for v in values {
        seq.push(v);
    }
    seq
}

/// The shared float dtype of the operands, or a panic naming them.
#[track_caller]
fn same_dtypes(op: &str, x: &CubeTensor, w: &CubeTensor, bias: Option<&CubeTensor>) -> DType {
    let dtype = x.dtype;
    check::float_dtype(op, dtype);
    check::same_dtype(op, dtype, w.dtype);
    if let Some(bias) = bias {
        check::same_dtype(op, dtype, bias.dtype);
    }
    dtype
}

/// 3-d convolution: `x` `[B, C, D, H, W]`, `weight` `[O, C/g, kd, kh, kw]`,
/// `bias` `[O]`.
pub fn conv3d(
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    options: ConvOptions<3>,
) -> CubeTensor {
    let op = "conv3d";
    let o = options;
    let out_shape = check::conv(
        op,
        &x.shape,
        &weight.shape,
        bias.as_ref().map(|b| &b.shape),
        &o.stride,
        &o.padding,
        &o.dilation,
        o.groups,
    );
    let dtype = same_dtypes(op, &x, &weight, bias.as_ref());
    let out = x.empty_like(out_shape, dtype);
    let len = out.num_elements();
    if len == 0 {
        return out;
    }
    let types = float_acc_types(dtype);
    let has_bias = bias.is_some();
    let bias = bias.unwrap_or_else(|| weight.clone());
    with_runtime!(&x.client, R, cl => {
        let (count, dim) = elemwise_dims(cl, len);
        unsafe {
            conv3d_kernel::launch_unchecked::<R>(
                cl, count, dim,
                x.arg::<R>(), weight.arg::<R>(), bias.arg::<R>(), out.arg::<R>(),
                len, x.offset, weight.offset, bias.offset,
                seq3::<R>(o.stride), seq3::<R>(o.padding), seq3::<R>(o.dilation),
                o.groups, has_bias, types,
            );
        }
    });
    out
}

/// Gradient of conv3d with respect to the weight, of shape `weight_shape`;
/// the spatial sizes of `output_grad` give the output positions summed over.
pub fn conv3d_weight_backward(
    x: CubeTensor,
    output_grad: CubeTensor,
    weight_shape: Shape,
    options: ConvOptions<3>,
) -> CubeTensor {
    let op = "conv3d_weight_backward";
    let o = options;
    // Validates x against the weight shape and the options.
    let expected = check::conv(
        op,
        &x.shape,
        &weight_shape,
        None,
        &o.stride,
        &o.padding,
        &o.dilation,
        o.groups,
    );
    let grad_shape = &output_grad.shape;
    if grad_shape.num_dims() != 5
        || grad_shape.dims[..2] != expected.dims[..2]
        || (0..3).any(|d| grad_shape.dims[2 + d] > expected.dims[2 + d])
    {
        panic!(
            "{op}: output gradient {grad_shape} does not fit the convolution \
             of input {} by weight {weight_shape} (output {expected})",
            x.shape
        );
    }
    let dtype = same_dtypes(op, &x, &output_grad, None);
    let out = x.empty_like(weight_shape.clone(), dtype);
    let len = out.num_elements();
    if len == 0 {
        return out;
    }
    let types = float_acc_types(dtype);
    with_runtime!(&x.client, R, cl => {
        let (count, dim) = elemwise_dims(cl, len);
        unsafe {
            conv3d_weight_grad_kernel::launch_unchecked::<R>(
                cl, count, dim,
                x.arg::<R>(), output_grad.arg::<R>(), out.arg::<R>(),
                len, x.offset, output_grad.offset,
                seq3::<R>(o.stride), seq3::<R>(o.padding), seq3::<R>(o.dilation),
                o.groups, types,
            );
        }
    });
    out
}

/// 3-d transposed convolution: `x` `[B, C, D, H, W]`, `weight`
/// `[C, O/g, kd, kh, kw]`, `bias` `[O]`.
pub fn conv_transpose3d(
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    options: ConvTransposeOptions<3>,
) -> CubeTensor {
    let op = "conv_transpose3d";
    let o = options;
    let out_shape = check::conv_transpose(
        op,
        &x.shape,
        &weight.shape,
        bias.as_ref().map(|b| &b.shape),
        &o.stride,
        &o.padding,
        &o.padding_out,
        &o.dilation,
        o.groups,
    );
    let dtype = same_dtypes(op, &x, &weight, bias.as_ref());
    let out = x.empty_like(out_shape, dtype);
    let len = out.num_elements();
    if len == 0 {
        return out;
    }
    let types = float_acc_types(dtype);
    let has_bias = bias.is_some();
    let bias = bias.unwrap_or_else(|| weight.clone());
    with_runtime!(&x.client, R, cl => {
        let (count, dim) = elemwise_dims(cl, len);
        unsafe {
            conv_transpose3d_kernel::launch_unchecked::<R>(
                cl, count, dim,
                x.arg::<R>(), weight.arg::<R>(), bias.arg::<R>(), out.arg::<R>(),
                len, x.offset, weight.offset, bias.offset,
                seq3::<R>(o.stride), seq3::<R>(o.padding), seq3::<R>(o.dilation),
                o.groups, has_bias, types,
            );
        }
    });
    out
}
