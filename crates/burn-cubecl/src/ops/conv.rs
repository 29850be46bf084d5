//! 3-d convolution, its weight gradient, and 3-d transposed convolution
//! (the 1-d/2-d ops use the trait's defaults over these).
//!
//! The forward pass and the weight gradient are matrix products over a
//! column matrix (`im2col`: one row per input channel and kernel tap, one
//! column per batch and output position), and the transposed convolution
//! (the input gradient) a matrix product giving a column matrix that a
//! gather folds into the output (`col2im`), so they run on the tuned matmul
//! routines (tensor cores for f16/bf16); a column matrix is built a batch
//! chunk at a time when it would pass 1 GiB of f32.
//!
//! Direct kernels, one thread per element written, each summing its own
//! terms (no atomics, results independent of scheduling), take the
//! problems where even one batch's column matrix is too big:
//!
//! - forward: one thread per output `(b, o, z, y, x)` over the `C/g` input
//!   channels of its group and the kernel taps that land inside the input;
//! - weight gradient: one thread per weight `(o, c, kd, kh, kw)` over the
//!   batch and the output positions;
//! - transposed: one thread per output `(b, o, z, y, x)` gathering the
//!   input positions whose window tap lands on it (`i·s + k·d − p = z`).
//!
//! Positions are compared in padded coordinates (`z + p`) so every index
//! stays unsigned. Operands may have any strides and offset; the direct
//! kernels accumulate f16/bf16 in f32 (f64 in f64) and round once, as Flex
//! does; the matmul routes accumulate in f32 too, and `col2im` sums f16/bf16
//! column entries (already rounded once) in f32.

use alloc::vec::Vec;

use burn_backend::kernels::{
    BinaryKernels, ConvKernels, MatmulKernels, ReduceKernels, ShapeKernels,
};
use burn_backend::{BinaryOp, ConvOptions, ConvTransposeOptions, ReduceOp, check};
use burn_std::{DType, Shape};
use cubecl::prelude::*;

use super::elemwise_dims;
use super::pool::float_acc_types;
use crate::client::with_runtime;
use crate::{CubeBackend, CubeTensor};

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

/// The column matrix of a convolution: one thread per input channel `c`
/// and column `n = b·L + l` (batch `batch0 + b`, output position
/// `l = (z·oh + y)·ow + x`), writing the input element each kernel tap
/// `tap = (a·kh + e)·kw + f` reads there (zero in the padding) to row
/// `c·taps + tap`: `cols[b·batch_stride + row·row_stride + l]`. Consecutive
/// threads take consecutive positions, so reads and writes coalesce, and
/// the index arithmetic is done once per thread, not per element.
#[allow(clippy::too_many_arguments)]
#[cube(launch_unchecked)]
fn im2col_kernel<F: Float>(
    x: &Tensor<F>,
    cols: &mut Tensor<F>,
    len: usize,
    x_offset: usize,
    batch0: usize,
    width: usize,
    batch_stride: usize,
    row_stride: usize,
    out_size: Sequence<usize>,
    kernel: Sequence<usize>,
    stride: Sequence<usize>,
    padding: Sequence<usize>,
    dilation: Sequence<usize>,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let (od, oh, ow) = (out_size[0], out_size[1], out_size[2]);
    let (kd, kh, kw) = (kernel[0], kernel[1], kernel[2]);
    let (s0, s1, s2) = (stride[0], stride[1], stride[2]);
    let (d0, d1, d2) = (dilation[0], dilation[1], dilation[2]);
    let (p0, p1, p2) = (padding[0], padding[1], padding[2]);
    let (id, ih, iw) = (x.shape(2), x.shape(3), x.shape(4));
    let positions = od * oh * ow;
    let n = pos % width;
    let c = pos / width;
    let l = n % positions;
    let bl = n / positions;
    let xo = l % ow;
    let y = (l / ow) % oh;
    let z = l / (ow * oh);
    let x_base = x_offset + (batch0 + bl) * x.stride(0) + c * x.stride(1);
    let mut dst = bl * batch_stride + c * kd * kh * kw * row_stride + l;
    for a in 0..kd {
        let zp = z * s0 + a * d0;
        let z_in = zp >= p0 && zp < p0 + id;
        for e in 0..kh {
            let yp = y * s1 + e * d1;
            let zy_in = z_in && yp >= p1 && yp < p1 + ih;
            for f in 0..kw {
                let xp = xo * s2 + f * d2;
                let mut v = F::cast_from(0u32);
                if zy_in && xp >= p2 && xp < p2 + iw {
                    v = x[x_base
                        + (zp - p0) * x.stride(2)
                        + (yp - p1) * x.stride(3)
                        + (xp - p2) * x.stride(4)];
                }
                cols[dst] = v;
                dst += row_stride;
            }
        }
    }
}

/// One thread per output element of a transposed convolution, summing the
/// column matrix `cols[o·taps + tap, b·Lin + i]` (weightᵀ times input) over
/// the taps `tap` whose input position `i` lands on it (`i·s + tap·d − p`),
/// plus the bias. Writes `len` elements of `out` from `start`, the first
/// of batch `batch0` (the column matrix's first batch).
#[allow(clippy::too_many_arguments)]
#[cube(launch_unchecked)]
fn col2im_kernel<F: Float, A: Float>(
    cols: &Tensor<F>,
    bias: &Tensor<F>,
    out: &mut Tensor<F>,
    len: usize,
    start: usize,
    b_offset: usize,
    batch0: usize,
    width: usize,
    in_size: Sequence<usize>,
    kernel: Sequence<usize>,
    stride: Sequence<usize>,
    padding: Sequence<usize>,
    dilation: Sequence<usize>,
    #[comptime] has_bias: bool,
    #[define(F, A)] _dtypes: [StorageType; 2],
) {
    if ABSOLUTE_POS >= len {
        terminate!();
    }
    let pos = ABSOLUTE_POS + start;
    let (b, o, z, y, xo) = coords5::<F>(out, pos);
    let b = b - batch0;
    let (id, ih, iw) = (in_size[0], in_size[1], in_size[2]);
    let (kd, kh, kw) = (kernel[0], kernel[1], kernel[2]);
    let (s0, s1, s2) = (stride[0], stride[1], stride[2]);
    let (d0, d1, d2) = (dilation[0], dilation[1], dilation[2]);
    let zp = z + padding[0];
    let yp = y + padding[1];
    let xp = xo + padding[2];
    let col_base = b * id * ih * iw;
    let row_base = o * kd * kh * kw;
    let mut acc = A::cast_from(0u32);
    for a in 0..kd {
        let ka = a * d0;
        let qz = (zp - ka) / s0;
        if zp >= ka && qz * s0 == zp - ka && qz < id {
            for e in 0..kh {
                let ke = e * d1;
                let qy = (yp - ke) / s1;
                if yp >= ke && qy * s1 == yp - ke && qy < ih {
                    for f in 0..kw {
                        let kf = f * d2;
                        let qx = (xp - kf) / s2;
                        if xp >= kf && qx * s2 == xp - kf && qx < iw {
                            let row = row_base + (a * kh + e) * kw + f;
                            let col = col_base + (qz * ih + qy) * iw + qx;
                            acc += A::cast_from(cols[row * width + col]);
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

// ------------------------------------------------- column matrix + matmul

/// Elements of the largest column matrix built at once (1 GiB of f32);
/// bigger problems are cut into batch chunks.
const COLS_LIMIT: usize = 1 << 28;

/// Batches per column matrix for a convolution of `x` by a weight of
/// `weight` shape with output (or output gradient) `out`: as many as fit
/// under [`COLS_LIMIT`], `None` when even one batch does not (the direct
/// kernels take those).
fn gemm_chunk(x: &CubeTensor, weight: &Shape, out: &Shape) -> Option<usize> {
    let rows: usize = x.shape.dims[1] * weight.dims[2..].iter().product::<usize>();
    batches_per_chunk(
        x.shape.dims[0],
        rows * out.dims[2..].iter().product::<usize>(),
    )
}

/// Batches per column matrix of `per_batch` elements a batch, `None` when
/// one batch passes [`COLS_LIMIT`].
fn batches_per_chunk(batch: usize, per_batch: usize) -> Option<usize> {
    let chunk = COLS_LIMIT / per_batch.max(1);
    (chunk > 0 && batch > 0).then(|| chunk.min(batch))
}

/// How [`im2col`] lays out its rows and columns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ColsLayout {
    /// `[groups, C/g · taps, nb · L]`: one product over every batch.
    Wide,
    /// `[nb, groups, C/g · taps, L]`: one product per batch.
    PerBatch,
}

/// The column matrix of batches `b0 .. b0 + nb` of `x` for kernel taps
/// `kernel` and output sizes `out_size` (each group's channels are a
/// contiguous block of rows).
fn im2col(
    x: &CubeTensor,
    b0: usize,
    nb: usize,
    kernel: [usize; 3],
    out_size: [usize; 3],
    o: &ConvOptions<3>,
    layout: ColsLayout,
) -> CubeTensor {
    let channels = x.shape.dims[1];
    let taps = kernel.iter().product::<usize>();
    let rows = channels * taps;
    let positions = out_size.iter().product::<usize>();
    let width = nb * positions;
    let g = o.groups;
    let (shape, batch_stride, row_stride) = match layout {
        ColsLayout::Wide => (Shape::new([g, rows / g, width]), positions, width),
        ColsLayout::PerBatch => (
            Shape::new([nb, g, rows / g, positions]),
            rows * positions,
            positions,
        ),
    };
    let cols = x.empty_like(shape, x.dtype);
    let len = channels * width;
    if len == 0 {
        return cols;
    }
    let ty = crate::dtype::storage(x.dtype);
    with_runtime!(&x.client, R, cl => {
        let (count, dim) = elemwise_dims(cl, len);
        unsafe {
            im2col_kernel::launch_unchecked::<R>(
                cl, count, dim,
                x.arg::<R>(), cols.arg::<R>(),
                len, x.offset, b0, width, batch_stride, row_stride,
                seq3::<R>(out_size), seq3::<R>(kernel),
                seq3::<R>(o.stride), seq3::<R>(o.padding), seq3::<R>(o.dilation),
                ty,
            );
        }
    });
    cols
}

/// The spatial part of a 5-d shape.
fn spatial(shape: &Shape) -> [usize; 3] {
    [shape.dims[2], shape.dims[3], shape.dims[4]]
}

/// `t`'s batches `b0 .. b0 + nb` as a view.
fn batch_slice(t: &CubeTensor, b0: usize, nb: usize) -> CubeTensor {
    let mut view = t.clone();
    view.offset += b0 * t.strides[0];
    view.shape.dims[0] = nb;
    view
}

/// Forward convolution as a matrix product per group, the transposed
/// column matrix `[g, B · L, C/g · taps]` times the transposed weight
/// `[g, C/g · taps, O/g]` (both column-major views; on the H200 this
/// orientation beat weight × columns, 0.38 against 0.45 ms in f32 and 0.16
/// against 0.39 ms in f16, `examples/conv_algorithms.rs`), giving
/// `[g, B, L, O/g]`; the channels are moved before the positions while the
/// bias is added (or in a copy). f16/bf16 take the tensor-core routines
/// with f32 accumulation, f32 the strict unit ones (see `matmul`).
fn conv3d_gemm(
    x: &CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    o: &ConvOptions<3>,
    out_shape: &Shape,
    chunk: usize,
) -> CubeTensor {
    use super::shape::copy_contiguous;
    let [batch, oc] = [out_shape.dims[0], out_shape.dims[1]];
    let g = o.groups;
    let kernel = spatial(&weight.shape);
    let out_size = spatial(out_shape);
    let positions = out_size.iter().product::<usize>();
    let w_cols = weight.shape.dims[1..].iter().product::<usize>();
    let w_t = CubeBackend::permute(
        CubeBackend::reshape(weight, Shape::new([g, oc / g, w_cols])),
        &[0, 2, 1],
    );
    let bias = bias.map(|b| CubeBackend::reshape(b, Shape::new([1, g, oc / g, 1])));
    let mut parts = Vec::new();
    for b0 in (0..batch).step_by(chunk) {
        let nb = chunk.min(batch - b0);
        let cols = im2col(x, b0, nb, kernel, out_size, o, ColsLayout::Wide);
        let y = CubeBackend::matmul(CubeBackend::permute(cols, &[0, 2, 1]), w_t.clone());
        // [g, nb·L, O/g] → [nb, g, O/g, L], contiguous after the add/copy.
        let y = CubeBackend::permute(
            CubeBackend::reshape(y, Shape::new([g, nb, positions, oc / g])),
            &[1, 0, 3, 2],
        );
        let y = match &bias {
            Some(b) => CubeBackend::binary(BinaryOp::Add, y, b.clone()),
            None => copy_contiguous(&y),
        };
        let [od, oh, ow] = out_size;
        parts.push(CubeBackend::reshape(y, Shape::new([nb, oc, od, oh, ow])));
    }
    if parts.len() == 1 {
        parts.pop().unwrap()
    } else {
        CubeBackend::cat(parts, 0)
    }
}

/// Weight gradient as one matrix product per batch and group, the output
/// gradient `[B, g, O/g, L]` (a view of its own layout) times the
/// transposed per-batch column matrix `[B, g, L, C/g · taps]`, summed over
/// the batches. One product per batch gives the matmul `B` times more
/// output tiles than a single product with `B · L` terms each (which left
/// most of the H200 idle: 34.8 ms in f32 against 21.1 ms for the direct
/// kernel), at the cost of a `[B, O, C/g · taps]` partial sum.
fn conv3d_weight_gemm(
    x: &CubeTensor,
    grad: &CubeTensor,
    weight_shape: Shape,
    o: &ConvOptions<3>,
    chunk: usize,
) -> CubeTensor {
    let batch = x.shape.dims[0];
    let oc = weight_shape.dims[0];
    let g = o.groups;
    let kernel = spatial(&weight_shape);
    let out_size = spatial(&grad.shape);
    let positions = out_size.iter().product::<usize>();
    let mut sum: Option<CubeTensor> = None;
    for b0 in (0..batch).step_by(chunk) {
        let nb = chunk.min(batch - b0);
        let cols = im2col(x, b0, nb, kernel, out_size, o, ColsLayout::PerBatch);
        let gv = CubeBackend::reshape(
            batch_slice(grad, b0, nb),
            Shape::new([nb, g, oc / g, positions]),
        );
        let partial = CubeBackend::matmul(gv, CubeBackend::permute(cols, &[0, 1, 3, 2]));
        let dw = CubeBackend::reduce_dim(ReduceOp::Sum, partial, 0);
        sum = Some(match sum {
            Some(acc) => CubeBackend::binary(BinaryOp::Add, acc, dw),
            None => dw,
        });
    }
    let dw = sum.expect("conv3d_weight_backward: a batch of at least one");
    CubeBackend::reshape(dw, weight_shape)
}

/// Transposed convolution as a matrix product per group, the transposed
/// weight `[g, O/g · taps, C/g]` times the input `[g, C/g, B · Lin]`, then
/// a gather of each output element's taps from that column matrix
/// (`col2im`), with the bias.
fn conv_transpose3d_gemm(
    x: &CubeTensor,
    weight: CubeTensor,
    bias: Option<&CubeTensor>,
    o: &ConvTransposeOptions<3>,
    out: &CubeTensor,
    chunk: usize,
) {
    use super::shape::copy_contiguous;
    let [batch, channels] = [x.shape.dims[0], x.shape.dims[1]];
    let g = o.groups;
    let in_size = spatial(&x.shape);
    let kernel = spatial(&weight.shape);
    let og_taps = weight.shape.dims[1..].iter().product::<usize>();
    let positions = in_size.iter().product::<usize>();
    let w = CubeBackend::reshape(weight, Shape::new([g, channels / g, og_taps]));
    let w_t = CubeBackend::permute(w, &[0, 2, 1]);
    let has_bias = bias.is_some();
    let bias = bias.cloned().unwrap_or_else(|| out.clone());
    let types = float_acc_types(out.dtype);
    for b0 in (0..batch).step_by(chunk) {
        let nb = chunk.min(batch - b0);
        let xs = CubeBackend::permute(batch_slice(x, b0, nb), &[1, 0, 2, 3, 4]);
        let xs = CubeBackend::reshape(
            copy_contiguous(&xs),
            Shape::new([g, channels / g, nb * positions]),
        );
        let cols = CubeBackend::matmul(w_t.clone(), xs);
        let per_batch = out.num_elements() / batch;
        let len = nb * per_batch;
        with_runtime!(&x.client, R, cl => {
            let (count, dim) = elemwise_dims(cl, len);
            unsafe {
                col2im_kernel::launch_unchecked::<R>(
                    cl, count, dim,
                    cols.arg::<R>(), bias.arg::<R>(), out.arg::<R>(),
                    len, b0 * per_batch, bias.offset, b0, nb * positions,
                    seq3::<R>(in_size), seq3::<R>(kernel),
                    seq3::<R>(o.stride), seq3::<R>(o.padding), seq3::<R>(o.dilation),
                    has_bias, types,
                );
            }
        });
    }
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

/// How a convolution (forward or weight gradient) is computed; see the
/// module docs. For tests and benchmarks comparing the two; the ops pick
/// `Gemm` whenever one batch's column matrix fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvAlgorithm {
    /// One thread per element written, summing its own terms.
    Direct,
    /// Column matrix and matmul, `batches` batches per column matrix.
    Gemm {
        /// Batches per column matrix (at least 1).
        batches: usize,
    },
}

/// [`conv3d`] by the given algorithm; the operands must already have
/// passed [`conv3d`]'s checks, `out_shape` being the output shape.
pub fn conv3d_with(
    algorithm: ConvAlgorithm,
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    o: ConvOptions<3>,
    out_shape: Shape,
) -> CubeTensor {
    if let ConvAlgorithm::Gemm { batches } = algorithm {
        return conv3d_gemm(&x, weight, bias, &o, &out_shape, batches.max(1));
    }
    let out = x.empty_like(out_shape, x.dtype);
    let len = out.num_elements();
    let types = float_acc_types(x.dtype);
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

/// [`conv3d_weight_backward`] by the given algorithm; the operands must
/// already have passed its checks.
pub fn conv3d_weight_backward_with(
    algorithm: ConvAlgorithm,
    x: CubeTensor,
    output_grad: CubeTensor,
    weight_shape: Shape,
    o: ConvOptions<3>,
) -> CubeTensor {
    if let ConvAlgorithm::Gemm { batches } = algorithm {
        return conv3d_weight_gemm(&x, &output_grad, weight_shape, &o, batches.max(1));
    }
    let out = x.empty_like(weight_shape, x.dtype);
    let len = out.num_elements();
    let types = float_acc_types(x.dtype);
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

/// [`conv_transpose3d`] by the given algorithm; the operands must already
/// have passed its checks, `out_shape` being the output shape.
pub fn conv_transpose3d_with(
    algorithm: ConvAlgorithm,
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    o: ConvTransposeOptions<3>,
    out_shape: Shape,
) -> CubeTensor {
    let out = x.empty_like(out_shape, x.dtype);
    if let ConvAlgorithm::Gemm { batches } = algorithm {
        conv_transpose3d_gemm(&x, weight, bias.as_ref(), &o, &out, batches.max(1));
        return out;
    }
    let len = out.num_elements();
    let types = float_acc_types(x.dtype);
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

// ------------------------------------------------------------- ConvKernels

impl ConvKernels for CubeBackend {
    /// 3-d convolution: `x` `[B, C, D, H, W]`, `weight` `[O, C/g, kd, kh, kw]`,
    /// `bias` `[O]`.
    fn conv3d(
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
        if out_shape.num_elements() == 0 {
            return x.empty_like(out_shape, dtype);
        }
        let algorithm = match gemm_chunk(&x, &weight.shape, &out_shape) {
            Some(batches) => ConvAlgorithm::Gemm { batches },
            None => ConvAlgorithm::Direct,
        };
        conv3d_with(algorithm, x, weight, bias, o, out_shape)
    }

    /// Gradient of conv3d with respect to the weight, of shape `weight_shape`;
    /// the spatial sizes of `output_grad` give the output positions summed over.
    fn conv3d_weight_backward(
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
        if weight_shape.num_elements() == 0 {
            return x.empty_like(weight_shape, dtype);
        }
        let algorithm = match gemm_chunk(&x, &weight_shape, grad_shape) {
            Some(batches) => ConvAlgorithm::Gemm { batches },
            None => ConvAlgorithm::Direct,
        };
        conv3d_weight_backward_with(algorithm, x, output_grad, weight_shape, o)
    }

    /// 3-d transposed convolution: `x` `[B, C, D, H, W]`, `weight`
    /// `[C, O/g, kd, kh, kw]`, `bias` `[O]`.
    fn conv_transpose3d(
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
        if out_shape.num_elements() == 0 {
            return x.empty_like(out_shape, dtype);
        }
        let rows = out_shape.dims[1] * spatial(&weight.shape).iter().product::<usize>();
        let positions = spatial(&x.shape).iter().product::<usize>();
        let algorithm = match batches_per_chunk(x.shape.dims[0], rows * positions) {
            Some(batches) => ConvAlgorithm::Gemm { batches },
            None => ConvAlgorithm::Direct,
        };
        conv_transpose3d_with(algorithm, x, weight, bias, o, out_shape)
    }
}
