//! Non-generic forwarding from bridge handles to `Dispatch`.
//!
//! `mod.rs` holds ops whose routing only depends on the kind tag of the
//! operand (creation, data, shape ops); `float.rs`, `int.rs` and `bool.rs`
//! hold the kind-specific ones.

pub(crate) mod bool;
pub(crate) mod conv;
pub(crate) mod float;
pub(crate) mod int;
pub(crate) mod numeric;
pub(crate) mod pool;

use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, QTensorOps};
use burn_dispatch::Dispatch;
use std::vec::Vec;

use burn_backend::TensorMetadata;
use burn_std::{DType, Scalar, Shape, Slice, TensorData};

use super::{BridgeTensor, BridgeTensorVariant as V, Stored};
use crate::Device;

/// Runs the float, int or bool expression for the operand's kind and tags the
/// result with the same kind.
macro_rules! by_kind {
    ($t:expr, |$x:ident| float => $f:expr, int => $i:expr, bool => $b:expr $(,)?) => {
        match $t.variant() {
            V::Float($x) => BridgeTensor::float($f),
            V::Int($x) => BridgeTensor::int($i),
            V::Bool($x) => BridgeTensor::bool($b),
        }
    };
}
#[allow(unused_imports)] // for the kind-specific files
pub(crate) use by_kind;

/// Panics for two operands of different kinds: the typed API makes this
/// unreachable unless a primitive was built by hand.
#[track_caller]
pub(crate) fn kind_mismatch(op: &str, lhs: &str, rhs: &str) -> ! {
    panic!("{op}: operands have different kinds ({lhs} and {rhs})")
}

/// Which kind a tensor is created as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Float,
    Int,
    Bool,
}

/// The dtype a new tensor of `kind` gets: the one asked for, or the device's default.
pub(crate) fn creation_dtype(kind: Kind, device: &Device, dtype: Option<DType>) -> DType {
    match (kind, dtype) {
        (Kind::Bool, _) => DType::Bool(burn_std::BoolStore::Native),
        (_, Some(dtype)) => dtype,
        (Kind::Float, None) => device.settings().float_dtype,
        (Kind::Int, None) => device.settings().int_dtype,
    }
}

pub(crate) fn device(t: &BridgeTensor) -> Device {
    let device = match t.get() {
        Stored::Float(x) => Dispatch::float_device(x),
        Stored::Int(x) => Dispatch::int_device(x),
        Stored::Bool(x) => Dispatch::bool_device(x),
        Stored::QFloat(x) => Dispatch::q_device(x),
    };
    Device::from_dispatch(device)
}

/// A tensor of `kind` from data, converted to `dtype` (or the device default).
pub(crate) fn from_data(
    data: TensorData,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let d = device.dispatch();
    // Quantized data (or data asked to be quantized) makes a quantized
    // float tensor.
    let quantized = match dtype {
        None => data.dtype.is_quantized(),
        Some(dtype) => dtype.is_quantized(),
    };
    if kind == Kind::Float && quantized {
        let dtype = dtype.unwrap_or(data.dtype);
        let data = if data.dtype == dtype {
            data
        } else {
            data.convert_dtype(dtype)
        };
        return BridgeTensor::qfloat(Dispatch::q_from_data(data, d));
    }
    let dtype = creation_dtype(kind, device, dtype);
    let data = if data.dtype == dtype {
        data
    } else {
        data.convert_dtype(dtype)
    };
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_from_data(data, d)),
        Kind::Int => BridgeTensor::int(Dispatch::int_from_data(data, d)),
        Kind::Bool => BridgeTensor::bool(Dispatch::bool_from_data(data, d)),
    }
}

/// The tensor's data; a quantized tensor's is its packed bytes (dtype
/// `QFloat`), which `TensorData::dequantize` reads as float.
pub(crate) fn into_data(t: BridgeTensor) -> Result<TensorData, burn_backend::ExecutionError> {
    match t.stored() {
        Stored::Float(x) => Dispatch::float_into_data(x),
        Stored::Int(x) => Dispatch::int_into_data(x),
        Stored::Bool(x) => Dispatch::bool_into_data(x),
        Stored::QFloat(x) => Dispatch::q_into_data(x),
    }
}

pub(crate) fn to_device(t: BridgeTensor, device: &Device) -> BridgeTensor {
    let d = device.dispatch();
    if t.is_quantized() {
        return BridgeTensor::qfloat(Dispatch::q_to_device(t.into_dispatch(), d));
    }
    by_kind!(t, |x|
        float => Dispatch::float_to_device(x, d),
        int => Dispatch::int_to_device(x, d),
        bool => Dispatch::bool_to_device(x, d),
    )
}

pub(crate) fn reshape(t: BridgeTensor, shape: Shape) -> BridgeTensor {
    // A quantized tensor stays quantized while its scheme's blocks tile
    // the new shape; otherwise the reshape is of its float values.
    if let DType::QFloat(scheme) = t.dtype()
        && burn_std::quantization::check_scheme(&scheme, &shape).is_ok()
    {
        return BridgeTensor::qfloat(Dispatch::q_reshape(t.into_dispatch(), shape));
    }
    by_kind!(t, |x|
        float => Dispatch::float_reshape(x, shape),
        int => Dispatch::int_reshape(x, shape),
        bool => Dispatch::bool_reshape(x, shape),
    )
}

// ------------------------------------------------------------------ helpers

/// Unwraps an int operand (index tensors).
#[track_caller]
pub(crate) fn int_operand(op: &str, t: BridgeTensor) -> burn_dispatch::DispatchTensor {
    match t.variant() {
        V::Int(x) => x,
        V::Float(_) => kind_mismatch(op, "int", "float"),
        V::Bool(_) => kind_mismatch(op, "int", "bool"),
    }
}

/// Unwraps a bool operand (masks).
#[track_caller]
pub(crate) fn bool_operand(op: &str, t: BridgeTensor) -> burn_dispatch::DispatchTensor {
    match t.variant() {
        V::Bool(x) => x,
        V::Float(_) => kind_mismatch(op, "bool", "float"),
        V::Int(_) => kind_mismatch(op, "bool", "int"),
    }
}

/// The name of the backend holding the tensor, e.g. `"flex"`.
pub(crate) fn backend_name(t: &BridgeTensor) -> std::string::String {
    use burn_backend::Backend;
    Dispatch::name(t.device().dispatch())
}

// ----------------------------------------------------------------- creation

/// A tensor of `kind` with unspecified contents.
pub(crate) fn empty(
    shape: Shape,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let dtype = creation_dtype(kind, device, dtype);
    let d = device.dispatch();
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_empty(shape, d, dtype)),
        Kind::Int => BridgeTensor::int(Dispatch::int_empty(shape, d, dtype)),
        Kind::Bool => BridgeTensor::bool(Dispatch::bool_empty(shape, d)),
    }
}

/// A tensor of `kind` filled with zeros (`false`).
pub(crate) fn zeros(
    shape: Shape,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let dtype = creation_dtype(kind, device, dtype);
    let d = device.dispatch();
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_zeros(shape, d, dtype)),
        Kind::Int => BridgeTensor::int(Dispatch::int_zeros(shape, d, dtype)),
        Kind::Bool => BridgeTensor::bool(Dispatch::bool_zeros(shape, d)),
    }
}

/// A tensor of `kind` filled with ones (`true`).
pub(crate) fn ones(
    shape: Shape,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let dtype = creation_dtype(kind, device, dtype);
    let d = device.dispatch();
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_ones(shape, d, dtype)),
        Kind::Int => BridgeTensor::int(Dispatch::int_ones(shape, d, dtype)),
        Kind::Bool => BridgeTensor::bool(Dispatch::bool_ones(shape, d)),
    }
}

/// A tensor of `kind` filled with `value` (non-zero is `true` for bool).
pub(crate) fn full(
    shape: Shape,
    value: Scalar,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let dtype = creation_dtype(kind, device, dtype);
    let d = device.dispatch();
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_full(shape, value, d, dtype)),
        Kind::Int => BridgeTensor::int(Dispatch::int_full(shape, value, d, dtype)),
        Kind::Bool => BridgeTensor::bool(Dispatch::bool_full(shape, value.to_bool(), d)),
    }
}

/// A tensor of the same kind, dtype and device as `like`, of `shape`, filled with `value`.
pub(crate) fn full_like(like: &BridgeTensor, shape: Shape, value: Scalar) -> BridgeTensor {
    let device = like.device();
    let dtype = like.dtype();
    let d = device.dispatch();
    match like.get() {
        Stored::Float(_) => BridgeTensor::float(Dispatch::float_full(shape, value, d, dtype)),
        Stored::QFloat(_) => BridgeTensor::float(Dispatch::float_full(shape, value, d, DType::F32)),
        Stored::Int(_) => BridgeTensor::int(Dispatch::int_full(shape, value, d, dtype)),
        Stored::Bool(_) => BridgeTensor::bool(Dispatch::bool_full(shape, value.to_bool(), d)),
    }
}

/// Converts to `dtype` within the tensor's kind (bool tensors are returned unchanged).
pub(crate) fn cast(t: BridgeTensor, dtype: DType) -> BridgeTensor {
    if t.dtype() == dtype {
        return t;
    }
    by_kind!(t, |x|
        float => Dispatch::float_cast(x, dtype),
        int => Dispatch::int_cast(x, dtype),
        bool => x,
    )
}

// --------------------------------------------------------------- shape ops

pub(crate) fn permute(t: BridgeTensor, axes: &[usize]) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_permute(x, axes),
        int => Dispatch::int_permute(x, axes),
        bool => Dispatch::bool_permute(x, axes),
    )
}

pub(crate) fn swap_dims(t: BridgeTensor, dim1: usize, dim2: usize) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_swap_dims(x, dim1, dim2),
        int => Dispatch::int_swap_dims(x, dim1, dim2),
        bool => Dispatch::bool_swap_dims(x, dim1, dim2),
    )
}

pub(crate) fn flip(t: BridgeTensor, axes: &[usize]) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_flip(x, axes),
        int => Dispatch::int_flip(x, axes),
        bool => Dispatch::bool_flip(x, axes),
    )
}

pub(crate) fn expand(t: BridgeTensor, shape: Shape) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_expand(x, shape),
        int => Dispatch::int_expand(x, shape),
        bool => Dispatch::bool_expand(x, shape),
    )
}

pub(crate) fn slice(t: BridgeTensor, slices: &[Slice]) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_slice(x, slices),
        int => Dispatch::int_slice(x, slices),
        bool => Dispatch::bool_slice(x, slices),
    )
}

pub(crate) fn slice_assign(t: BridgeTensor, slices: &[Slice], value: BridgeTensor) -> BridgeTensor {
    match (t.variant(), value.variant()) {
        (V::Float(x), V::Float(v)) => {
            BridgeTensor::float(Dispatch::float_slice_assign(x, slices, v))
        }
        (V::Int(x), V::Int(v)) => BridgeTensor::int(Dispatch::int_slice_assign(x, slices, v)),
        (V::Bool(x), V::Bool(v)) => BridgeTensor::bool(Dispatch::bool_slice_assign(x, slices, v)),
        (x, v) => kind_mismatch("slice_assign", variant_name(&x), variant_name(&v)),
    }
}

pub(crate) fn narrow(t: BridgeTensor, dim: usize, start: usize, length: usize) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_narrow(x, dim, start, length),
        int => Dispatch::int_narrow(x, dim, start, length),
        bool => Dispatch::bool_narrow(x, dim, start, length),
    )
}

/// Concatenates tensors of one kind along `dim`.
///
/// # Panics
/// If `tensors` is empty or mixes kinds.
pub(crate) fn cat(tensors: Vec<BridgeTensor>, dim: usize) -> BridgeTensor {
    let kind = match tensors.first() {
        Some(t) => t.kind_name(),
        None => panic!("cat: needs at least one tensor"),
    };
    let mut prims = Vec::with_capacity(tensors.len());
    for t in tensors {
        if t.kind_name() != kind {
            kind_mismatch("cat", kind, t.kind_name());
        }
        // Quantized tensors join as their float values.
        prims.push(match t.variant() {
            V::Float(x) | V::Int(x) | V::Bool(x) => x,
        });
    }
    match kind {
        "float" => BridgeTensor::float(Dispatch::float_cat(prims, dim)),
        "int" => BridgeTensor::int(Dispatch::int_cat(prims, dim)),
        _ => BridgeTensor::bool(Dispatch::bool_cat(prims, dim)),
    }
}

pub(crate) fn repeat_dim(t: BridgeTensor, dim: usize, times: usize) -> BridgeTensor {
    by_kind!(t, |x|
        float => Dispatch::float_repeat_dim(x, dim, times),
        int => Dispatch::int_repeat_dim(x, dim, times),
        bool => Dispatch::bool_repeat_dim(x, dim, times),
    )
}

// ---------------------------------------------------------------- indexing

pub(crate) fn select(t: BridgeTensor, dim: usize, indices: BridgeTensor) -> BridgeTensor {
    let indices = int_operand("select", indices);
    by_kind!(t, |x|
        float => Dispatch::float_select(x, dim, indices),
        int => Dispatch::int_select(x, dim, indices),
        bool => Dispatch::bool_select(x, dim, indices),
    )
}

pub(crate) fn gather(dim: usize, t: BridgeTensor, indices: BridgeTensor) -> BridgeTensor {
    let indices = int_operand("gather", indices);
    by_kind!(t, |x|
        float => Dispatch::float_gather(dim, x, indices),
        int => Dispatch::int_gather(dim, x, indices),
        bool => Dispatch::bool_gather(dim, x, indices),
    )
}

pub(crate) fn mask_where(t: BridgeTensor, mask: BridgeTensor, value: BridgeTensor) -> BridgeTensor {
    let mask = bool_operand("mask_where", mask);
    match (t.variant(), value.variant()) {
        (V::Float(x), V::Float(v)) => BridgeTensor::float(Dispatch::float_mask_where(x, mask, v)),
        (V::Int(x), V::Int(v)) => BridgeTensor::int(Dispatch::int_mask_where(x, mask, v)),
        (V::Bool(x), V::Bool(v)) => BridgeTensor::bool(Dispatch::bool_mask_where(x, mask, v)),
        (x, v) => kind_mismatch("mask_where", variant_name(&x), variant_name(&v)),
    }
}

pub(crate) fn mask_fill(t: BridgeTensor, mask: BridgeTensor, value: Scalar) -> BridgeTensor {
    let mask = bool_operand("mask_fill", mask);
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_mask_fill(x, mask, value)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_mask_fill(x, mask, value)),
        V::Bool(x) => {
            // No bool mask_fill in the contract: mask_where against a filled tensor.
            let filled =
                Dispatch::bool_full(x.shape(), value.to_bool(), &Dispatch::bool_device(&x));
            BridgeTensor::bool(Dispatch::bool_mask_where(x, mask, filled))
        }
    }
}

// ------------------------------------------------------------- comparisons

pub(crate) fn equal(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let out = match (lhs.variant(), rhs.variant()) {
        (V::Float(l), V::Float(r)) => Dispatch::float_equal(l, r),
        (V::Int(l), V::Int(r)) => Dispatch::int_equal(l, r),
        (V::Bool(l), V::Bool(r)) => Dispatch::bool_equal(l, r),
        (l, r) => kind_mismatch("equal", variant_name(&l), variant_name(&r)),
    };
    BridgeTensor::bool(out)
}

pub(crate) fn not_equal(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let out = match (lhs.variant(), rhs.variant()) {
        (V::Float(l), V::Float(r)) => Dispatch::float_not_equal(l, r),
        (V::Int(l), V::Int(r)) => Dispatch::int_not_equal(l, r),
        (V::Bool(l), V::Bool(r)) => Dispatch::bool_not_equal(l, r),
        (l, r) => kind_mismatch("not_equal", variant_name(&l), variant_name(&r)),
    };
    BridgeTensor::bool(out)
}

pub(crate) fn equal_elem(t: BridgeTensor, value: Scalar) -> BridgeTensor {
    let out = match t.variant() {
        V::Float(x) => Dispatch::float_equal_elem(x, value),
        V::Int(x) => Dispatch::int_equal_elem(x, value),
        // `x == true` is `x`; `x == false` is `!x`.
        V::Bool(x) if value.to_bool() => x,
        V::Bool(x) => Dispatch::bool_not(x),
    };
    BridgeTensor::bool(out)
}

pub(crate) fn not_equal_elem(t: BridgeTensor, value: Scalar) -> BridgeTensor {
    let out = match t.variant() {
        V::Float(x) => Dispatch::float_not_equal_elem(x, value),
        V::Int(x) => Dispatch::int_not_equal_elem(x, value),
        V::Bool(x) if value.to_bool() => Dispatch::bool_not(x),
        V::Bool(x) => x,
    };
    BridgeTensor::bool(out)
}

fn variant_name(v: &V) -> &'static str {
    match v {
        V::Float(_) => "float",
        V::Int(_) => "int",
        V::Bool(_) => "bool",
    }
}
