//! Bool-only forwarding.

use burn_backend::{BoolTensorOps, IntTensorOps, TensorMetadata};
use burn_dispatch::Dispatch;

use crate::bridge::{BridgeTensor, BridgeTensorVariant as V};

use super::kind_mismatch;

pub(crate) fn not(t: BridgeTensor) -> BridgeTensor {
    match t.variant() {
        V::Bool(x) => BridgeTensor::bool(Dispatch::bool_not(x)),
        V::Float(_) => kind_mismatch("bool_not", "bool", "float"),
        V::Int(_) => kind_mismatch("bool_not", "bool", "int"),
    }
}

/// Unwraps a bool operand.
#[track_caller]
fn boolean(op: &str, t: BridgeTensor) -> burn_dispatch::DispatchTensor {
    super::bool_operand(op, t)
}

pub(crate) fn and(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_and(
        boolean("bool_and", lhs),
        boolean("bool_and", rhs),
    ))
}

pub(crate) fn or(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_or(
        boolean("bool_or", lhs),
        boolean("bool_or", rhs),
    ))
}

pub(crate) fn xor(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_xor(
        boolean("bool_xor", lhs),
        boolean("bool_xor", rhs),
    ))
}

pub(crate) fn any(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_any(boolean("any", t)))
}

pub(crate) fn all(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_all(boolean("all", t)))
}

pub(crate) fn any_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_any_dim(boolean("any_dim", t), dim))
}

pub(crate) fn all_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_all_dim(boolean("all_dim", t), dim))
}

/// 1/0 as an int tensor of the device's default int dtype.
pub(crate) fn into_int(t: BridgeTensor) -> BridgeTensor {
    let dtype = t.device().settings().int_dtype;
    BridgeTensor::int(Dispatch::bool_into_int(boolean("int", t), dtype))
}

/// 1.0/0.0 as a float tensor of the device's default float dtype.
pub(crate) fn into_float(t: BridgeTensor) -> BridgeTensor {
    let dtype = t.device().settings().float_dtype;
    BridgeTensor::float(Dispatch::bool_into_float(boolean("float", t), dtype))
}

/// Coordinates of the true elements, `[count, rank]`, as the device's default int dtype.
pub(crate) fn argwhere(t: BridgeTensor) -> BridgeTensor {
    let dtype = t.device().settings().int_dtype;
    let out = Dispatch::bool_argwhere(boolean("argwhere", t));
    let out = if out.dtype() == dtype {
        out
    } else {
        Dispatch::int_cast(out, dtype)
    };
    BridgeTensor::int(out)
}
