//! Convolutions on three spatial dims (the 1-d and 2-d ops of the contract
//! reach these through size-1 dims, which are free views): im2col + GEMM.
//!
//! For each `(batch, group)` pair the input windows form a column matrix
//! `cols: [channels/groups · kvol, out positions]` (rows in
//! `(channel, kd, kh, kw)` order, the weight's own layout), and the packed
//! GEMM of `matmul` does the arithmetic:
//!
//! - forward: `out[b, g] = W[g] · cols` (`[O/g, K] x [K, P]`), as an
//!   implicit GEMM: each group's weight is packed once per call
//!   (`PackedA`), and the column matrix is never built: a block of output
//!   positions writes its im2col rows straight into the GEMM's packed B
//!   panels, one `kc` block of rows at a time, and the product lands in
//!   the output's columns (measured on the 2-core work machine, conv2d
//!   b16 64→64 56² 3×3: 29.4–31.8 ms with a column buffer and a GEMM per
//!   block, 19.9–21.7 ms implicit);
//! - transposed: `cols = W[g]ᵀ · x[b, g]`, then `col2im` adds each column
//!   back into the window it came from;
//! - weight gradient: `dW[g] = Σ_b grad[b, g] · colsᵀ`.
//!
//! Trade-off: im2col costs `kvol` times the input in memory traffic, but
//! the GEMM runs at matmul speed for every stride, dilation and padding,
//! which a direct kernel per case would not. A 1×1 kernel with stride 1
//! and no padding skips the copy: the input already is the column matrix.
//!
//! Threads: when there are at least as many `(batch, group)` pairs as
//! threads, each thread takes pairs with its own buffers and a
//! single-threaded GEMM; otherwise pairs run in turn and the forward's
//! position blocks (or the GEMM's rows or columns) split over threads.
//! The bias is added to each pair's output while it is still in cache. K
//! is never split and batch sums run in a fixed order, so results do not
//! depend on the thread count. f16/bf16 compute in f32 and round once.

use alloc::borrow::Cow;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::ConvKernels;
use burn_backend::{ConvOptions, ConvTransposeOptions, TensorMetadata, check};
use burn_std::{DType, Shape, bf16, f16};

use super::matmul::{GemmFloat, Load, Out, PackedA, gemm_strided};
use crate::{Flex, FlexTensor};

/// The sliding-window geometry of one convolution, spatial dims only.
#[derive(Clone, Copy, Debug)]
struct Window {
    input: [usize; 3],
    kernel: [usize; 3],
    output: [usize; 3],
    stride: [usize; 3],
    padding: [usize; 3],
    dilation: [usize; 3],
}

/// What the three kernels share besides their tensors: the window and the
/// channel split.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    window: Window,
    batch: usize,
    channels: usize,
    out_channels: usize,
    groups: usize,
}

impl Window {
    fn in_vol(&self) -> usize {
        self.input.iter().product()
    }
    fn k_vol(&self) -> usize {
        self.kernel.iter().product()
    }
    fn out_vol(&self) -> usize {
        self.output.iter().product()
    }
    /// Whether the column matrix of a channel block is that block itself.
    fn is_identity(&self) -> bool {
        self.kernel == [1; 3] && self.stride == [1; 3] && self.padding == [0; 3]
    }
}

/// The dims of `shape` after `[batch, channels]`, as an array.
fn spatial(shape: &Shape) -> [usize; 3] {
    [shape.dims[2], shape.dims[3], shape.dims[4]]
}

fn forward<T: Float>(
    x: &FlexTensor,
    weight: &FlexTensor,
    bias: Option<&FlexTensor>,
    out: &mut [T],
    geometry: Geometry,
) {
    let Geometry {
        window,
        batch,
        channels,
        out_channels,
        groups,
    } = geometry;
    let (x, weight) = (T::read(x), T::read(weight));
    let bias = bias.map(T::read);
    let (cg, og) = (channels / groups, out_channels / groups);
    let (k, p) = (cg * window.k_vol(), window.out_vol());
    let in_block = cg * window.in_vol();
    // out: [B, O, P] = [B·g, O/g · P]: one chunk per (batch, group) task.
    // An implicit GEMM: each group's weight is packed once; the column
    // matrix is never built, each block of `nb` output positions writes its
    // im2col rows straight into the GEMM's packed B panels, one `kc` block
    // of rows at a time, and the product lands in the output's columns.
    let identity = window.is_identity();
    let packed: Vec<PackedA<T>> = if identity {
        Vec::new()
    } else {
        (0..groups)
            .map(|g| PackedA::new((&weight[g * og * k..][..og * k], k, 1), og, k))
            .collect()
    };
    let nb = packed.first().map_or(p, |a| a.block_cols(p));
    tasks(out, og * p, batch * groups, 0, |task, chunk, _, threads| {
        let (b, g) = (task / groups, task % groups);
        let xs = &x[(b * channels + g * cg) * window.in_vol()..][..in_block];
        if identity {
            let w = &weight[g * og * k..][..og * k];
            gemm_strided((w, k, 1), (xs, p, 1), og, p, k, chunk, threads);
        } else {
            let a = &packed[g];
            let nr = a.nr();
            let out = Out::new(chunk, p);
            let block = |i: usize| {
                let (first, n) = (i * nb, nb.min(p - i * nb));
                let fill = |pc: usize, kc: usize, panels: &mut [T]| {
                    im2col_panels(xs, cg, &window, first, n, pc..pc + kc, nr, panels)
                };
                a.product(n, fill, out, first);
            };
            let blocks = p.div_ceil(nb);
            if threads > 1 {
                crate::threads::for_each(blocks, block);
            } else {
                (0..blocks).for_each(block);
            }
        }
        if let Some(bias) = &bias {
            add_bias(chunk, &bias[g * og..][..og], p);
        }
    });
}

fn transpose<T: Float>(
    x: &FlexTensor,
    weight: &FlexTensor,
    bias: Option<&FlexTensor>,
    out: &mut [T],
    geometry: Geometry,
) {
    let Geometry {
        window,
        batch,
        channels,
        out_channels,
        groups,
    } = geometry;
    let (x, weight) = (T::read(x), T::read(weight));
    let bias = bias.map(T::read);
    let (cg, og) = (channels / groups, out_channels / groups);
    // cols: [og · kvol, P_in] = W[g]ᵀ ([cg, og · kvol] read transposed) · x[b, g] ([cg, P_in]).
    let (m, p_in) = (og * window.k_vol(), window.out_vol());
    let out_block = og * window.in_vol();
    tasks(
        out,
        out_block,
        batch * groups,
        m * p_in,
        |task, chunk, cols, threads| {
            let (b, g) = (task / groups, task % groups);
            let xs = &x[(b * channels + g * cg) * p_in..][..cg * p_in];
            let w = &weight[g * cg * m..][..cg * m];
            gemm_strided((w, 1, m), (xs, p_in, 1), m, p_in, cg, cols, threads);
            chunk.fill(T::default());
            col2im(cols, og, &window, chunk);
            if let Some(bias) = &bias {
                add_bias(chunk, &bias[g * og..][..og], window.in_vol());
            }
        },
    );
}

fn weight_grad<T: Float>(x: &FlexTensor, grad: &FlexTensor, out: &mut [T], geometry: Geometry) {
    let Geometry {
        window,
        batch,
        channels,
        out_channels,
        groups,
    } = geometry;
    let (x, grad) = (T::read(x), T::read(grad));
    let (cg, og) = (channels / groups, out_channels / groups);
    let (k, p) = (cg * window.k_vol(), window.out_vol());
    let in_block = cg * window.in_vol();
    // dW[g]: [og, K] = Σ_b grad[b, g] ([og, P]) · cols[b, g]ᵀ ([P, K] read transposed).
    let cols_len = if window.is_identity() { 0 } else { k * p };
    tasks(
        out,
        og * k,
        groups,
        cols_len + og * k,
        |g, chunk, scratch, threads| {
            let (cols, partial) = scratch.split_at_mut(cols_len);
            chunk.fill(T::default());
            for b in 0..batch {
                let xs = &x[(b * channels + g * cg) * window.in_vol()..][..in_block];
                let cols: &[T] = if window.is_identity() {
                    xs
                } else {
                    im2col(xs, cg, &window, 0, p, cols);
                    cols
                };
                let gs = &grad[(b * out_channels + g * og) * p..][..og * p];
                gemm_strided((gs, p, 1), (cols, 1, p), og, k, p, partial, threads);
                for (acc, v) in chunk.iter_mut().zip(partial.iter()) {
                    *acc = *acc + *v;
                }
            }
        },
    );
}

/// `cols[(c, a, b, e), j] = x[c, z·s + a·d − p, y·s + b·d − p, x·s + e·d − p]`
/// for the output positions `j = (z, y, x)` in `first..first + n`, zero
/// where the window hangs over the padding. `x` is `[channels, ..input]`,
/// `cols` holds `channels · kvol` rows of `n`.
fn im2col<T: Float>(x: &[T], channels: usize, w: &Window, first: usize, n: usize, cols: &mut [T]) {
    im2col_rows(
        x,
        channels,
        w,
        first,
        n,
        0..channels * w.k_vol(),
        |r, j, piece| {
            let dst = &mut cols[r * n + j..][..piece.len];
            piece.write(dst, 0);
        },
    );
}

/// Rows `rows` of [`im2col`] written straight into the GEMM's packed B
/// panels (`kc = rows.len()` groups of `nr` values per panel: element
/// `(r, j)` at `(j / nr) · kc · nr + (r − rows.start) · nr + j % nr`).
#[allow(clippy::too_many_arguments)]
fn im2col_panels<T: Float>(
    x: &[T],
    channels: usize,
    w: &Window,
    first: usize,
    n: usize,
    rows: core::ops::Range<usize>,
    nr: usize,
    dst: &mut [T],
) {
    let kc = rows.len();
    im2col_rows(x, channels, w, first, n, rows, |r, j, piece| {
        // Split the piece where it crosses from one panel into the next.
        let mut done = 0;
        while done < piece.len {
            let at = j + done;
            let len = (nr - at % nr).min(piece.len - done);
            let d = &mut dst[(at / nr) * kc * nr + r * nr + at % nr..][..len];
            piece.write(d, done);
            done += len;
        }
    });
}

/// A piece of one im2col row: `len` values, zeros (padding) or read from
/// the input at a step.
struct Piece<'a, T> {
    len: usize,
    /// The input values, the `i`-th at `src[i * step]`; `None`: zeros.
    src: Option<(&'a [T], usize)>,
}

impl<T: Float> Piece<'_, T> {
    /// Writes values `from..from + dst.len()` of the piece into `dst`.
    #[inline]
    fn write(&self, dst: &mut [T], from: usize) {
        match self.src {
            None => dst.fill(T::default()),
            Some((src, 1)) => dst.copy_from_slice(&src[from..from + dst.len()]),
            Some((src, step)) => {
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = src[(from + i) * step];
                }
            }
        }
    }
}

/// Walks rows `rows` of the im2col matrix (row `(c, a, b, e)` is `c · kvol`
/// plus the kernel position's index), columns `first..first + n`, calling
/// `put(row − rows.start, column − first, piece)` for consecutive pieces
/// that together cover each row once.
fn im2col_rows<T: Float>(
    x: &[T],
    channels: usize,
    w: &Window,
    first: usize,
    n: usize,
    rows: core::ops::Range<usize>,
    mut put: impl FnMut(usize, usize, Piece<'_, T>),
) {
    let [id, ih, iw] = w.input;
    let [_, oh, ow] = w.output;
    let s = w.stride[2];
    let kvol = w.k_vol();
    let zeros = |len| Piece { len, src: None };
    for c in rows.start / kvol..rows.end.div_ceil(kvol).min(channels) {
        let xc = &x[c * w.in_vol()..][..w.in_vol()];
        let mut r = c * kvol;
        for_each_offset(w, |off, (lo, hi)| {
            let row = r;
            r += 1;
            if !rows.contains(&row) {
                return;
            }
            let row = row - rows.start;
            // Walk the output rows (z, y) the range touches, a piece of each.
            let mut j = first;
            while j < first + n {
                let (line, x0) = (j / ow, j % ow);
                let x1 = ow.min(x0 + first + n - j);
                let at = j - first;
                j += x1 - x0;
                let iz = ((line / oh) * w.stride[0]) as isize + off[0];
                let iy = ((line % oh) * w.stride[1]) as isize + off[1];
                let (a, b) = (lo.clamp(x0, x1), hi.clamp(x0, x1));
                if iz < 0 || iz >= id as isize || iy < 0 || iy >= ih as isize || a >= b {
                    put(row, at, zeros(x1 - x0));
                    continue;
                }
                if a > x0 {
                    put(row, at, zeros(a - x0));
                }
                let src = &xc[(iz as usize * ih + iy as usize) * iw..][..iw];
                let start = ((a * s) as isize + off[2]) as usize;
                let src = Some((&src[start..], s));
                put(row, at + a - x0, Piece { len: b - a, src });
                if x1 > b {
                    put(row, at + b - x0, zeros(x1 - b));
                }
            }
        });
    }
}

/// The adjoint of [`im2col`]: each column value is added into the input
/// position it was read from. `out` is `[channels, ..input]`.
fn col2im<T: Float>(cols: &[T], channels: usize, w: &Window, out: &mut [T]) {
    let [id, ih, iw] = w.input;
    let [od, oh, ow] = w.output;
    let p = w.out_vol();
    let mut rows = cols.chunks_exact(p);
    for c in 0..channels {
        let oc = &mut out[c * w.in_vol()..][..w.in_vol()];
        for_each_offset(w, |off, (lo, hi)| {
            let row = rows.next().expect("one row per (channel, kernel offset)");
            for z in 0..od {
                let iz = (z * w.stride[0]) as isize + off[0];
                if iz < 0 || iz >= id as isize {
                    continue;
                }
                for y in 0..oh {
                    let iy = (y * w.stride[1]) as isize + off[1];
                    if iy < 0 || iy >= ih as isize {
                        continue;
                    }
                    let src = &row[(z * oh + y) * ow..][..ow];
                    let dst = &mut oc[(iz as usize * ih + iy as usize) * iw..][..iw];
                    let s = w.stride[2];
                    let first = ((lo * s) as isize + off[2]) as usize;
                    for (i, v) in src[lo..hi].iter().enumerate() {
                        let d = &mut dst[first + i * s];
                        *d = *d + *v;
                    }
                }
            }
        });
    }
}

/// Calls `f(offset, (lo, hi))` for each kernel position in `(kd, kh, kw)`
/// order: `offset[d] = k_d · dilation − padding` is where the window's
/// element sits relative to `out · stride`, and `lo..hi` the output columns
/// whose element falls inside the input width.
fn for_each_offset(w: &Window, mut f: impl FnMut([isize; 3], (usize, usize))) {
    let off = |d: usize, k: usize| (k * w.dilation[d]) as isize - w.padding[d] as isize;
    for a in 0..w.kernel[0] {
        for b in 0..w.kernel[1] {
            for e in 0..w.kernel[2] {
                let o = [off(0, a), off(1, b), off(2, e)];
                f(o, columns(w.output[2], o[2], w.stride[2], w.input[2]));
            }
        }
    }
}

/// The range of `x` in `0..out` with `0 <= x·stride + off < len`.
fn columns(out: usize, off: isize, stride: usize, len: usize) -> (usize, usize) {
    let s = stride as isize;
    let lo = if off >= 0 { 0 } else { (-off + s - 1) / s };
    let room = len as isize - off;
    let hi = if room <= 0 { 0 } else { (room + s - 1) / s };
    let (lo, hi) = (lo.min(out as isize) as usize, hi.min(out as isize) as usize);
    (lo, hi.max(lo))
}

/// Adds `bias[c]` to every position of channel `c` of `out` (`[C, positions]`).
fn add_bias<T: Float>(out: &mut [T], bias: &[T], positions: usize) {
    if positions == 0 {
        return;
    }
    for (plane, &v) in out.chunks_exact_mut(positions).zip(bias) {
        for o in plane {
            *o = *o + v;
        }
    }
}

/// Runs `f(task, chunk, scratch, gemm_threads)` for each of `count` tasks,
/// task `i` owning `out[i·chunk_len..][..chunk_len]` and a scratch buffer of
/// `scratch_len` elements. One task per worker when there are enough tasks,
/// otherwise in turn with every worker in the GEMM.
fn tasks<T: Float>(
    out: &mut [T],
    chunk_len: usize,
    count: usize,
    scratch_len: usize,
    f: impl Fn(usize, &mut [T], &mut [T], usize) + Sync + Send,
) {
    if chunk_len == 0 || count == 0 {
        return;
    }
    let threads = crate::threads::threads();
    if threads > 1 && count >= threads {
        // One column buffer per thread, made on its first task, so it is
        // allocated (and page-faulted) once per call, not per task.
        crate::threads::chunks_mut_init(
            out,
            chunk_len,
            || vec![T::default(); scratch_len],
            |scratch, i, chunk| f(i, chunk, scratch, 1),
        );
        return;
    }
    let mut scratch = vec![T::default(); scratch_len];
    for (i, chunk) in out.chunks_mut(chunk_len).enumerate() {
        f(i, chunk, &mut scratch, threads);
    }
}

/// A compute type: f32 (for f32, f16, bf16) or f64.
trait Float: GemmFloat + Load<Self> + Copy {
    /// `tensor`'s elements in logical order as this type: borrowed when it
    /// is already a contiguous tensor of this type.
    fn read(tensor: &FlexTensor) -> Cow<'_, [Self]>;
}

impl Float for f32 {
    fn read(tensor: &FlexTensor) -> Cow<'_, [f32]> {
        match tensor.dtype() {
            DType::F32 => match tensor.contiguous_slice::<f32>() {
                Some(slice) => Cow::Borrowed(slice),
                None => Cow::Owned(tensor.to_vec::<f32>()),
            },
            DType::F16 => Cow::Owned(tensor.to_vec::<f16>().iter().map(|v| v.to_f32()).collect()),
            DType::BF16 => Cow::Owned(tensor.to_vec::<bf16>().iter().map(|v| v.to_f32()).collect()),
            other => unreachable!("conv: {other} is not computed in f32"),
        }
    }
}

impl Float for f64 {
    fn read(tensor: &FlexTensor) -> Cow<'_, [f64]> {
        match tensor.contiguous_slice::<f64>() {
            Some(slice) => Cow::Borrowed(slice),
            None => Cow::Owned(tensor.to_vec::<f64>()),
        }
    }
}

/// The output buffer handed to a kernel, in its compute type.
enum Compute<'a> {
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
}

/// Builds a tensor of `dtype` and `shape` from a kernel writing in the
/// compute type; f16/bf16 results are rounded once at the end.
fn with_compute(dtype: DType, shape: Shape, kernel: impl FnOnce(Compute<'_>)) -> FlexTensor {
    match dtype {
        DType::F64 => FlexTensor::build::<f64>(shape, dtype, |out| kernel(Compute::F64(out))),
        DType::F32 => FlexTensor::build::<f32>(shape, dtype, |out| kernel(Compute::F32(out))),
        DType::F16 | DType::BF16 => {
            let mut acc = vec![0f32; shape.num_elements()];
            kernel(Compute::F32(&mut acc));
            if dtype == DType::F16 {
                let v: Vec<f16> = acc.iter().map(|&v| f16::from_f32(v)).collect();
                FlexTensor::from_vec(v, shape, dtype)
            } else {
                let v: Vec<bf16> = acc.iter().map(|&v| bf16::from_f32(v)).collect();
                FlexTensor::from_vec(v, shape, dtype)
            }
        }
        other => panic!("conv: expected a float dtype, got {other}"),
    }
}

/// The shared float dtype of the operands, or a panic naming them.
fn same_dtypes(op: &str, x: &FlexTensor, w: &FlexTensor, bias: Option<&FlexTensor>) -> DType {
    let dtype = x.dtype();
    check::float_dtype(op, dtype);
    check::same_dtype(op, dtype, w.dtype());
    if let Some(bias) = bias {
        check::same_dtype(op, dtype, bias.dtype());
    }
    dtype
}

// ------------------------------------------------------------- ConvKernels

impl ConvKernels for Flex {
    /// Convolution: `x` `[B, C, D, H, W]`, `weight` `[O, C/g, kd, kh, kw]`.
    fn conv3d(
        x: FlexTensor,
        weight: FlexTensor,
        bias: Option<FlexTensor>,
        options: ConvOptions<3>,
    ) -> FlexTensor {
        let o = options;
        let out_shape = check::conv(
            "conv3d",
            x.shape_ref(),
            weight.shape_ref(),
            bias.as_ref().map(|b| b.shape_ref()),
            &o.stride,
            &o.padding,
            &o.dilation,
            o.groups,
        );
        let dtype = same_dtypes("conv3d", &x, &weight, bias.as_ref());
        let window = Window {
            input: spatial(x.shape_ref()),
            kernel: spatial(weight.shape_ref()),
            output: spatial(&out_shape),
            stride: o.stride,
            padding: o.padding,
            dilation: o.dilation,
        };
        let geometry = Geometry {
            window,
            batch: out_shape.dims[0],
            channels: x.shape_ref().dims[1],
            out_channels: out_shape.dims[1],
            groups: o.groups,
        };
        with_compute(dtype, out_shape, |t: Compute<'_>| match t {
            Compute::F32(out) => forward::<f32>(&x, &weight, bias.as_ref(), out, geometry),
            Compute::F64(out) => forward::<f64>(&x, &weight, bias.as_ref(), out, geometry),
        })
    }

    /// The gradient of `conv3d` with respect to its weight.
    fn conv3d_weight_backward(
        x: FlexTensor,
        output_grad: FlexTensor,
        weight_shape: Shape,
        options: ConvOptions<3>,
    ) -> FlexTensor {
        let o = options;
        // Validates x against the weight shape and the options.
        let expected = check::conv(
            "conv3d_weight_backward",
            x.shape_ref(),
            &weight_shape,
            None,
            &o.stride,
            &o.padding,
            &o.dilation,
            o.groups,
        );
        let grad_shape = output_grad.shape_ref();
        if grad_shape.num_dims() != 5
            || grad_shape.dims[..2] != expected.dims[..2]
            || (0..3).any(|d| grad_shape.dims[2 + d] > expected.dims[2 + d])
        {
            panic!(
                "conv3d_weight_backward: output gradient {grad_shape} does not fit the convolution \
                 of input {} by weight {weight_shape} (output {expected})",
                x.shape_ref()
            );
        }
        let dtype = same_dtypes("conv3d_weight_backward", &x, &output_grad, None);
        let window = Window {
            input: spatial(x.shape_ref()),
            kernel: spatial(&weight_shape),
            output: spatial(grad_shape),
            stride: o.stride,
            padding: o.padding,
            dilation: o.dilation,
        };
        let geometry = Geometry {
            window,
            batch: x.shape_ref().dims[0],
            channels: x.shape_ref().dims[1],
            out_channels: weight_shape.dims[0],
            groups: o.groups,
        };
        with_compute(dtype, weight_shape, |t: Compute<'_>| match t {
            Compute::F32(out) => weight_grad::<f32>(&x, &output_grad, out, geometry),
            Compute::F64(out) => weight_grad::<f64>(&x, &output_grad, out, geometry),
        })
    }

    /// Transposed convolution: `x` `[B, C, D, H, W]`, `weight` `[C, O/g, kd, kh, kw]`.
    fn conv_transpose3d(
        x: FlexTensor,
        weight: FlexTensor,
        bias: Option<FlexTensor>,
        options: ConvTransposeOptions<3>,
    ) -> FlexTensor {
        let o = options;
        let out_shape = check::conv_transpose(
            "conv_transpose3d",
            x.shape_ref(),
            weight.shape_ref(),
            bias.as_ref().map(|b| b.shape_ref()),
            &o.stride,
            &o.padding,
            &o.padding_out,
            &o.dilation,
            o.groups,
        );
        let dtype = same_dtypes("conv_transpose3d", &x, &weight, bias.as_ref());
        // The geometry of the convolution this op transposes: its input is our
        // output, its output our input.
        let window = Window {
            input: spatial(&out_shape),
            kernel: spatial(weight.shape_ref()),
            output: spatial(x.shape_ref()),
            stride: o.stride,
            padding: o.padding,
            dilation: o.dilation,
        };
        let geometry = Geometry {
            window,
            batch: out_shape.dims[0],
            channels: x.shape_ref().dims[1],
            out_channels: out_shape.dims[1],
            groups: o.groups,
        };
        with_compute(dtype, out_shape, |t: Compute<'_>| match t {
            Compute::F32(out) => transpose::<f32>(&x, &weight, bias.as_ref(), out, geometry),
            Compute::F64(out) => transpose::<f64>(&x, &weight, bias.as_ref(), out, geometry),
        })
    }
}
