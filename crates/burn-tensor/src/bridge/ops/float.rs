//! Float-only forwarding, and the activation functions.

use burn_backend::{ActivationOps, BoolTensorOps, FloatTensorOps, QTensorOps, TensorMetadata};
use burn_dispatch::{Dispatch, DispatchTensor};
use burn_std::quantization::QuantScheme;
use burn_std::{DType, Scalar, Shape};

use super::kind_mismatch;
use crate::bridge::{BridgeTensor, BridgeTensorVariant as V, Stored};

/// Unwraps a float operand.
#[track_caller]
pub(crate) fn float(op: &str, t: BridgeTensor) -> DispatchTensor {
    match t.variant() {
        V::Float(x) => x,
        V::Int(_) => kind_mismatch(op, "float", "int"),
        V::Bool(_) => kind_mismatch(op, "float", "bool"),
    }
}

/// Unwraps two float operands, casting `rhs` to the dtype of `lhs` if needed.
#[track_caller]
fn float_pair(op: &str, lhs: BridgeTensor, rhs: BridgeTensor) -> (DispatchTensor, DispatchTensor) {
    let (a, b) = (float(op, lhs), float(op, rhs));
    let b = if a.dtype() == b.dtype() {
        b
    } else {
        Dispatch::float_cast(b, a.dtype())
    };
    (a, b)
}

pub(crate) fn matmul(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    // A quantized right operand (a weight) goes to the backend's quantized
    // matmul, which may never materialize its float values.
    if rhs.is_quantized() && !lhs.is_quantized() {
        let a = float("matmul", lhs);
        return BridgeTensor::float(Dispatch::q_matmul_rhs(a, rhs.into_dispatch()));
    }
    let (a, b) = float_pair("matmul", lhs, rhs);
    BridgeTensor::float(Dispatch::float_matmul(a, b))
}

// -------------------------------------------------------------- quantization

/// Checks that `scheme` can quantize `t` (its block tiles the shape, its
/// packing is one the codec lays out, the backend holds the dtype).
#[track_caller]
fn check_quantizable(op: &str, t: &BridgeTensor, scheme: &QuantScheme) {
    use burn_backend::Backend;
    let shape = t.shape();
    if let Err(err) = burn_std::quantization::check_scheme(scheme, &shape) {
        panic!("{op}: {err}");
    }
    let device = t.device();
    if !Dispatch::supports_dtype(device.dispatch(), DType::QFloat(*scheme)) {
        panic!(
            "{op}: backend {} cannot hold shape {shape} quantized with scheme {scheme}",
            super::backend_name(t)
        );
    }
}

/// `t` quantized with `scheme` and the given scales.
#[track_caller]
pub(crate) fn quantize(
    t: BridgeTensor,
    scheme: &QuantScheme,
    scales: BridgeTensor,
    global: Option<BridgeTensor>,
) -> BridgeTensor {
    let op = "quantize";
    check_quantizable(op, &t, scheme);
    let expected = burn_std::quantization::params_shape(&t.shape(), scheme).num_elements();
    let found = scales.shape().num_elements();
    if expected != found {
        panic!(
            "{op}: scheme {scheme} on shape {} needs {expected} scales, got shape {}",
            t.shape(),
            scales.shape()
        );
    }
    let x = float(op, t);
    let scales = float(op, scales);
    let global = global.map(|g| float(op, g));
    BridgeTensor::qfloat(Dispatch::quantize(x, scheme, scales, global))
}

/// `t` quantized with `scheme`, scales by min-max calibration.
#[track_caller]
pub(crate) fn quantize_dynamic(t: BridgeTensor, scheme: &QuantScheme) -> BridgeTensor {
    let op = "quantize_dynamic";
    check_quantizable(op, &t, scheme);
    BridgeTensor::qfloat(Dispatch::quantize_dynamic(float(op, t), scheme))
}

/// The float values of `t` (itself when it is not quantized).
pub(crate) fn dequantize(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::float(float("dequantize", t))
}

/// One forwarding function per element-wise float op of the backend.
macro_rules! float_unary {
    ($($name:ident => $dispatch:ident),* $(,)?) => {
        $(
            pub(crate) fn $name(t: BridgeTensor) -> BridgeTensor {
                BridgeTensor::float(Dispatch::$dispatch(float(stringify!($name), t)))
            }
        )*
    };
}

float_unary! {
    exp => float_exp,
    log => float_log,
    log1p => float_log1p,
    sqrt => float_sqrt,
    sin => float_sin,
    cos => float_cos,
    tan => float_tan,
    sinh => float_sinh,
    cosh => float_cosh,
    tanh => float_tanh,
    asin => float_asin,
    acos => float_acos,
    atan => float_atan,
    asinh => float_asinh,
    acosh => float_acosh,
    atanh => float_atanh,
    erf => float_erf,
    recip => float_recip,
    round => float_round,
    floor => float_floor,
    ceil => float_ceil,
    trunc => float_trunc,
    // activations the backend may override
    relu => relu,
    gelu => gelu,
    sigmoid => sigmoid,
    log_sigmoid => log_sigmoid,
    silu => silu,
}

/// The tensor cut from the autodiff graph; a quantized tensor, never in
/// one, is returned as it is.
pub(crate) fn detach(t: BridgeTensor) -> BridgeTensor {
    if t.is_quantized() {
        return t;
    }
    BridgeTensor::float(Dispatch::float_detach(float("detach", t)))
}

pub(crate) fn atan2(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = float_pair("atan2", lhs, rhs);
    BridgeTensor::float(Dispatch::float_atan2(a, b))
}

pub(crate) fn powf(lhs: BridgeTensor, rhs: BridgeTensor) -> BridgeTensor {
    let (a, b) = float_pair("powf", lhs, rhs);
    BridgeTensor::float(Dispatch::float_powf(a, b))
}

pub(crate) fn powf_scalar(t: BridgeTensor, exponent: Scalar) -> BridgeTensor {
    BridgeTensor::float(Dispatch::float_powf_scalar(
        float("powf_scalar", t),
        exponent,
    ))
}

pub(crate) fn square(t: BridgeTensor) -> BridgeTensor {
    let x = float("square", t);
    BridgeTensor::float(Dispatch::float_mul(x.clone(), x))
}

/// Variance along `dim` with `correction` subtracted from the count (1:
/// unbiased, 0: biased), and the mean it was taken around.
fn var_mean_impl(
    x: DispatchTensor,
    dim: usize,
    correction: usize,
) -> (DispatchTensor, DispatchTensor) {
    let n = x.shape().dims[dim];
    let mean = Dispatch::float_mean_dim(x.clone(), dim);
    let centered = Dispatch::float_sub(x, mean.clone());
    let squares = Dispatch::float_mul(centered.clone(), centered);
    // n - correction = 0 gives 0/0 = NaN, as PyTorch does for one sample.
    let divisor = n.saturating_sub(correction) as f64;
    let var = Dispatch::float_div_scalar(
        Dispatch::float_sum_dim(squares, dim),
        Scalar::Float(divisor),
    );
    (var, mean)
}

pub(crate) fn var(t: BridgeTensor, dim: usize, correction: usize) -> BridgeTensor {
    BridgeTensor::float(var_mean_impl(float("var", t), dim, correction).0)
}

pub(crate) fn var_mean(
    t: BridgeTensor,
    dim: usize,
    correction: usize,
) -> (BridgeTensor, BridgeTensor) {
    let (var, mean) = var_mean_impl(float("var_mean", t), dim, correction);
    (BridgeTensor::float(var), BridgeTensor::float(mean))
}

pub(crate) fn is_nan(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::float_is_nan(float("is_nan", t)))
}

pub(crate) fn is_inf(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::float_is_inf(float("is_inf", t)))
}

pub(crate) fn contains_nan(t: BridgeTensor) -> BridgeTensor {
    BridgeTensor::bool(Dispatch::bool_any(Dispatch::float_is_nan(float(
        "contains_nan",
        t,
    ))))
}

/// `|a - b| <= atol + rtol * |b|`, or `a == b` (so equal infinities are close).
pub(crate) fn is_close(lhs: BridgeTensor, rhs: BridgeTensor, rtol: f64, atol: f64) -> BridgeTensor {
    let (a, b) = float_pair("is_close", lhs, rhs);
    let diff = Dispatch::float_abs(Dispatch::float_sub(a.clone(), b.clone()));
    let bound = Dispatch::float_add_scalar(
        Dispatch::float_mul_scalar(Dispatch::float_abs(b.clone()), Scalar::Float(rtol)),
        Scalar::Float(atol),
    );
    let within = Dispatch::float_lower_equal(diff, bound);
    BridgeTensor::bool(Dispatch::bool_or(within, Dispatch::float_equal(a, b)))
}

/// Whether every element of `is_close` holds (true for empty tensors).
pub(crate) fn all_close(lhs: BridgeTensor, rhs: BridgeTensor, rtol: f64, atol: f64) -> bool {
    let close = is_close(lhs, rhs, rtol, atol).into_dispatch();
    let all = Dispatch::bool_into_data(Dispatch::bool_all(close))
        .unwrap_or_else(|err| panic!("all_close: {err}"));
    all.iter::<bool>().all(|b| b)
}

/// Converts to an int tensor of the device's default int dtype, truncating toward zero.
pub(crate) fn into_int(t: BridgeTensor) -> BridgeTensor {
    let dtype = t.device().settings().int_dtype;
    BridgeTensor::int(Dispatch::float_into_int(float("int", t), dtype))
}

pub(crate) fn set_require_grad(t: BridgeTensor, require_grad: bool) -> BridgeTensor {
    BridgeTensor::float(Dispatch::float_set_require_grad(
        float("set_require_grad", t),
        require_grad,
    ))
}

pub(crate) fn is_require_grad(t: &BridgeTensor) -> bool {
    match t.get() {
        Stored::Float(x) => Dispatch::float_is_require_grad(x),
        Stored::Int(_) | Stored::Bool(_) | Stored::QFloat(_) => false,
    }
}

// ----------------------------------------------------------------- activations

pub(crate) fn leaky_relu(t: BridgeTensor, slope: f64) -> BridgeTensor {
    BridgeTensor::float(Dispatch::leaky_relu(
        float("leaky_relu", t),
        Scalar::Float(slope),
    ))
}

pub(crate) fn hard_sigmoid(t: BridgeTensor, alpha: f64, beta: f64) -> BridgeTensor {
    BridgeTensor::float(Dispatch::hard_sigmoid(
        float("hard_sigmoid", t),
        Scalar::Float(alpha),
        Scalar::Float(beta),
    ))
}

pub(crate) fn softmax(t: BridgeTensor, dim: usize) -> BridgeTensor {
    BridgeTensor::float(Dispatch::softmax(float("softmax", t), dim))
}

pub(crate) fn log_softmax(t: BridgeTensor, dim: usize) -> BridgeTensor {
    BridgeTensor::float(Dispatch::log_softmax(float("log_softmax", t), dim))
}

/// `softmax(-x)`.
pub(crate) fn softmin(t: BridgeTensor, dim: usize) -> BridgeTensor {
    BridgeTensor::float(Dispatch::softmax(
        Dispatch::float_neg(float("softmin", t)),
        dim,
    ))
}

/// PyTorch's softplus threshold: above it `beta * x` is returned as `x`.
const SOFTPLUS_THRESHOLD: f64 = 20.0;

/// `log(1 + e^(beta x)) / beta`, as `(max(bx, 0) + log1p(e^-|bx|)) / beta` so
/// nothing overflows, and `x` itself where `beta x > 20` (PyTorch's threshold).
fn softplus_impl(x: DispatchTensor, beta: f64) -> DispatchTensor {
    let bx = Dispatch::float_mul_scalar(x.clone(), Scalar::Float(beta));
    let pos = Dispatch::float_clamp_min(bx.clone(), Scalar::Float(0.0));
    let neg_abs = Dispatch::float_neg(Dispatch::float_abs(bx.clone()));
    let tail = Dispatch::float_log1p(Dispatch::float_exp(neg_abs));
    let soft = Dispatch::float_div_scalar(Dispatch::float_add(pos, tail), Scalar::Float(beta));
    let linear = Dispatch::float_greater_elem(bx, Scalar::Float(SOFTPLUS_THRESHOLD));
    Dispatch::float_mask_where(soft, linear, x)
}

pub(crate) fn softplus(t: BridgeTensor, beta: f64) -> BridgeTensor {
    BridgeTensor::float(softplus_impl(float("softplus", t), beta))
}

/// `x * tanh(softplus(x))`.
pub(crate) fn mish(t: BridgeTensor) -> BridgeTensor {
    let x = float("mish", t);
    let tanh = Dispatch::float_tanh(softplus_impl(x.clone(), 1.0));
    BridgeTensor::float(Dispatch::float_mul(x, tanh))
}

/// `x` where `x >= 0`, `alpha * x` elsewhere; `alpha` has one value, or one
/// per channel (dim 1), which is reshaped to broadcast over that dim.
pub(crate) fn prelu(t: BridgeTensor, alpha: BridgeTensor) -> BridgeTensor {
    let (x, alpha) = float_pair("prelu", t, alpha);
    let rank = x.shape().num_dims();
    let n = alpha.shape().dims[0];
    let mut dims = vec![1; rank];
    if n != 1 {
        dims[1] = n;
    }
    let alpha = Dispatch::float_reshape(alpha, Shape::from(dims));
    let scaled = Dispatch::float_mul(x.clone(), alpha);
    let negative = Dispatch::float_lower_elem(x.clone(), Scalar::Float(0.0));
    BridgeTensor::float(Dispatch::float_mask_where(x, negative, scaled))
}
