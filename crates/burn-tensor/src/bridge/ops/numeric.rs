//! Forwarding for ops that exist on both float and int tensors.
//!
//! Each op names its float and its int `Dispatch` function; the small
//! routers below (`unary`, `binary`, `with_scalar`, `along`, …) unwrap the
//! operands, check their kinds, and tag the result. Binary operands of
//! different dtypes are aligned by casting the right operand to the left
//! operand's dtype, since backends expect both operands to share one.

use burn_backend::{FloatTensorOps, IntTensorOps, QTensorOps, TensorMetadata};
use burn_dispatch::{Dispatch, DispatchTensor};
use burn_std::{DType, Distribution, Scalar, Shape};

use super::int::int;
use super::{Kind, creation_dtype, kind_mismatch};
use crate::Device;
use crate::bridge::{BridgeTensor, BridgeTensorVariant as V, Stored};

type Unary = fn(DispatchTensor) -> DispatchTensor;
type Binary = fn(DispatchTensor, DispatchTensor) -> DispatchTensor;
type WithScalar = fn(DispatchTensor, Scalar) -> DispatchTensor;
type Along = fn(DispatchTensor, usize) -> DispatchTensor;

/// Panics for a bool operand of a numeric op.
#[track_caller]
fn not_numeric(op: &str) -> ! {
    panic!("{op}: expected a float or int tensor, got a bool tensor")
}

/// Applies the float or int op and keeps the kind.
#[track_caller]
fn unary(op: &str, t: BridgeTensor, float: Unary, int: Unary) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(float(x)),
        V::Int(x) => BridgeTensor::int(int(x)),
        V::Bool(_) => not_numeric(op),
    }
}

/// Unwraps two operands of the same numeric kind, casting `rhs` to the dtype
/// of `lhs` when they differ.
#[track_caller]
fn operands(
    op: &str,
    lhs: BridgeTensor,
    rhs: BridgeTensor,
) -> (Kind, DispatchTensor, DispatchTensor) {
    let (ln, rn) = (lhs.kind_name(), rhs.kind_name());
    match (lhs.variant(), rhs.variant()) {
        (V::Float(a), V::Float(b)) => {
            let b = if a.dtype() == b.dtype() {
                b
            } else {
                Dispatch::float_cast(b, a.dtype())
            };
            (Kind::Float, a, b)
        }
        (V::Int(a), V::Int(b)) => {
            let b = if a.dtype() == b.dtype() {
                b
            } else {
                Dispatch::int_cast(b, a.dtype())
            };
            (Kind::Int, a, b)
        }
        (V::Bool(_), _) | (_, V::Bool(_)) => not_numeric(op),
        _ => kind_mismatch(op, ln, rn),
    }
}

/// Applies a binary op to two operands of the same kind and keeps the kind.
#[track_caller]
fn binary(
    op: &str,
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    float: Binary,
    int: Binary,
) -> BridgeTensor {
    match operands(op, lhs, rhs) {
        (Kind::Float, a, b) => BridgeTensor::float(float(a, b)),
        (_, a, b) => BridgeTensor::int(int(a, b)),
    }
}

/// Applies a binary comparison; the result is bool.
#[track_caller]
fn compare(
    op: &str,
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    float: Binary,
    int: Binary,
) -> BridgeTensor {
    match operands(op, lhs, rhs) {
        (Kind::Float, a, b) => BridgeTensor::bool(float(a, b)),
        (_, a, b) => BridgeTensor::bool(int(a, b)),
    }
}

/// Applies a tensor-scalar op and keeps the kind.
#[track_caller]
fn with_scalar(
    op: &str,
    t: BridgeTensor,
    s: Scalar,
    float: WithScalar,
    int: WithScalar,
) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(float(x, s)),
        V::Int(x) => BridgeTensor::int(int(x, s)),
        V::Bool(_) => not_numeric(op),
    }
}

/// Applies a tensor-scalar comparison; the result is bool.
#[track_caller]
fn compare_scalar(
    op: &str,
    t: BridgeTensor,
    s: Scalar,
    float: WithScalar,
    int: WithScalar,
) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::bool(float(x, s)),
        V::Int(x) => BridgeTensor::bool(int(x, s)),
        V::Bool(_) => not_numeric(op),
    }
}

/// Applies an op along `dim` and keeps the kind.
#[track_caller]
fn along(op: &str, t: BridgeTensor, dim: usize, float: Along, int: Along) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(float(x, dim)),
        V::Int(x) => BridgeTensor::int(int(x, dim)),
        V::Bool(_) => not_numeric(op),
    }
}

// ------------------------------------------------------------------ arithmetic

pub(crate) fn add(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary("add", lhs, rhs, Dispatch::float_add, Dispatch::int_add)
}

pub(crate) fn sub(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary("sub", lhs, rhs, Dispatch::float_sub, Dispatch::int_sub)
}

pub(crate) fn mul(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary("mul", lhs, rhs, Dispatch::float_mul, Dispatch::int_mul)
}

pub(crate) fn div(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary("div", lhs, rhs, Dispatch::float_div, Dispatch::int_div)
}

pub(crate) fn remainder(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary(
        "remainder",
        lhs,
        rhs,
        Dispatch::float_remainder,
        Dispatch::int_remainder,
    )
}

pub(crate) fn add_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    with_scalar(
        "add_scalar",
        t,
        s,
        Dispatch::float_add_scalar,
        Dispatch::int_add_scalar,
    )
}

pub(crate) fn sub_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    with_scalar(
        "sub_scalar",
        t,
        s,
        Dispatch::float_sub_scalar,
        Dispatch::int_sub_scalar,
    )
}

pub(crate) fn mul_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    with_scalar(
        "mul_scalar",
        t,
        s,
        Dispatch::float_mul_scalar,
        Dispatch::int_mul_scalar,
    )
}

pub(crate) fn div_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    with_scalar(
        "div_scalar",
        t,
        s,
        Dispatch::float_div_scalar,
        Dispatch::int_div_scalar,
    )
}

pub(crate) fn remainder_scalar(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    with_scalar(
        "remainder_scalar",
        t,
        s,
        Dispatch::float_remainder_scalar,
        Dispatch::int_remainder_scalar,
    )
}

/// A tensor of `t`'s shape, kind, dtype and device filled with `s`.
fn full_like(op: &str, t: &BridgeTensor, s: Scalar) -> BridgeTensor {
    let (shape, dtype) = (t.shape(), t.dtype());
    match t.get() {
        Stored::Float(x) => BridgeTensor::float(Dispatch::float_full(
            shape,
            s,
            &Dispatch::float_device(x),
            dtype,
        )),
        // The float result of an op on quantized values is f32.
        Stored::QFloat(x) => BridgeTensor::float(Dispatch::float_full(
            shape,
            s,
            &Dispatch::q_device(x),
            DType::F32,
        )),
        Stored::Int(x) => BridgeTensor::int(Dispatch::int_full(
            shape,
            s,
            &Dispatch::int_device(x),
            dtype,
        )),
        Stored::Bool(_) => not_numeric(op),
    }
}

/// `s - t`, for scalars on the left of `-`.
pub(crate) fn scalar_sub(s: Scalar, t: BridgeTensor) -> BridgeTensor {
    add_scalar(neg(t), s)
}

/// `s / t`, for scalars on the left of `/`.
pub(crate) fn scalar_div(s: Scalar, t: BridgeTensor) -> BridgeTensor {
    div(full_like("div", &t, s), t)
}

/// `s % t`, for scalars on the left of `%`.
pub(crate) fn scalar_remainder(s: Scalar, t: BridgeTensor) -> BridgeTensor {
    remainder(full_like("remainder", &t, s), t)
}

pub(crate) fn neg(t: BridgeTensor) -> BridgeTensor {
    unary("neg", t, Dispatch::float_neg, Dispatch::int_neg)
}

pub(crate) fn abs(t: BridgeTensor) -> BridgeTensor {
    unary("abs", t, Dispatch::float_abs, Dispatch::int_abs)
}

pub(crate) fn sign(t: BridgeTensor) -> BridgeTensor {
    unary("sign", t, Dispatch::float_sign, Dispatch::int_sign)
}

/// `t ^ exponent` with an int exponent tensor.
#[track_caller]
pub(crate) fn powi(t: BridgeTensor, exponent: BridgeTensor) -> BridgeTensor {
    let exponent = int("powi", exponent);
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_powi(x, exponent)),
        V::Int(x) => {
            let exponent = if exponent.dtype() == x.dtype() {
                exponent
            } else {
                Dispatch::int_cast(exponent, x.dtype())
            };
            BridgeTensor::int(Dispatch::int_powi(x, exponent))
        }
        V::Bool(_) => not_numeric("powi"),
    }
}

/// `t ^ exponent` with an integer scalar exponent (exact for int tensors).
pub(crate) fn powi_scalar(t: BridgeTensor, exponent: Scalar) -> BridgeTensor {
    let exponent = Scalar::Int(exponent.to_i64());
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_powi_scalar(x, exponent)),
        V::Int(x) => {
            let e = Dispatch::int_full(x.shape(), exponent, &Dispatch::int_device(&x), x.dtype());
            BridgeTensor::int(Dispatch::int_powi(x, e))
        }
        V::Bool(_) => not_numeric("powi_scalar"),
    }
}

pub(crate) fn max_pair(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary(
        "max_pair",
        lhs,
        rhs,
        Dispatch::float_max_pair,
        Dispatch::int_max_pair,
    )
}

pub(crate) fn min_pair(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    binary(
        "min_pair",
        lhs,
        rhs,
        Dispatch::float_min_pair,
        Dispatch::int_min_pair,
    )
}

pub(crate) fn clamp(t: BridgeTensor, min: Scalar, max: Scalar) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_clamp(x, min, max)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_clamp(x, min, max)),
        V::Bool(_) => not_numeric("clamp"),
    }
}

pub(crate) fn clamp_min(t: BridgeTensor, min: Scalar) -> BridgeTensor {
    with_scalar(
        "clamp_min",
        t,
        min,
        Dispatch::float_clamp_min,
        Dispatch::int_clamp_min,
    )
}

pub(crate) fn clamp_max(t: BridgeTensor, max: Scalar) -> BridgeTensor {
    with_scalar(
        "clamp_max",
        t,
        max,
        Dispatch::float_clamp_max,
        Dispatch::int_clamp_max,
    )
}

// ----------------------------------------------------------------- comparisons

pub(crate) fn greater(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    compare(
        "greater",
        lhs,
        rhs,
        Dispatch::float_greater,
        Dispatch::int_greater,
    )
}

pub(crate) fn greater_equal(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    compare(
        "greater_equal",
        lhs,
        rhs,
        Dispatch::float_greater_equal,
        Dispatch::int_greater_equal,
    )
}

pub(crate) fn lower(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    compare(
        "lower",
        lhs,
        rhs,
        Dispatch::float_lower,
        Dispatch::int_lower,
    )
}

pub(crate) fn lower_equal(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    compare(
        "lower_equal",
        lhs,
        rhs,
        Dispatch::float_lower_equal,
        Dispatch::int_lower_equal,
    )
}

pub(crate) fn greater_elem(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    compare_scalar(
        "greater_elem",
        t,
        s,
        Dispatch::float_greater_elem,
        Dispatch::int_greater_elem,
    )
}

pub(crate) fn greater_equal_elem(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    compare_scalar(
        "greater_equal_elem",
        t,
        s,
        Dispatch::float_greater_equal_elem,
        Dispatch::int_greater_equal_elem,
    )
}

pub(crate) fn lower_elem(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    compare_scalar(
        "lower_elem",
        t,
        s,
        Dispatch::float_lower_elem,
        Dispatch::int_lower_elem,
    )
}

pub(crate) fn lower_equal_elem(t: BridgeTensor, s: Scalar) -> BridgeTensor {
    compare_scalar(
        "lower_equal_elem",
        t,
        s,
        Dispatch::float_lower_equal_elem,
        Dispatch::int_lower_equal_elem,
    )
}

// ------------------------------------------------------------------ reductions

pub(crate) fn sum(t: BridgeTensor) -> BridgeTensor {
    unary("sum", t, Dispatch::float_sum, Dispatch::int_sum)
}

pub(crate) fn sum_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "sum_dim",
        t,
        dim,
        Dispatch::float_sum_dim,
        Dispatch::int_sum_dim,
    )
}

pub(crate) fn mean(t: BridgeTensor) -> BridgeTensor {
    unary("mean", t, Dispatch::float_mean, Dispatch::int_mean)
}

pub(crate) fn mean_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "mean_dim",
        t,
        dim,
        Dispatch::float_mean_dim,
        Dispatch::int_mean_dim,
    )
}

pub(crate) fn prod(t: BridgeTensor) -> BridgeTensor {
    unary("prod", t, Dispatch::float_prod, Dispatch::int_prod)
}

pub(crate) fn prod_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "prod_dim",
        t,
        dim,
        Dispatch::float_prod_dim,
        Dispatch::int_prod_dim,
    )
}

pub(crate) fn max(t: BridgeTensor) -> BridgeTensor {
    unary("max", t, Dispatch::float_max, Dispatch::int_max)
}

pub(crate) fn max_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "max_dim",
        t,
        dim,
        Dispatch::float_max_dim,
        Dispatch::int_max_dim,
    )
}

pub(crate) fn min(t: BridgeTensor) -> BridgeTensor {
    unary("min", t, Dispatch::float_min, Dispatch::int_min)
}

pub(crate) fn min_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "min_dim",
        t,
        dim,
        Dispatch::float_min_dim,
        Dispatch::int_min_dim,
    )
}

fn int_max_abs(x: DispatchTensor) -> DispatchTensor {
    Dispatch::int_max(Dispatch::int_abs(x))
}

fn int_max_abs_dim(x: DispatchTensor, dim: usize) -> DispatchTensor {
    Dispatch::int_max_dim(Dispatch::int_abs(x), dim)
}

fn float_max_abs_dim(x: DispatchTensor, dim: usize) -> DispatchTensor {
    Dispatch::float_max_dim(Dispatch::float_abs(x), dim)
}

pub(crate) fn max_abs(t: BridgeTensor) -> BridgeTensor {
    unary("max_abs", t, Dispatch::float_max_abs, int_max_abs)
}

pub(crate) fn max_abs_dim(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along("max_abs_dim", t, dim, float_max_abs_dim, int_max_abs_dim)
}

pub(crate) fn argmax(t: BridgeTensor, dim: usize) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::int(Dispatch::float_argmax(x, dim)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_argmax(x, dim)),
        V::Bool(_) => not_numeric("argmax"),
    }
}

pub(crate) fn argmin(t: BridgeTensor, dim: usize) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::int(Dispatch::float_argmin(x, dim)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_argmin(x, dim)),
        V::Bool(_) => not_numeric("argmin"),
    }
}

/// Values and int indices.
pub(crate) fn max_dim_with_indices(t: BridgeTensor, dim: usize) -> (BridgeTensor, BridgeTensor) {
    match t.variant() {
        V::Float(x) => {
            let (v, i) = Dispatch::float_max_dim_with_indices(x, dim);
            (BridgeTensor::float(v), BridgeTensor::int(i))
        }
        V::Int(x) => {
            let (v, i) = Dispatch::int_max_dim_with_indices(x, dim);
            (BridgeTensor::int(v), BridgeTensor::int(i))
        }
        V::Bool(_) => not_numeric("max_dim_with_indices"),
    }
}

/// Values and int indices.
pub(crate) fn min_dim_with_indices(t: BridgeTensor, dim: usize) -> (BridgeTensor, BridgeTensor) {
    match t.variant() {
        V::Float(x) => {
            let (v, i) = Dispatch::float_min_dim_with_indices(x, dim);
            (BridgeTensor::float(v), BridgeTensor::int(i))
        }
        V::Int(x) => {
            let (v, i) = Dispatch::int_min_dim_with_indices(x, dim);
            (BridgeTensor::int(v), BridgeTensor::int(i))
        }
        V::Bool(_) => not_numeric("min_dim_with_indices"),
    }
}

// ------------------------------------------------------------------ cumulative

pub(crate) fn cumsum(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "cumsum",
        t,
        dim,
        Dispatch::float_cumsum,
        Dispatch::int_cumsum,
    )
}

pub(crate) fn cumprod(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "cumprod",
        t,
        dim,
        Dispatch::float_cumprod,
        Dispatch::int_cumprod,
    )
}

pub(crate) fn cummin(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "cummin",
        t,
        dim,
        Dispatch::float_cummin,
        Dispatch::int_cummin,
    )
}

pub(crate) fn cummax(t: BridgeTensor, dim: usize) -> BridgeTensor {
    along(
        "cummax",
        t,
        dim,
        Dispatch::float_cummax,
        Dispatch::int_cummax,
    )
}

// ------------------------------------------------------------------------ sort

pub(crate) fn sort(t: BridgeTensor, dim: usize, descending: bool) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_sort(x, dim, descending)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_sort(x, dim, descending)),
        V::Bool(_) => not_numeric("sort"),
    }
}

/// Sorted values and the int indices they came from.
pub(crate) fn sort_with_indices(
    t: BridgeTensor,
    dim: usize,
    descending: bool,
) -> (BridgeTensor, BridgeTensor) {
    match t.variant() {
        V::Float(x) => {
            let (v, i) = Dispatch::float_sort_with_indices(x, dim, descending);
            (BridgeTensor::float(v), BridgeTensor::int(i))
        }
        V::Int(x) => {
            let (v, i) = Dispatch::int_sort_with_indices(x, dim, descending);
            (BridgeTensor::int(v), BridgeTensor::int(i))
        }
        V::Bool(_) => not_numeric("sort_with_indices"),
    }
}

pub(crate) fn argsort(t: BridgeTensor, dim: usize, descending: bool) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::int(Dispatch::float_argsort(x, dim, descending)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_argsort(x, dim, descending)),
        V::Bool(_) => not_numeric("argsort"),
    }
}

/// The `k` largest values along `dim`, descending, and their int indices.
pub(crate) fn topk_with_indices(
    t: BridgeTensor,
    k: usize,
    dim: usize,
) -> (BridgeTensor, BridgeTensor) {
    match t.variant() {
        V::Float(x) => {
            let (v, i) = Dispatch::float_topk_with_indices(x, dim, k);
            (BridgeTensor::float(v), BridgeTensor::int(i))
        }
        V::Int(x) => {
            let (v, i) = Dispatch::int_topk_with_indices(x, dim, k);
            (BridgeTensor::int(v), BridgeTensor::int(i))
        }
        V::Bool(_) => not_numeric("topk"),
    }
}

// ------------------------------------------------------------------- triangles

pub(crate) fn tril(t: BridgeTensor, diagonal: i64) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_tril(x, diagonal)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_tril(x, diagonal)),
        V::Bool(_) => not_numeric("tril"),
    }
}

pub(crate) fn triu(t: BridgeTensor, diagonal: i64) -> BridgeTensor {
    match t.variant() {
        V::Float(x) => BridgeTensor::float(Dispatch::float_triu(x, diagonal)),
        V::Int(x) => BridgeTensor::int(Dispatch::int_triu(x, diagonal)),
        V::Bool(_) => not_numeric("triu"),
    }
}

// -------------------------------------------------------------------- indexing

/// `t[.. indices[i] ..] += values[i]` along `dim`.
#[track_caller]
pub(crate) fn scatter_add(
    dim: usize,
    t: BridgeTensor,
    indices: BridgeTensor,
    values: BridgeTensor,
) -> BridgeTensor {
    let indices = int("scatter", indices);
    match operands("scatter", t, values) {
        (Kind::Float, x, v) => BridgeTensor::float(Dispatch::float_scatter_add(dim, x, indices, v)),
        (_, x, v) => BridgeTensor::int(Dispatch::int_scatter_add(dim, x, indices, v)),
    }
}

/// Adds the slices of `values` into the slices of `dim` named by `indices`.
#[track_caller]
pub(crate) fn select_add(
    t: BridgeTensor,
    dim: usize,
    indices: BridgeTensor,
    values: BridgeTensor,
) -> BridgeTensor {
    let indices = int("select_assign", indices);
    match operands("select_assign", t, values) {
        (Kind::Float, x, v) => BridgeTensor::float(Dispatch::float_select_add(x, dim, indices, v)),
        (_, x, v) => BridgeTensor::int(Dispatch::int_select_add(x, dim, indices, v)),
    }
}

// -------------------------------------------------------------------- creation

/// A tensor of `kind` sampled from `distribution`.
pub(crate) fn random(
    shape: Shape,
    distribution: Distribution,
    kind: Kind,
    device: &Device,
    dtype: Option<DType>,
) -> BridgeTensor {
    let dtype = creation_dtype(kind, device, dtype);
    let d = device.dispatch();
    match kind {
        Kind::Float => BridgeTensor::float(Dispatch::float_random(shape, distribution, d, dtype)),
        Kind::Int => BridgeTensor::int(Dispatch::int_random(shape, distribution, d, dtype)),
        Kind::Bool => not_numeric("random"),
    }
}
