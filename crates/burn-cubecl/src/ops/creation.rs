//! Creation and conversion: fill, arange, random sampling, dtype casts.

use core::ops::Range;

use burn_backend::BinaryOp;
use burn_backend::kernels::{BinaryKernels, CreationKernels};
use burn_std::{DType, Distribution, Scalar, Shape};
use cubecl::prelude::*;

use super::{elemwise_dims, strided_offset, walk};
use crate::client::{CubeClient, with_runtime};
use crate::device::CubeDevice;
use crate::dtype::{self, BOOL};
use crate::tensor::check_supported;
use crate::{CubeBackend, CubeTensor};

#[cube(launch_unchecked)]
fn fill_kernel<T: Numeric, N: Size>(
    out: &mut Tensor<Vector<T, N>>,
    value: InputScalar,
    len: usize,
    #[define(T)] _dtype: StorageType,
) {
    if ABSOLUTE_POS >= len {
        terminate!();
    }
    out[ABSOLUTE_POS] = Vector::new(value.get::<T>());
}

#[cube(launch_unchecked)]
fn arange_kernel<T: Numeric>(
    out: &mut Tensor<T>,
    start: InputScalar,
    len: usize,
    #[define(T)] _dtype: StorageType,
) {
    if ABSOLUTE_POS >= len {
        terminate!();
    }
    out[ABSOLUTE_POS] = start.get::<T>() + T::cast_from(ABSOLUTE_POS);
}

#[cube(launch_unchecked)]
fn cast_kernel<A: Numeric, B: Numeric, N: Size>(
    input: &Tensor<Vector<A, N>>,
    out: &mut Tensor<Vector<B, N>>,
    len: usize,
    offset: usize,
    #[comptime] rank: usize,
    #[comptime] to_bool: bool,
    #[define(A, B)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut i = offset + pos;
    if comptime![rank > 0] {
        i = offset + strided_offset(input, out, pos, rank);
    }
    let x = input[i];
    if comptime![to_bool] {
        // `!(x == 0)`, so NaN is true also where `!=` is ordered.
        out[pos] = select_many(
            x.equal(Vector::new(A::from_int(0))),
            Vector::new(B::from_int(0)),
            Vector::new(B::from_int(1)),
        );
    } else {
        out[pos] = Vector::<B, N>::cast_from(x);
    }
}

/// The tensor on `device`: itself when already there, otherwise read back
/// and uploaded (devices of different runtimes share no memory).
pub fn to_device(tensor: CubeTensor, device: &CubeDevice) -> CubeTensor {
    if tensor.device == *device {
        return tensor;
    }
    let data = tensor
        .into_data()
        .unwrap_or_else(|err| panic!("to_device: reading the tensor back failed: {err}"));
    CubeTensor::from_data(data, device)
}

// --------------------------------------------------------- CreationKernels

impl CreationKernels for CubeBackend {
    /// A tensor of `shape` with every element `value`.
    fn full(shape: Shape, value: Scalar, device: &CubeDevice, dtype: DType) -> CubeTensor {
        let client = CubeClient::of(device);
        let dtype = dtype::stored(dtype);
        check_supported(&client, device, dtype, "full");
        let out = CubeTensor::empty(&client, device, shape, dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let scalar = super::binary::input_scalar(value, dtype);
        let ty = dtype::storage(dtype);
        with_runtime!(&client, R, c => {
            let w = walk(c, &out.shape, dtype.size(), &[&out]);
            let units = n / w.vector;
            let (count, dim) = elemwise_dims(c, units);
            unsafe {
                fill_kernel::launch_unchecked::<R>(
                    c, count, dim, w.vector, out.arg::<R>(), scalar, units, ty,
                );
            }
        });
        out
    }

    /// `start, start + 1, …, end - 1`.
    fn arange(range: Range<i64>, device: &CubeDevice, dtype: DType) -> CubeTensor {
        let client = CubeClient::of(device);
        check_supported(&client, device, dtype, "arange");
        let n = if range.end > range.start {
            (range.end as i128 - range.start as i128) as usize
        } else {
            0
        };
        let out = CubeTensor::empty(&client, device, Shape::new([n]), dtype);
        if n == 0 {
            return out;
        }
        let start = super::binary::input_scalar(Scalar::Int(range.start), dtype);
        let ty = dtype::storage(dtype);
        with_runtime!(&client, R, c => {
            let (count, dim) = elemwise_dims(c, n);
            unsafe {
                arange_kernel::launch_unchecked::<R>(c, count, dim, out.arg::<R>(), start, n, ty);
            }
        });
        out
    }

    /// Converts to `dtype`: float to int truncates toward zero, anything to
    /// bool is `!= 0`, bool to numeric is 0 or 1.
    fn cast(tensor: CubeTensor, dtype: DType) -> CubeTensor {
        let dtype = dtype::stored(dtype);
        if tensor.dtype == dtype {
            return tensor;
        }
        check_supported(&tensor.client, &tensor.device, dtype, "cast");
        let out = tensor.empty_like(tensor.shape.clone(), dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let types = [dtype::storage(tensor.dtype), dtype::storage(dtype)];
        let to_bool = dtype == BOOL;
        with_runtime!(&tensor.client, R, c => {
            let size = tensor.dtype.size().max(dtype.size());
            let w = walk(c, &out.shape, size, &[&tensor]);
            let units = n / w.vector;
            let (count, dim) = elemwise_dims(c, units);
            unsafe {
                cast_kernel::launch_unchecked::<R>(
                    c, count, dim, w.vector,
                    tensor.arg::<R>(), out.arg::<R>(),
                    units, tensor.offset / w.vector, w.rank, to_bool, types,
                );
            }
        });
        out
    }

    /// Samples `distribution` on the device (cubek's generators; seeded by
    /// `Backend::seed`). Int dtypes truncate a float sample.
    fn random(
        shape: Shape,
        distribution: Distribution,
        device: &CubeDevice,
        dtype: DType,
    ) -> CubeTensor {
        let client = CubeClient::of(device);
        let dtype = dtype::stored(dtype);
        check_supported(&client, device, dtype, "random");
        // Sample in f32 unless the float dtype itself is wanted.
        let sample_dtype = if dtype.is_float() { dtype } else { DType::F32 };
        let sample = CubeTensor::empty(&client, device, shape, sample_dtype);
        if sample.num_elements() > 0 {
            let ty = dtype::storage(sample_dtype);
            with_runtime!(&client, R, c => {
                let out = sample.binding::<R>();
                let result = match distribution {
                    Distribution::Default => cubek::random::random_uniform(c, 0.0, 1.0, out, ty),
                    Distribution::Uniform(low, high) => {
                        cubek::random::random_uniform(c, low as f32, high as f32, out, ty)
                    }
                    Distribution::Normal(mean, std) => {
                        cubek::random::random_normal(c, mean as f32, std as f32, out, ty)
                    }
                    Distribution::Bernoulli(p) => {
                        cubek::random::random_bernoulli(c, p as f32, out, ty)
                    }
                };
                if let Err(err) = result {
                    panic!("random: sampling {distribution:?} failed: {err:?}");
                }
            });
        }
        if !dtype.is_float() {
            return Self::cast(sample, dtype);
        }
        match distribution {
            // The generator draws in f32 and rounds to the dtype: a draw just
            // below `high` can round up to it (f16 keeps 11 significant bits,
            // so u > 1 - 2^-12 becomes 1.0). Clamp to the largest value of the
            // dtype below `high` to keep the half-open interval, as Flex does.
            Distribution::Default => clamp_below(sample, 1.0, dtype),
            Distribution::Uniform(low, high) if low < high && high.is_finite() => {
                clamp_below(sample, high, dtype)
            }
            _ => sample,
        }
    }
}

/// `sample` with every value at or above `high` lowered to the largest
/// value of float `dtype` below `high`.
fn clamp_below(sample: CubeTensor, high: f64, dtype: DType) -> CubeTensor {
    let mut top = held(high, dtype);
    while top >= high {
        top = next_down(top, dtype);
    }
    <CubeBackend as BinaryKernels>::binary_scalar(BinaryOp::Min, sample, Scalar::Float(top))
}

/// `value` rounded to nearest in float `dtype`, as an f64.
fn held(value: f64, dtype: DType) -> f64 {
    match dtype {
        DType::F64 => value,
        DType::F32 => value as f32 as f64,
        DType::F16 => half::f16::from_f64(value).to_f64(),
        DType::BF16 => half::bf16::from_f64(value).to_f64(),
        other => unreachable!("random: {other} is not a float dtype"),
    }
}

/// The next value of float `dtype` below `value` (itself a value of `dtype`).
fn next_down(value: f64, dtype: DType) -> f64 {
    // One step of the sign-magnitude bits of a 16-bit float: toward -inf.
    let down16 = |bits: u16| -> u16 {
        if bits & 0x7fff == 0 {
            0x8001 // ±0: the smallest negative subnormal
        } else if bits & 0x8000 == 0 {
            bits - 1
        } else {
            bits + 1
        }
    };
    match dtype {
        DType::F64 => value.next_down(),
        DType::F32 => (value as f32).next_down() as f64,
        DType::F16 => half::f16::from_bits(down16(half::f16::from_f64(value).to_bits())).to_f64(),
        DType::BF16 => {
            half::bf16::from_bits(down16(half::bf16::from_f64(value).to_bits())).to_f64()
        }
        other => unreachable!("random: {other} is not a float dtype"),
    }
}
