//! Element-wise math as `#[cube]` functions: what one float unary or
//! binary op computes on a vector of values, and how a strided operand is
//! addressed. burn-cubecl's unfused kernels and the fused kernels of
//! [`elementwise`](crate::elementwise) both call these, so a fused chain
//! computes each op exactly as its own kernel would.

use burn_backend::{BinaryOp, FloatBinaryOp, FloatUnaryOp};
use cubecl::prelude::*;

/// `op(x)` for every float unary op of the contract.
#[cube]
pub fn float_unary<F: Float, N: Size>(
    x: Vector<F, N>,
    #[comptime] op: FloatUnaryOp,
) -> Vector<F, N> {
    let zero = Vector::<F, N>::new(F::new(0.0));
    let one = Vector::<F, N>::new(F::new(1.0));
    let minus_one = Vector::<F, N>::new(F::new(-1.0));
    match op {
        // Unary minus on vectors does not compile on CUDA in cubecl 0.10;
        // × −1 is the same value, −0 and NaN included.
        FloatUnaryOp::Neg => x * minus_one,
        FloatUnaryOp::Recip => one / x,
        FloatUnaryOp::Abs => Vector::abs(x),
        FloatUnaryOp::Exp => Vector::exp(x),
        FloatUnaryOp::Log => Vector::ln(x),
        // Near zero, the series x − x²/2 + … + x⁷/7 (error below x⁸/8);
        // elsewhere Kahan's form log(u)·x/(u − 1), u = 1 + x. Some drivers'
        // log is only absolutely accurate near 1 (lavapipe's), which would
        // lose the relative precision of small results.
        FloatUnaryOp::Log1p => {
            let c2 = Vector::<F, N>::new(F::new(0.5));
            let c3 = Vector::<F, N>::new(F::new(1.0 / 3.0));
            let c4 = Vector::<F, N>::new(F::new(0.25));
            let c5 = Vector::<F, N>::new(F::new(0.2));
            let c6 = Vector::<F, N>::new(F::new(1.0 / 6.0));
            let c7 = Vector::<F, N>::new(F::new(1.0 / 7.0));
            let series = x * (one - x * (c2 - x * (c3 - x * (c4 - x * (c5 - x * (c6 - x * c7))))));
            let u = one + x;
            let d = u - one;
            let kahan = Vector::ln(u) * (x / select_many(d.equal(zero), one, d));
            select_many(
                Vector::abs(x).less_than(Vector::new(F::new(0.05))),
                series,
                kahan,
            )
        }
        FloatUnaryOp::Sqrt => Vector::sqrt(x),
        FloatUnaryOp::Sin => Vector::sin(x),
        FloatUnaryOp::Cos => Vector::cos(x),
        FloatUnaryOp::Tan => Vector::tan(x),
        FloatUnaryOp::Sinh => Vector::sinh(x),
        FloatUnaryOp::Cosh => Vector::cosh(x),
        FloatUnaryOp::Tanh => Vector::tanh(x),
        FloatUnaryOp::Asin => Vector::asin(x),
        FloatUnaryOp::Acos => Vector::acos(x),
        FloatUnaryOp::Atan => Vector::atan(x),
        FloatUnaryOp::Asinh => Vector::asinh(x),
        FloatUnaryOp::Acosh => Vector::acosh(x),
        FloatUnaryOp::Atanh => Vector::atanh(x),
        FloatUnaryOp::Erf => Vector::erf(x),
        FloatUnaryOp::Round => Vector::round(x),
        FloatUnaryOp::Floor => Vector::floor(x),
        FloatUnaryOp::Ceil => Vector::ceil(x),
        FloatUnaryOp::Trunc => Vector::trunc(x),
        // ±0 and NaN map to themselves.
        FloatUnaryOp::Sign => select_many(
            x.greater_than(zero),
            one,
            select_many(x.less_than(zero), minus_one, x),
        ),
    }
}

/// What a float binary kernel computes: an op of every numeric dtype, or
/// one of floats only (burn-cubecl's int kernels take their own enum, so
/// neither can be handed an op it has no arm for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    /// An op of every numeric dtype.
    Numeric(BinaryOp),
    /// An op of float dtypes only.
    Float(FloatBinaryOp),
}

/// `a^b` with the real-valued results of a negative base and an integral
/// exponent (GPU `pow` is `exp2(b·log2 a)`, NaN for any negative base).
#[cube]
pub fn float_pow<F: Float, N: Size>(a: Vector<F, N>, b: Vector<F, N>) -> Vector<F, N> {
    let zero = Vector::<F, N>::new(F::new(0.0));
    let one = Vector::<F, N>::new(F::new(1.0));
    let two = Vector::<F, N>::new(F::new(2.0));
    let magnitude = Vector::powf(Vector::abs(a), b);
    let integral = Vector::floor(b).equal(b);
    let odd = Vector::abs(b) - two * Vector::floor(Vector::abs(b) / two);
    let minus_one = Vector::<F, N>::new(F::new(-1.0));
    let signed = select_many(odd.equal(one), magnitude * minus_one, magnitude);
    // A negative base with a fractional exponent is NaN, as the device's
    // own pow gives it.
    let negative = select_many(integral, signed, Vector::powf(a, b));
    let result = select_many(a.less_than(zero), negative, magnitude);
    // x^0 = 1 for every x, NaN included.
    select_many(b.equal(zero), one, result)
}

/// `r` with the lanes where `b` is NaN replaced by that NaN. The test is
/// cubecl's bit-level NaN check: `b != b` is folded to false by drivers
/// that assume no NaN (WGSL allows it; lavapipe does).
#[cube]
pub fn nan_wins<F: Float, N: Size>(r: Vector<F, N>, b: Vector<F, N>) -> Vector<F, N> {
    select_many(Vector::is_nan(b), b, r)
}

/// `a op b` for every float binary op of the contract.
#[cube]
pub fn float_binary<F: Float, N: Size>(
    a: Vector<F, N>,
    b: Vector<F, N>,
    #[comptime] op: FloatOp,
) -> Vector<F, N> {
    match op {
        FloatOp::Numeric(BinaryOp::Add) => a + b,
        FloatOp::Numeric(BinaryOp::Sub) => a - b,
        FloatOp::Numeric(BinaryOp::Mul) => a * b,
        FloatOp::Numeric(BinaryOp::Div) => a / b,
        // Floor modulo: the sign of the divisor, as PyTorch's remainder.
        FloatOp::Numeric(BinaryOp::Rem) => a - b * Vector::floor(a / b),
        FloatOp::Numeric(BinaryOp::Pow) => float_pow::<F, N>(a, b),
        // NaN in either operand gives NaN.
        FloatOp::Numeric(BinaryOp::Max) => {
            nan_wins::<F, N>(select_many(b.greater_than(a), b, a), b)
        }
        FloatOp::Numeric(BinaryOp::Min) => nan_wins::<F, N>(select_many(b.less_than(a), b, a), b),
        FloatOp::Float(FloatBinaryOp::Atan2) => Vector::atan2(a, b),
    }
}

/// `x^exponent` for a small integral exponent known when the kernel is
/// built: exact products, as PyTorch computes `x ** 2` and `x ** 3`.
#[cube]
pub fn float_powi<F: Float, N: Size>(x: Vector<F, N>, #[comptime] exponent: i32) -> Vector<F, N> {
    let one = Vector::<F, N>::new(F::new(1.0));
    let mut acc = one;
    #[unroll]
    for _ in 0..comptime![exponent.unsigned_abs()] {
        acc *= x;
    }
    if comptime![exponent < 0] {
        acc = one / acc;
    }
    acc
}

/// The integral exponents a scalar `pow` computes by [`float_powi`].
pub const SMALL_POW: core::ops::RangeInclusive<i32> = -4..=4;

/// The exponent [`float_powi`] computes for a scalar `pow` by `e`, if any.
pub fn small_pow(e: f64) -> Option<i32> {
    (e.fract() == 0.0 && SMALL_POW.contains(&(e as i32))).then_some(e as i32)
}

/// Element offset of `elem` (a row-major position in `out`'s shape) in `t`,
/// which has `out`'s shape with its own strides (0 on broadcast dims).
#[cube]
pub fn strided_offset<A: Scalar, NA: Size, B: Scalar, NB: Size>(
    t: &Tensor<Vector<A, NA>>,
    out: &Tensor<Vector<B, NB>>,
    elem: usize,
    #[comptime] rank: usize,
) -> usize {
    let mut offset = 0;
    #[unroll]
    for d in 0..rank {
        let coord = (elem / out.stride(d)) % out.shape(d);
        offset += coord * t.stride(d);
    }
    offset
}
