//! Creation (full, arange, random) and dtype conversion.
use core::ops::Range;

use burn_backend::TensorMetadata;
use burn_backend::kernels::CreationKernels;
use burn_std::{DType, Distribution, Element, Scalar, Shape};
use bytemuck::Pod;

use crate::engine::{CHUNK, for_each_chunk_mut, map};
use crate::ops::elem::{CastElem, FloatElem, cast_elem, scalar_to_float};
use crate::rng;
use crate::tensor::BOOL;
use crate::{Flex, FlexDevice, FlexTensor};
use crate::{with_float, with_int, with_numeric, with_size};

fn fill<U: Pod + Send + Sync + PartialEq>(shape: Shape, dtype: DType, value: U) -> FlexTensor {
    FlexTensor::build::<U>(shape, dtype, |out| {
        // The buffer starts zeroed (lazily, by the allocator): zero needs no pass.
        if value != U::zeroed() {
            for_each_chunk_mut(out, |_, chunk| chunk.fill(value));
        }
    })
}

/// A contiguous tensor whose element `k` is `f(k)`, filled in parallel chunks.
fn fill_indexed<E: Pod + Send + Sync>(
    shape: Shape,
    dtype: DType,
    f: impl Fn(usize) -> E + Sync + Send,
) -> FlexTensor {
    FlexTensor::build::<E>(shape, dtype, |out| {
        for_each_chunk_mut(out, |i, chunk| {
            let base = i * CHUNK;
            for (j, o) in chunk.iter_mut().enumerate() {
                *o = f(base + j);
            }
        })
    })
}

#[track_caller]
fn check_distribution(distribution: Distribution) {
    match distribution {
        Distribution::Default => {}
        Distribution::Bernoulli(p) => assert!(
            (0.0..=1.0).contains(&p),
            "random: Bernoulli probability must lie in [0, 1], got {p}"
        ),
        Distribution::Uniform(low, high) => assert!(
            low <= high,
            "random: Uniform needs low <= high, got low {low} and high {high}"
        ),
        Distribution::Normal(mean, std) => assert!(
            std >= 0.0 && !mean.is_nan(),
            "random: Normal needs a finite mean and std >= 0, got mean {mean} and std {std}"
        ),
    }
}

/// Fills a tensor from `distribution`: chunk `i` of [`CHUNK`] elements uses
/// generator `chunk_rng(stream, i)`, so the values do not depend on the
/// number of threads.
fn sample<E: Pod + Send + Sync>(
    shape: Shape,
    dtype: DType,
    distribution: Distribution,
    convert: impl Fn(f64) -> E + Sync + Send,
) -> FlexTensor {
    let stream = rng::next_stream();
    FlexTensor::build::<E>(shape, dtype, |out| {
        for_each_chunk_mut(out, |i, chunk| {
            let mut rng = rng::chunk_rng(stream, i);
            for o in chunk {
                *o = convert(distribution.sample_f64(&mut rng));
            }
        })
    })
}

fn sample_float<E: FloatElem>(
    shape: Shape,
    dtype: DType,
    distribution: Distribution,
) -> FlexTensor {
    let bounds = match distribution {
        Distribution::Default => Some((0.0, 1.0)),
        Distribution::Uniform(low, high) => Some((low, high)),
        _ => None,
    };
    match bounds {
        // A sample just below `high` can round up to it in a narrower type:
        // keep the half-open interval by stepping down to the largest value
        // of the type below `high`.
        Some((low, high)) if low < high && high.is_finite() && low.is_finite() => {
            let mut top = <E as CastElem>::from_f64(high);
            while top.to_f64() >= high {
                top = top.next_down();
            }
            sample::<E>(shape, dtype, distribution, move |v| {
                let e = <E as CastElem>::from_f64(v);
                if e.to_f64() >= high { top } else { e }
            })
        }
        _ => sample::<E>(shape, dtype, distribution, <E as CastElem>::from_f64),
    }
}

fn cast_from<S: CastElem>(tensor: FlexTensor, dtype: DType) -> FlexTensor {
    with_numeric!("cast", dtype, |D| map::<S, D>(
        tensor,
        dtype,
        cast_elem::<S, D>
    ))
}

// --------------------------------------------------------- CreationKernels

impl CreationKernels for Flex {
    /// A tensor of `dtype` (any dtype, bool included) filled with `value`.
    fn full(shape: Shape, value: Scalar, _device: &FlexDevice, dtype: DType) -> FlexTensor {
        if dtype.is_bool() {
            return fill::<u8>(shape, BOOL, value.to_bool() as u8);
        }
        // Convert in the dtype's own type, then fill by element size only.
        // Floats round once to nearest even; ints saturate (`Element` rules).
        if dtype.is_float() {
            return with_float!("full", dtype, |E| {
                let v: E = scalar_to_float::<E>(value);
                with_size!(dtype, |U| fill::<U>(
                    shape,
                    dtype,
                    bytemuck::cast::<E, U>(v)
                ))
            });
        }
        with_int!("full", dtype, |E| {
            let v: E = value.elem::<E>();
            with_size!(dtype, |U| fill::<U>(
                shape,
                dtype,
                bytemuck::cast::<E, U>(v)
            ))
        })
    }

    /// `range` as consecutive values of `dtype` (int or float).
    fn arange(range: Range<i64>, _device: &FlexDevice, dtype: DType) -> FlexTensor {
        let Range { start, end } = range;
        let n = if end > start {
            (end as i128 - start as i128) as usize
        } else {
            0
        };
        let shape = Shape::new([n]);
        if dtype.is_float() {
            return with_float!("arange", dtype, |E| fill_indexed::<E>(shape, dtype, |k| {
                <E as CastElem>::from_i64(start + k as i64)
            }));
        }
        with_int!("arange", dtype, |E| {
            if n > 0 {
                let fits = |v: i64| <E as Element>::from_i64(v).to_i64() == v;
                assert!(
                    fits(start) && fits(end - 1),
                    "arange: range {start}..{end} does not fit in {dtype}"
                );
            }
            fill_indexed::<E>(shape, dtype, |k| <E as Element>::from_i64(start + k as i64))
        })
    }

    /// Samples from `distribution` with the backend generator (`crate::rng`).
    ///
    /// Float dtypes round each sample to nearest (Uniform keeps its half-open
    /// interval), int dtypes truncate toward zero (saturating), bool is
    /// `sample != 0`.
    fn random(
        shape: Shape,
        distribution: Distribution,
        _device: &FlexDevice,
        dtype: DType,
    ) -> FlexTensor {
        check_distribution(distribution);
        if dtype.is_bool() {
            return sample::<u8>(shape, BOOL, distribution, |v| (v != 0.0) as u8);
        }
        if dtype.is_float() {
            return with_float!("random", dtype, |E| sample_float::<E>(
                shape,
                dtype,
                distribution
            ));
        }
        with_int!("random", dtype, |E| sample::<E>(
            shape,
            dtype,
            distribution,
            <E as Element>::from_f64
        ))
    }

    /// Converts between any two dtypes: float to int truncates toward zero and
    /// saturates, anything to bool is `!= 0`, bool to numeric is 0 or 1.
    ///
    /// Int to int wraps like Rust's `as`; conversions into floats round to
    /// nearest even. Same-size int to int conversions are free (a relabel of
    /// the same buffer, since `as` keeps the bits).
    fn cast(tensor: FlexTensor, dtype: DType) -> FlexTensor {
        let src = tensor.dtype();
        if src == dtype || (src.is_bool() && dtype.is_bool()) {
            return tensor;
        }
        if dtype.is_bool() {
            return with_numeric!("cast", src, |S| map::<S, u8>(tensor, BOOL, |x| x.nonzero()
                as u8));
        }
        if src.is_bool() {
            return with_numeric!("cast", dtype, |D| map::<u8, D>(tensor, dtype, |x| {
                cast_elem::<u8, D>((x != 0) as u8)
            }));
        }
        if src.is_int() && dtype.is_int() && src.size() == dtype.size() {
            return tensor.relabel(dtype);
        }
        with_numeric!("cast", src, |S| cast_from::<S>(tensor, dtype))
    }
}
