//! Shape ops: views where possible, copies where needed.
//!
//! `permute`, `flip`, `expand`, `slice` (any step) and `reshape` of a
//! contiguous tensor only rewrite the [`Layout`] and share the buffer. The
//! copying ops (`slice_assign`, `cat`, `repeat_dim`, reshape of a strided
//! tensor) only move elements, so they dispatch on the element *size*
//! (`with_size!`) and copy whole rows with `copy_from_slice` where the rows
//! are contiguous.
//!
//! The walkers at the bottom ([`for_each_segment`], [`copy_strided`]) are
//! shared with `ops::index`.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::ShapeKernels;
use burn_backend::{TensorMetadata, check};
use burn_std::{Shape, Slice};
use bytemuck::Pod;

use crate::layout::{Layout, contiguous_strides, for_each_row, simplify_many};
use crate::{Flex, FlexTensor};

// ------------------------------------------------------------------ walkers

/// A fresh, uniquely owned row-major copy of `tensor` (even when it already
/// is row-major: callers write into it).
pub(crate) fn contiguous_copy(tensor: &FlexTensor) -> FlexTensor {
    let shape = tensor.shape_ref().clone();
    let dtype = tensor.dtype();
    crate::with_size!(dtype, |E| {
        FlexTensor::build::<E>(shape.clone(), dtype, |out| {
            let storage = tensor.storage::<E>();
            if let Some(src) = tensor.contiguous_slice::<E>() {
                out.copy_from_slice(src);
                return;
            }
            let layout = tensor.layout();
            let (dims, [src_strides, _]) = simplify_many(
                &shape.dims,
                [layout.strides(), &contiguous_strides(&shape.dims)],
            );
            let rank = dims.len();
            let offset = layout.offset() as isize;
            if rank >= 2
                && src_strides[rank - 2].unsigned_abs() == 1
                && src_strides[rank - 1].unsigned_abs() > 1
                && dims[rank - 2] >= TILE / 2
                && dims[rank - 1] >= TILE / 2
            {
                // A transpose of the last two dims: copy in tiles so reads
                // and writes both stay within a few cache lines.
                copy_transposed(out, storage, &dims, &src_strides, offset);
                return;
            }
            let s = src_strides[rank - 1];
            for_each_segment(
                out,
                &dims,
                [&src_strides],
                [offset],
                move |seg: &mut [E], [p]| {
                    copy_run(seg, storage, p, s);
                },
            );
        })
    })
}

/// Tile edge (elements) of [`copy_transposed`]: a 32 x 32 tile of 8-byte
/// elements reads 32 source lines of 256 bytes, well within L1.
const TILE: usize = 32;

/// Row-major copy of a view whose last two dims are transposed (`dims` and
/// `strides` simplified, the second-to-last stride of magnitude 1), walked
/// in `TILE x TILE` tiles. Bands of `TILE` output rows run in parallel above
/// the parallel threshold.
fn copy_transposed<E: Pod + Send + Sync>(
    out: &mut [E],
    src: &[E],
    dims: &[usize],
    strides: &[isize],
    offset: isize,
) {
    let rank = dims.len();
    let (rows, cols) = (dims[rank - 2], dims[rank - 1]);
    let (s_r, s_c) = (strides[rank - 2], strides[rank - 1]);
    let plane = rows * cols;
    let band = TILE * cols;
    // Source offset of output plane `p` (an index over the leading dims).
    let plane_start = |p: usize| {
        let mut rest = p;
        let mut start = offset;
        for d in (0..rank - 2).rev() {
            start += (rest % dims[d]) as isize * strides[d];
            rest /= dims[d];
        }
        start
    };
    let fill_band = |dst: &mut [E], start: isize| {
        let h = dst.len() / cols;
        for j0 in (0..cols).step_by(TILE) {
            let j1 = (j0 + TILE).min(cols);
            for i in 0..h {
                let row = &mut dst[i * cols + j0..i * cols + j1];
                let first = start + i as isize * s_r + j0 as isize * s_c;
                for (j, o) in row.iter_mut().enumerate() {
                    *o = src[(first + j as isize * s_c) as usize];
                }
            }
        }
    };
    if out.len() >= crate::engine::PARALLEL_THRESHOLD {
        // Enough planes: one task each; else the bands of each plane.
        if out.len() / plane.max(1) >= 2 * crate::threads::threads() {
            crate::threads::chunks_mut(out, plane, |p, plane_out| {
                let start = plane_start(p);
                for (b, dst) in plane_out.chunks_mut(band).enumerate() {
                    fill_band(dst, start + (b * TILE) as isize * s_r);
                }
            });
        } else {
            for (p, plane_out) in out.chunks_mut(plane).enumerate() {
                let start = plane_start(p);
                crate::threads::chunks_mut(plane_out, band, |b, dst| {
                    fill_band(dst, start + (b * TILE) as isize * s_r);
                });
            }
        }
        return;
    }
    for (p, plane_out) in out.chunks_mut(plane).enumerate() {
        let start = plane_start(p);
        for (b, dst) in plane_out.chunks_mut(band).enumerate() {
            fill_band(dst, start + (b * TILE) as isize * s_r);
        }
    }
}

/// Copies `src[start + i * stride]` into `dst[i]` for every `i`.
#[inline]
pub(crate) fn copy_run<E: Copy>(dst: &mut [E], src: &[E], start: isize, stride: isize) {
    let n = dst.len();
    if n == 0 {
        return;
    }
    let start = start as usize;
    match stride {
        1 => dst.copy_from_slice(&src[start..start + n]),
        0 => dst.fill(src[start]),
        s if s > 0 => {
            let s = s as usize;
            let src = &src[start..=start + (n - 1) * s];
            for (i, o) in dst.iter_mut().enumerate() {
                *o = src[i * s];
            }
        }
        s => {
            let s = s.unsigned_abs();
            // The run walks backwards from `start`.
            let lo = start - (n - 1) * s;
            let src = &src[lo..=start];
            let last = start - lo;
            for (i, o) in dst.iter_mut().enumerate() {
                *o = src[last - i * s];
            }
        }
    }
}

/// Copies a strided view of `src` (`dims`, `src_strides` from `src_offset`)
/// into a strided view of `dst` (`dst_strides` from `dst_offset`), in
/// row-major order of `dims`. Both views must lie inside their slices (the
/// indexing is checked, so a bad view panics, never corrupts memory).
pub(crate) fn copy_strided<E: Pod>(
    dims: &[usize],
    dst: &mut [E],
    dst_strides: &[isize],
    dst_offset: usize,
    src: &[E],
    src_strides: &[isize],
    src_offset: usize,
) {
    if dims.contains(&0) {
        return;
    }
    let (dims, [ds, ss]) = simplify_many(dims, [dst_strides, src_strides]);
    let n = *dims.last().unwrap();
    let (a, b) = (*ds.last().unwrap(), *ss.last().unwrap());
    let starts = [dst_offset as isize, src_offset as isize];
    for_each_row(&dims, [&ds, &ss], starts, |[pd, ps]| {
        if a == 1 {
            let pd = pd as usize;
            copy_run(&mut dst[pd..pd + n], src, ps, b);
        } else {
            for i in 0..n as isize {
                dst[(pd + i * a) as usize] = src[(ps + i * b) as usize];
            }
        }
    });
}

/// Walks a row-major output `out` together with `N` strided operands.
///
/// `dims` and `strides` come from [`simplify_many`] applied to the output
/// shape with the operands' strides *and* the output's contiguous strides
/// (so the merged dims stay row-major for the output). `f(segment, starts)`
/// receives consecutive pieces of `out` that lie within one innermost row;
/// element `i` of a segment matches element `starts[k] + i * inner_k` of
/// operand `k`, where `inner_k` is the operand's last simplified stride.
///
/// Above [`PARALLEL_THRESHOLD`](crate::engine::PARALLEL_THRESHOLD) elements
/// the output is split into fixed chunks of
/// [`CHUNK`](crate::engine::CHUNK) elements run on the worker threads; each element is
/// written by exactly one call whatever the thread count.
pub(crate) fn for_each_segment<O: Send, const N: usize>(
    out: &mut [O],
    dims: &[usize],
    strides: [&[isize]; N],
    starts: [isize; N],
    f: impl Fn(&mut [O], [isize; N]) + Sync + Send,
) {
    if out.is_empty() {
        return;
    }
    debug_assert_eq!(out.len(), dims.iter().product::<usize>());
    if out.len() >= crate::engine::PARALLEL_THRESHOLD {
        let chunk = crate::engine::CHUNK;
        crate::threads::chunks_mut(out, chunk, |c, part| {
            walk_segments(part, c * chunk, dims, strides, starts, &f);
        });
        return;
    }
    walk_segments(out, 0, dims, strides, starts, &f);
}

/// The sequential body of [`for_each_segment`] for the output elements
/// `first..first + out.len()`.
fn walk_segments<O, const N: usize>(
    out: &mut [O],
    first: usize,
    dims: &[usize],
    strides: [&[isize]; N],
    starts: [isize; N],
    f: &impl Fn(&mut [O], [isize; N]),
) {
    let rank = dims.len();
    let n = dims[rank - 1];
    let inner: [isize; N] = core::array::from_fn(|k| strides[k][rank - 1]);
    // Unravel the first element into an outer index and a column.
    let mut col = first % n;
    let mut rest = first / n;
    let mut index = vec![0usize; rank - 1];
    let mut base = starts;
    for d in (0..rank - 1).rev() {
        index[d] = rest % dims[d];
        rest /= dims[d];
        for k in 0..N {
            base[k] += index[d] as isize * strides[k][d];
        }
    }
    let mut done = 0;
    while done < out.len() {
        let len = (n - col).min(out.len() - done);
        let pos: [isize; N] = core::array::from_fn(|k| base[k] + col as isize * inner[k]);
        f(&mut out[done..done + len], pos);
        done += len;
        col = 0;
        // Advance the odometer over the outer dims.
        for d in (0..rank - 1).rev() {
            index[d] += 1;
            for k in 0..N {
                base[k] += strides[k][d];
            }
            if index[d] < dims[d] {
                break;
            }
            for k in 0..N {
                base[k] -= strides[k][d] * dims[d] as isize;
            }
            index[d] = 0;
        }
    }
}

// ------------------------------------------------------------ ShapeKernels

impl ShapeKernels for Flex {
    /// New shape, a view when the layout is contiguous.
    fn reshape(tensor: FlexTensor, shape: Shape) -> FlexTensor {
        check::reshape("reshape", tensor.shape_ref(), &shape);
        if let Some(layout) = tensor.layout().reshape(&shape) {
            return tensor.with_layout(layout);
        }
        let contiguous = contiguous_copy(&tensor);
        let layout = Layout::contiguous(shape);
        contiguous.with_layout(layout)
    }

    /// Reorders dims (view).
    fn permute(tensor: FlexTensor, axes: &[usize]) -> FlexTensor {
        check::permute("permute", tensor.shape_ref(), axes);
        let layout = tensor.layout().permute(axes);
        tensor.with_layout(layout)
    }

    /// Reverses axes (view).
    fn flip(tensor: FlexTensor, axes: &[usize]) -> FlexTensor {
        let shape = tensor.shape_ref();
        let rank = shape.num_dims();
        let mut seen = vec![false; rank];
        for &a in axes {
            if a >= rank {
                panic!(
                    "flip: axis {a} is out of range for a tensor of shape {shape} (rank {rank})"
                );
            }
            if core::mem::replace(&mut seen[a], true) {
                panic!("flip: axis {a} appears twice in {axes:?}");
            }
        }
        let layout = tensor.layout().flip(axes);
        tensor.with_layout(layout)
    }

    /// Broadcasts to `shape` (view).
    fn expand(tensor: FlexTensor, shape: Shape) -> FlexTensor {
        check::expand("expand", tensor.shape_ref(), &shape);
        let layout = tensor.layout().expand(&shape);
        tensor.with_layout(layout)
    }

    /// Sub-tensor with steps (view).
    fn slice(tensor: FlexTensor, slices: &[Slice]) -> FlexTensor {
        let ranges = check::slices("slice", tensor.shape_ref(), slices);
        let layout = tensor.layout().slice(&ranges);
        tensor.with_layout(layout)
    }

    /// Writes `value` into the sliced region.
    ///
    /// The region is written in place when `tensor` owns its buffer alone and is
    /// row-major from the start; otherwise `tensor` is copied first.
    fn slice_assign(tensor: FlexTensor, slices: &[Slice], value: FlexTensor) -> FlexTensor {
        let op = "slice_assign";
        let ranges = check::slices(op, tensor.shape_ref(), slices);
        let region = check::sliced_shape(&ranges);
        if value.shape_ref() != &region {
            panic!(
                "{op}: value of shape {} does not match the region {region} selected from a tensor of shape {}",
                value.shape_ref(),
                tensor.shape_ref()
            );
        }
        check::same_dtype(op, tensor.dtype(), value.dtype());
        let dtype = tensor.dtype();
        let shape = tensor.shape_ref().clone();
        // Where the region lies in a row-major buffer of `shape`.
        let target = Layout::contiguous(shape.clone()).slice(&ranges);
        crate::with_size!(dtype, |E| {
            let write = |out: &mut [E]| {
                copy_strided::<E>(
                    &region.dims,
                    out,
                    target.strides(),
                    target.offset(),
                    value.storage::<E>(),
                    value.layout().strides(),
                    value.layout().offset(),
                );
            };
            let mut tensor = tensor;
            if let Some(out) = tensor.unique_contiguous_mut::<E>() {
                write(out);
                return tensor;
            }
            let mut out = contiguous_copy(&tensor);
            let slice = out
                .unique_contiguous_mut::<E>()
                .expect("a fresh copy is uniquely owned and contiguous");
            write(slice);
            out
        })
    }

    /// Concatenates along `dim`.
    fn cat(tensors: Vec<FlexTensor>, dim: usize) -> FlexTensor {
        let op = "cat";
        let shapes: Vec<Shape> = tensors.iter().map(|t| t.shape_ref().clone()).collect();
        let shape = check::cat(op, &shapes, dim);
        let dtype = tensors[0].dtype();
        for t in &tensors[1..] {
            check::same_dtype(op, dtype, t.dtype());
        }
        if tensors.len() == 1 {
            return tensors.into_iter().next().unwrap();
        }
        let out_strides = contiguous_strides(&shape.dims);
        let inner: usize = shape.dims[dim + 1..].iter().product();
        let outer: usize = shape.dims[..dim].iter().product();
        let out_row = shape.dims[dim] * inner;
        crate::with_size!(dtype, |E| {
            FlexTensor::build::<E>(shape.clone(), dtype, |out| {
                let mut start = 0usize;
                for t in &tensors {
                    let block = t.shape_ref().dims[dim] * inner;
                    if block == 0 || outer == 0 {
                        continue;
                    }
                    if let Some(src) = t.contiguous_slice::<E>() {
                        // Each outer index holds one run of `block` elements.
                        for (o, run) in src.chunks_exact(block).enumerate() {
                            let at = o * out_row + start;
                            out[at..at + block].copy_from_slice(run);
                        }
                    } else {
                        copy_strided::<E>(
                            &t.shape_ref().dims,
                            out,
                            &out_strides,
                            start,
                            t.storage::<E>(),
                            t.layout().strides(),
                            t.layout().offset(),
                        );
                    }
                    start += block;
                }
            })
        })
    }

    /// Repeats along `dim`: `[a, b]` repeated twice along dim 0 is `[2a, b]`,
    /// the whole tensor tiled (like `torch.Tensor.repeat`).
    fn repeat_dim(tensor: FlexTensor, dim: usize, times: usize) -> FlexTensor {
        check::dim("repeat_dim", dim, tensor.shape_ref());
        if times == 1 {
            return tensor;
        }
        let layout = tensor.layout();
        let dims = &tensor.shape_ref().dims;
        // View the input as [..before, times, dim.., ..after] with a zero stride
        // on the new axis, then copy that view row-major: the copy *is* the
        // output, laid out as [..before, times * dims[dim], ..after].
        let mut view_dims = dims.clone();
        view_dims.insert(dim, times);
        let mut view_strides = layout.strides().to_vec();
        view_strides.insert(dim, 0);
        let view = Layout::new(Shape::from(view_dims), view_strides, layout.offset());
        let copied = contiguous_copy(&tensor.with_layout(view));
        let mut out_dims = dims.clone();
        out_dims[dim] *= times;
        copied.with_layout(Layout::contiguous(Shape::from(out_dims)))
    }
}
