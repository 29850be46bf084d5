//! The element-wise engine: one generic walker for unary (`map`) and
//! broadcast binary (`zip`) kernels, so an op is a closure and nothing else.
//!
//! Paths, fastest first:
//! 1. the input is uniquely owned and row-major and the output element has
//!    the input's size: the result is written into the input's buffer (no
//!    allocation, no page faults);
//! 2. row-major inputs: a flat loop over slices, split into fixed chunks run
//!    on the worker threads ([`crate::threads`]) above [`PARALLEL_THRESHOLD`] elements;
//! 3. anything strided or broadcast: the layouts are aligned to the output
//!    shape, merged where possible, and walked row by row.
//!
//! Chunk boundaries depend only on the length, never on the thread count, so
//! results are bit-identical however many threads run.
//!
//! The hot loops of every path run through [`vectorized`], which compiles
//! them once more for AVX-512 and for AVX2 + FMA and picks the widest the
//! CPU has at run time (the crate itself is built for baseline x86-64, whose
//! SSE2 is 4 f32 lanes). Auto-vectorization never reorders float operations
//! and Rust never contracts `a * b + c` into an FMA, so every variant gives
//! the same bits. Loops shorter than [`VECTORIZE_MIN`] elements stay at
//! baseline width, where entering the wide variant costs more than it saves.

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

// ------------------------------------------------------- SIMD dispatch

/// The instruction sets [`vectorized`] compiles its closure for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The build target's own features (SSE2 on baseline x86-64); the only
    /// choice without `std` or off x86-64.
    Portable,
    /// AVX2 and FMA: 8 f32 lanes.
    Avx2,
    /// AVX-512 F/BW/VL with AVX2 and FMA: 16 f32 lanes.
    Avx512,
}

/// The widest [`Isa`] this CPU runs, detected once.
#[inline]
pub fn isa() -> Isa {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        x86::isa()
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        Isa::Portable
    }
}

/// Runs `f` compiled for the widest instruction set of this CPU.
///
/// `f` and everything it calls inline into a `#[target_feature]` function,
/// so its loops are vectorized at that width. Pass `f` as
/// `#[inline(always)] || ...`: a closure is one function called from each
/// variant, and the inliner leaves a large one out of line, compiled at the
/// baseline width (attributes on a closure are accepted in argument
/// position). Keep the loop itself inside `f` for the same reason.
#[inline(always)]
pub fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    match x86::isa() {
        // SAFETY: `isa()` returned these variants only after
        // `is_x86_feature_detected!` found every feature they enable.
        Isa::Avx512 => return unsafe { x86::avx512(f) },
        // SAFETY: as above.
        Isa::Avx2 => return unsafe { x86::avx2(f) },
        Isa::Portable => {}
    }
    f()
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use core::sync::atomic::{AtomicU8, Ordering};

    use super::Isa;

    /// 0: not detected yet; otherwise `1 + Isa as u8`.
    static DETECTED: AtomicU8 = AtomicU8::new(0);

    #[inline(always)]
    pub(super) fn isa() -> Isa {
        match DETECTED.load(Ordering::Relaxed) {
            1 => Isa::Portable,
            2 => Isa::Avx2,
            3 => Isa::Avx512,
            _ => detect(),
        }
    }

    #[cold]
    fn detect() -> Isa {
        use std::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma");
        let isa = if avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl") {
            Isa::Avx512
        } else if avx2 {
            Isa::Avx2
        } else {
            Isa::Portable
        };
        // Racing detections store the same value.
        DETECTED.store(1 + isa as u8, Ordering::Relaxed);
        isa
    }

    /// # Safety
    /// The CPU must support every feature enabled here.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,fma")]
    #[inline]
    pub(super) unsafe fn avx512<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// # Safety
    /// The CPU must support AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub(super) unsafe fn avx2<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
}

// ------------------------------------------------------------ the walkers

/// Runs `f(chunk_index, chunk)` over `out` in fixed-size chunks, in parallel
/// when large enough.
#[inline]
pub fn for_each_chunk_mut<O: Send>(out: &mut [O], f: impl Fn(usize, &mut [O]) + Sync + Send) {
    if cfg!(feature = "threads") && out.len() >= PARALLEL_THRESHOLD {
        crate::threads::chunks_mut(out, CHUNK, f);
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
            vectorized_len(
                chunk.len(),
                #[inline(always)]
                || {
                    for x in chunk {
                        *x = bytemuck::cast::<O, I>(f(*x));
                    }
                },
            )
        });
        return tensor.relabel(out_dtype);
    }
    if let Some(input) = tensor.contiguous_slice::<I>() {
        return FlexTensor::build_overwrite::<O>(shape, out_dtype, |out| {
            for_each_chunk_mut(out, |i, chunk| {
                let src = &input[i * CHUNK..i * CHUNK + chunk.len()];
                vectorized_len(
                    chunk.len(),
                    #[inline(always)]
                    || {
                        for (o, &x) in chunk.iter_mut().zip(src) {
                            *o = f(x);
                        }
                    },
                )
            })
        });
    }
    let storage = tensor.storage::<I>();
    let layout = tensor.layout();
    FlexTensor::build_overwrite::<O>(shape.clone(), out_dtype, |out| {
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
                if s == 1 {
                    let src = &storage[src as usize..src as usize + n];
                    vectorized_len(
                        n,
                        #[inline(always)]
                        || {
                            for (o, &x) in dst.iter_mut().zip(src) {
                                *o = f(x);
                            }
                        },
                    );
                } else {
                    for (i, o) in dst.iter_mut().enumerate() {
                        *o = f(storage[(src + i as isize * s) as usize]);
                    }
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
                vectorized_len(
                    chunk.len(),
                    #[inline(always)]
                    || {
                        for (x, &y) in chunk.iter_mut().zip(src) {
                            *x = bytemuck::cast::<O, A>(f(*x, y));
                        }
                    },
                )
            });
            return lhs.relabel(out_dtype);
        }
        if let Some(a) = lhs.contiguous_slice::<A>() {
            return FlexTensor::build_overwrite::<O>(shape, out_dtype, |out| {
                for_each_chunk_mut(out, |i, chunk| {
                    let range = i * CHUNK..i * CHUNK + chunk.len();
                    let (a, b) = (&a[range.clone()], &b[range]);
                    vectorized_len(
                        chunk.len(),
                        #[inline(always)]
                        || {
                            for ((o, &x), &y) in chunk.iter_mut().zip(a).zip(b) {
                                *o = f(x, y);
                            }
                        },
                    )
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
    FlexTensor::build_overwrite::<O>(shape.clone(), out_dtype, |out| {
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
                vectorized_len(
                    n,
                    #[inline(always)]
                    || {
                        for ((o, &x), &y) in dst.iter_mut().zip(a).zip(b) {
                            *o = f(x, y);
                        }
                    },
                );
            } else if da == 1 && db == 0 {
                let (a, y) = (&sa[pa as usize..pa as usize + n], sb[pb as usize]);
                vectorized_len(
                    n,
                    #[inline(always)]
                    || {
                        for (o, &x) in dst.iter_mut().zip(a) {
                            *o = f(x, y);
                        }
                    },
                );
            } else if da == 0 && db == 1 {
                let (x, b) = (sa[pa as usize], &sb[pb as usize..pb as usize + n]);
                vectorized_len(
                    n,
                    #[inline(always)]
                    || {
                        for (o, &y) in dst.iter_mut().zip(b) {
                            *o = f(x, y);
                        }
                    },
                );
            } else {
                for (i, o) in dst.iter_mut().enumerate() {
                    let i = i as isize;
                    *o = f(sa[(pa + i * da) as usize], sb[(pb + i * db) as usize]);
                }
            }
        });
    })
}

/// Runs a loop over `n` elements, [`vectorized`] when they are enough to
/// pay for entering the wide variant.
#[inline(always)]
pub(crate) fn vectorized_len<R>(n: usize, f: impl FnOnce() -> R) -> R {
    if n >= VECTORIZE_MIN {
        vectorized(f)
    } else {
        f()
    }
}

/// Fewest elements a loop runs [`vectorized`]. Entering the AVX-512
/// variant for the 64 elements of an 8x8 add measured 40 ns slower (0.54
/// vs 0.50 us per op), about what baseline SSE2 spends on 500 elements of
/// a cheap op, or on 20 of exp; 256 splits the difference.
pub(crate) const VECTORIZE_MIN: usize = 256;

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::x86;
    use crate::ops::elem::{Real, exp_f32, tanh_f32};

    /// The float kernels give the same bits compiled for every instruction
    /// set: vectorizing reorders nothing, and enabling FMA contracts nothing.
    #[test]
    fn every_isa_gives_the_same_bits() {
        #[inline(always)]
        fn kernel(xs: &[f32], out: &mut [f32]) {
            for (o, &x) in out.iter_mut().zip(xs) {
                let y = tanh_f32(exp_f32(x * 0.5 + 1.0) - 2.0);
                *o = (x * 3.3).round_even() + (x * 7.1).floor_() + y.sign_() + x.max_nan(y) * y;
            }
        }
        let mut xs: Vec<f32> = (0..100_003)
            .map(|i| (i as f32 - 50_000.0) * 2.1e-3)
            .collect();
        xs.extend([
            0.0,
            -0.0,
            1e-30,
            -1e-40,
            88.7,
            -104.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]);
        let mut portable = vec![0.0f32; xs.len()];
        kernel(&xs, &mut portable);
        let mut wide = vec![0.0f32; xs.len()];
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the features were just detected.
            unsafe { x86::avx2(|| kernel(&xs, &mut wide)) };
            assert!(
                portable
                    .iter()
                    .zip(&wide)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
        }
        if super::isa() == super::Isa::Avx512 {
            wide.fill(0.0);
            // SAFETY: `isa()` detected every feature `avx512` enables.
            unsafe { x86::avx512(|| kernel(&xs, &mut wide)) };
            assert!(
                portable
                    .iter()
                    .zip(&wide)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
        }
    }
}
