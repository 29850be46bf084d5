//! Int-only forwarding.

use burn_backend::{IntTensorOps, TensorMetadata};
use burn_dispatch::{Dispatch, DispatchTensor};
use burn_std::{DType, Scalar};

use super::kind_mismatch;
use crate::Device;
use crate::bridge::{BridgeTensor, BridgeTensorVariant as V};

/// Unwraps an int operand.
#[track_caller]
pub(crate) fn int(op: &str, t: BridgeTensor) -> DispatchTensor {
    match t.variant() {
        V::Int(x) => x,
        V::Float(_) => kind_mismatch(op, "int", "float"),
        V::Bool(_) => kind_mismatch(op, "int", "bool"),
    }
}

/// Unwraps two int operands, casting `rhs` to the dtype of `lhs` if needed.
#[track_caller]
fn int_pair(op: &str, lhs: BridgeTensor, rhs: BridgeTensor) -> (DispatchTensor, DispatchTensor) {
    let (a, b) = (int(op, lhs), int(op, rhs));
    let b = if a.dtype() == b.dtype() {
        b
    } else {
        Dispatch::int_cast(b, a.dtype())
    };
    (a, b)
}

pub(crate) fn arange(range: core::ops::Range<i64>, device: &Device, dtype: DType) -> BridgeTensor {
    BridgeTensor::int(Dispatch::int_arange(range, device.dispatch(), dtype))
}

pub(crate) fn arange_step(
    range: core::ops::Range<i64>,
    step: usize,
    device: &Device,
    dtype: DType,
) -> BridgeTensor {
    BridgeTensor::int(Dispatch::int_arange_step(
        range,
        step,
        device.dispatch(),
        dtype,
    ))
}

/// Converts to a float tensor of the device's default float dtype.
pub(crate) fn into_float(t: BridgeTensor) -> BridgeTensor {
    let dtype = t.device().settings().float_dtype;
    BridgeTensor::float(Dispatch::int_into_float(int("float", t), dtype))
}

pub(crate) fn matmul(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("matmul", lhs, rhs);
    BridgeTensor::int(Dispatch::int_matmul(a, b))
}

pub(crate) fn bitwise_and(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("bitwise_and", lhs, rhs);
    BridgeTensor::int(Dispatch::bitwise_and(a, b))
}

pub(crate) fn bitwise_or(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("bitwise_or", lhs, rhs);
    BridgeTensor::int(Dispatch::bitwise_or(a, b))
}

pub(crate) fn bitwise_xor(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("bitwise_xor", lhs, rhs);
    BridgeTensor::int(Dispatch::bitwise_xor(a, b))
}

pub(crate) fn bitwise_and_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    BridgeTensor::int(Dispatch::bitwise_and_scalar(
        int("bitwise_and_scalar", t),
        s,
    ))
}

pub(crate) fn bitwise_or_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    BridgeTensor::int(Dispatch::bitwise_or_scalar(int("bitwise_or_scalar", t), s))
}

pub(crate) fn bitwise_xor_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    BridgeTensor::int(Dispatch::bitwise_xor_scalar(
        int("bitwise_xor_scalar", t),
        s,
    ))
}

pub(crate) fn bitwise_not(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::int(Dispatch::bitwise_not(int("bitwise_not", t)))
}

pub(crate) fn bitwise_left_shift(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("bitwise_left_shift", lhs, rhs);
    BridgeTensor::int(Dispatch::bitwise_left_shift(a, b))
}

pub(crate) fn bitwise_right_shift(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = int_pair("bitwise_right_shift", lhs, rhs);
    BridgeTensor::int(Dispatch::bitwise_right_shift(a, b))
}
