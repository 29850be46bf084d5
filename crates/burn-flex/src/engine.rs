//! The element-wise engine: one generic walker for unary (`map`) and
//! broadcast binary (`zip`) kernels, so an op is a closure and nothing else.
//!
//! Paths, fastest first:
//! 1. the input is uniquely owned and row-major and the output element has
//!    the input's size: the result is written into the input's buffer (no
//!    allocation, no page faults);
//! 2. row-major inputs: a flat loop over slices, split into fixed chunks run
//!    on rayon above [`PARALLEL_THRESHOLD`] elements;
//! 3. anything strided or broadcast: the layouts are aligned to the output
//!    shape, merged where possible, and walked row by row.
//!
//! Chunk boundaries depend only on the length, never on the thread count, so
//! results are bit-identical however many threads run.

use burn_backend::check;
use burn_std::{DType, Shape};
use bytemuck::Pod;

use crate::layout::{Layout, for_each_row, simplify_many};
use crate::tensor::FlexTensor;

/// Below this many elements a kernel runs on the calling thread: spawning
/// costs more than the work.
pub const PARALLEL_THRESHOLD: usize = 1 << 15;
/// Elements per parallel chunk.
pub const CHUNK: usize = 1 << 13;

/// Runs `f(chunk_index, chunk)` over `out` in fixed-size chunks, in parallel
/// when large enough.
#[inline]
pub fn for_each_chunk_mut<O: Send>(out: &mut [O], f: impl Fn(usize, &mut [O]) + Sync + Send) {
    #[cfg(feature = "rayon")]
    if out.len() >= PARALLEL_THRESHOLD {
        use rayon::prelude::*;
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(i, c)| f(i, c));
        return;
    }
    for (i, c) in out.chunks_mut(CHUNK).enumerate() {
        f(i, c);
    }
}

/// Applies `f` to every element, producing a tensor of `out_dtype` whose
/// element type is `O`.
pub fn map<I: Pod + Send + Sync, O: Pod + Send + Sync>(
    mut tensor: FlexTensor,
    out_dtype: DType,
    f: impl Fn(I) -> O + Sync + Send,
) -> FlexTensor {
    let shape = tensor.shape_ref().clone();
    if size_of::<I>() == size_of::<O>()
        && let Some(slice) = tensor.unique_contiguous_mut::<I>()
    {
        // Same element size: write each result over its own input.
        for_each_chunk_mut(slice, |_, chunk| {
            for x in chunk {
                *x = bytemuck::cast::<O, I>(f(*x));
            }
        });
        return tensor.relabel(out_dtype);
    }
    if let Some(input) = tensor.contiguous_slice::<I>() {
        return FlexTensor::build::<O>(shape, out_dtype, |out| {
            for_each_chunk_mut(out, |i, chunk| {
                let src = &input[i * CHUNK..i * CHUNK + chunk.len()];
                for (o, &x) in chunk.iter_mut().zip(src) {
                    *o = f(x);
                }
            })
        });
    }
    let storage = tensor.storage::<I>();
    let layout = tensor.layout();
    FlexTensor::build::<O>(shape.clone(), out_dtype, |out| {
        let (dims, [src_strides, out_strides]) = simplify_many(
            &shape.dims,
            [
                layout.strides(),
                &crate::layout::contiguous_strides(&shape.dims),
            ],
        );
        let (n, s) = (*dims.last().unwrap(), *src_strides.last().unwrap());
        for_each_row(
            &dims,
            [&src_strides, &out_strides],
            [layout.offset() as isize, 0],
            |[src, dst]| {
                let dst = &mut out[dst as usize..dst as usize + n];
                for (i, o) in dst.iter_mut().enumerate() {
                    *o = f(storage[(src + i as isize * s) as usize]);
                }
            },
        );
    })
}

/// Applies `f` pairwise after NumPy broadcasting, producing `out_dtype`.
pub fn zip<A: Pod + Send + Sync, B: Pod + Send + Sync, O: Pod + Send + Sync>(
    op: &str,
    mut lhs: FlexTensor,
    rhs: FlexTensor,
    out_dtype: DType,
    f: impl Fn(A, B) -> O + Sync + Send,
) -> FlexTensor {
    let shape = check::broadcast(op, lhs.shape_ref(), rhs.shape_ref());
    let same_shape = lhs.shape_ref() == &shape && rhs.shape_ref() == &shape;
    if same_shape && let Some(b) = rhs.contiguous_slice::<B>() {
        if size_of::<A>() == size_of::<O>()
            && let Some(a) = lhs.unique_contiguous_mut::<A>()
        {
            for_each_chunk_mut(a, |i, chunk| {
                let src = &b[i * CHUNK..i * CHUNK + chunk.len()];
                for (x, &y) in chunk.iter_mut().zip(src) {
                    *x = bytemuck::cast::<O, A>(f(*x, y));
                }
            });
            return lhs.relabel(out_dtype);
        }
        if let Some(a) = lhs.contiguous_slice::<A>() {
            return FlexTensor::build::<O>(shape, out_dtype, |out| {
                for_each_chunk_mut(out, |i, chunk| {
                    let range = i * CHUNK..i * CHUNK + chunk.len();
                    for ((o, &x), &y) in chunk.iter_mut().zip(&a[range.clone()]).zip(&b[range]) {
                        *o = f(x, y);
                    }
                })
            });
        }
    }
    zip_strided(&shape, &lhs, &rhs, out_dtype, f)
}

fn zip_strided<A: Pod, B: Pod, O: Pod>(
    shape: &Shape,
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    out_dtype: DType,
    f: impl Fn(A, B) -> O,
) -> FlexTensor {
    let (la, lb): (Layout, Layout) = (lhs.layout().expand(shape), rhs.layout().expand(shape));
    let (sa, sb) = (lhs.storage::<A>(), rhs.storage::<B>());
    FlexTensor::build::<O>(shape.clone(), out_dtype, |out| {
        let contiguous = crate::layout::contiguous_strides(&shape.dims);
        let (dims, [st_a, st_b, st_o]) =
            simplify_many(&shape.dims, [la.strides(), lb.strides(), &contiguous]);
        let n = *dims.last().unwrap();
        let (da, db) = (*st_a.last().unwrap(), *st_b.last().unwrap());
        let starts = [la.offset() as isize, lb.offset() as isize, 0];
        for_each_row(&dims, [&st_a, &st_b, &st_o], starts, |[pa, pb, po]| {
            let dst = &mut out[po as usize..po as usize + n];
            if da == 1 && db == 1 {
                let (a, b) = (
                    &sa[pa as usize..pa as usize + n],
                    &sb[pb as usize..pb as usize + n],
                );
                for ((o, &x), &y) in dst.iter_mut().zip(a).zip(b) {
                    *o = f(x, y);
                }
            } else if da == 1 && db == 0 {
                let (a, y) = (&sa[pa as usize..pa as usize + n], sb[pb as usize]);
                for (o, &x) in dst.iter_mut().zip(a) {
                    *o = f(x, y);
                }
            } else {
                for (i, o) in dst.iter_mut().enumerate() {
                    let i = i as isize;
                    *o = f(sa[(pa + i * da) as usize], sb[(pb + i * db) as usize]);
                }
            }
        });
    })
}
