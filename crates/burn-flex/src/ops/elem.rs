//! Per-dtype arithmetic used by the element-wise kernels.
//!
//! - [`FloatElem`]: a storage float type and the type it computes in (f16
//!   and bf16 compute in f32 and round once per element).
//! - [`Real`]: the compute types (f32, f64), with the functions
//!   `num_traits::Float` lacks (erf, fmod) and branch-free rounding that
//!   vectorizes without SSE4.1.
//! - [`IntElem`]: wrapping integer arithmetic with PyTorch's floor
//!   division, remainder, power and shift rules.
//! - [`CastElem`]: `as`-style conversion between any two numeric dtypes.

use bytemuck::Pod;
use half::{bf16, f16};
use num_traits::Float;

/// A float compute type (f32 or f64).
pub(crate) trait Real: Float + Pod + Send + Sync + 'static {
    /// `2^(mantissa bits)`: every float at least this large is an integer.
    const INT_THRESHOLD: Self;
    /// The error function.
    fn erf(self) -> Self;
    /// C's `fmod`: remainder with the sign of the dividend.
    fn fmod(self, rhs: Self) -> Self;
    /// `atan2(self, rhs)`.
    fn atan2_(self, rhs: Self) -> Self;
    /// Conversion from f64 (`as`).
    fn of_f64(v: f64) -> Self;
    /// `e^x` (a branch-free kernel for f32 that vectorizes).
    fn exp_(self) -> Self;
    /// Hyperbolic tangent (a branch-free kernel for f32 that vectorizes).
    fn tanh_(self) -> Self;

    /// Rounds half to even (NaN and infinities pass through, `-0.4 -> -0.0`).
    #[inline(always)]
    fn round_even(self) -> Self {
        // Adding and removing 2^mantissa forces the FPU to round away the
        // fraction in its default mode, round-half-to-even.
        let big = Self::INT_THRESHOLD;
        let a = self.abs();
        let r = ((a + big) - big).copysign(self);
        if a < big { r } else { self }
    }
    /// Rounds toward negative infinity.
    #[inline(always)]
    fn floor_(self) -> Self {
        let r = self.round_even();
        // The result has the input's sign: floor(0.5) = +0 (from 1 - 1).
        (if r > self { r - Self::one() } else { r }).copysign(self)
    }
    /// Rounds toward positive infinity.
    #[inline(always)]
    fn ceil_(self) -> Self {
        let r = self.round_even();
        // The result has the input's sign: ceil(-0.7) = -0, not -1 + 1 = +0.
        (if r < self { r + Self::one() } else { r }).copysign(self)
    }
    /// Rounds toward zero.
    #[inline(always)]
    fn trunc_(self) -> Self {
        self.abs().floor_().copysign(self)
    }
    /// -1, 0 or 1 by sign; NaN stays NaN and zeros keep their sign.
    #[inline(always)]
    fn sign_(self) -> Self {
        let one = Self::one();
        let pos = if self > Self::zero() { one } else { self };
        if self < Self::zero() { -one } else { pos }
    }
    /// Maximum; NaN if either operand is NaN.
    #[inline(always)]
    fn max_nan(self, rhs: Self) -> Self {
        let m = if self > rhs { self } else { rhs };
        if self.is_nan() { self } else { m }
    }
    /// Minimum; NaN if either operand is NaN.
    #[inline(always)]
    fn min_nan(self, rhs: Self) -> Self {
        let m = if self < rhs { self } else { rhs };
        if self.is_nan() { self } else { m }
    }
    /// Remainder with the sign of the divisor (Python's `%`).
    #[inline(always)]
    fn rem_floor(self, rhs: Self) -> Self {
        let r = self.fmod(rhs);
        let fix = r != Self::zero() && ((r < Self::zero()) != (rhs < Self::zero()));
        if fix { r + rhs } else { r }
    }
}

impl Real for f32 {
    const INT_THRESHOLD: Self = 8_388_608.0; // 2^23
    #[inline(always)]
    fn erf(self) -> Self {
        libm::erff(self)
    }
    #[inline(always)]
    fn fmod(self, rhs: Self) -> Self {
        libm::fmodf(self, rhs)
    }
    #[inline(always)]
    fn atan2_(self, rhs: Self) -> Self {
        libm::atan2f(self, rhs)
    }
    #[inline(always)]
    fn of_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn exp_(self) -> Self {
        exp_f32(self)
    }
    #[inline(always)]
    fn tanh_(self) -> Self {
        tanh_f32(self)
    }
}

impl Real for f64 {
    const INT_THRESHOLD: Self = 4_503_599_627_370_496.0; // 2^52
    #[inline(always)]
    fn erf(self) -> Self {
        libm::erf(self)
    }
    #[inline(always)]
    fn fmod(self, rhs: Self) -> Self {
        libm::fmod(self, rhs)
    }
    #[inline(always)]
    fn atan2_(self, rhs: Self) -> Self {
        libm::atan2(self, rhs)
    }
    #[inline(always)]
    fn of_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn exp_(self) -> Self {
        Float::exp(self)
    }
    #[inline(always)]
    fn tanh_(self) -> Self {
        Float::tanh(self)
    }
}

// ------------------------------------------------------- f32 exp and tanh
//
// libm's `expf`/`tanhf` are scalar calls, so a loop over them cannot
// vectorize. These kernels are straight-line code (selects, no branches or
// calls) that the compiler turns into SIMD on any x86-64 (SSE2 suffices).
//
// Reduction: x = n ln2 + r with n = round(x / ln2), |r| <= ln2 / 2, using a
// two-part ln2 (Cody-Waite) so that `n * LN2_HI` is exact. Then
// e^r - 1 = r + r^2 (1/2 + r/6 + ... + r^5/5040): the Taylor tail beyond
// r^7 is below 1e-8 relative for |r| <= 0.35, under f32's half ulp.

/// ln 2 with its low 16 significant bits only, so `n * LN2_HI` is exact for |n| < 256.
const LN2_HI: f32 = 0.693_145_75;
/// ln 2 - LN2_HI.
const LN2_LO: f32 = 1.428_606_8e-6;
const LOG2_E: f32 = core::f32::consts::LOG2_E;

/// `(n, e^r - 1)` with `x = n ln2 + r`.
#[inline(always)]
fn exp_reduce(x: f32) -> (f32, f32) {
    let n = (x * LOG2_E).round_even();
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let p = 1.0 / 2.0
        + r * (1.0 / 6.0
            + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))));
    (n, r + (r * r) * p)
}

/// An integral `n` with `|n| < 2^22` as an i32, without a float-to-int
/// conversion (whose saturating form does not vectorize on SSE2): in
/// `1.5 * 2^23 + n` the low mantissa bits hold `n` in two's complement.
/// NaN gives an arbitrary value (callers propagate the NaN through floats).
#[inline(always)]
fn small_int(n: f32) -> i32 {
    (n + 12_582_912.0).to_bits().wrapping_sub(0x4B40_0000) as i32
}

/// `2^n` for an integral `n` in `[-126, 127]`, built from its exponent bits.
#[inline(always)]
fn pow2i(n: i32) -> f32 {
    f32::from_bits((n.wrapping_add(127) as u32) << 23)
}

/// `e^x` for f32, within 2 ulp, subnormal results included.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    // Past these bounds the result is inf or 0 anyway; clamping keeps the
    // exponent arithmetic in range. `clamp` keeps NaN.
    let x = x.clamp(-105.0, 89.0);
    let (n, em1) = exp_reduce(x);
    // n lies in [-152, 129]: scale in two halves so that neither factor
    // leaves the normal range and subnormal results round only once.
    let n = small_int(n);
    let n1 = n >> 1;
    ((1.0 + em1) * pow2i(n1)) * pow2i(n.wrapping_sub(n1))
}

/// `e^x - 1` for `x` in `[-40, 40]` (no cancellation near 0).
#[inline(always)]
fn expm1_f32(x: f32) -> f32 {
    let (n, em1) = exp_reduce(x);
    // 2^n (1 + q) - 1 = 2^n q + (2^n - 1); 2^n - 1 is exact for |n| <= 24,
    // and the sum rounds once.
    let s = pow2i(small_int(n));
    let scaled = s * em1 + (s - 1.0);
    if n == 0.0 { em1 } else { scaled }
}

/// `tanh x` for f32, within a few ulp: `expm1(2x) / (expm1(2x) + 2)`,
/// accurate near 0 where `1 - 2 / (e^2x + 1)` would cancel.
#[inline(always)]
pub(crate) fn tanh_f32(x: f32) -> f32 {
    // tanh(20) is 1 in f32; clamping keeps expm1 finite (and NaN stays NaN).
    let e = expm1_f32(2.0 * x.clamp(-20.0, 20.0));
    // tanh is odd: the sign of x also fixes tanh(-0) = -0.
    (e / (e + 2.0)).copysign(x)
}

/// A float storage type and the [`Real`] type it computes in.
pub(crate) trait FloatElem: Pod + Send + Sync + burn_std::Element + CastElem {
    /// The compute type.
    type C: Real;
    /// Widens to the compute type (exact).
    fn up(self) -> Self::C;
    /// Rounds a computed value back (to nearest even).
    fn down(c: Self::C) -> Self;
    /// The largest value of this type strictly below `x` (for finite `x`).
    fn next_down(self) -> Self;
}

impl FloatElem for f32 {
    type C = f32;
    #[inline(always)]
    fn up(self) -> f32 {
        self
    }
    #[inline(always)]
    fn down(c: f32) -> Self {
        c
    }
    fn next_down(self) -> Self {
        next_down_bits(self.to_bits() as u64, 32, |b| f32::from_bits(b as u32))
    }
}

impl FloatElem for f64 {
    type C = f64;
    #[inline(always)]
    fn up(self) -> f64 {
        self
    }
    #[inline(always)]
    fn down(c: f64) -> Self {
        c
    }
    fn next_down(self) -> Self {
        next_down_bits(self.to_bits(), 64, f64::from_bits)
    }
}

impl FloatElem for f16 {
    type C = f32;
    #[inline(always)]
    fn up(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn down(c: f32) -> Self {
        f16::from_f32(c)
    }
    fn next_down(self) -> Self {
        next_down_bits(self.to_bits() as u64, 16, |b| f16::from_bits(b as u16))
    }
}

impl FloatElem for bf16 {
    type C = f32;
    #[inline(always)]
    fn up(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn down(c: f32) -> Self {
        bf16::from_f32(c)
    }
    fn next_down(self) -> Self {
        next_down_bits(self.to_bits() as u64, 16, |b| bf16::from_bits(b as u16))
    }
}

/// The next representable float below the one with IEEE bits `bits` of a
/// `width`-bit format (finite input).
fn next_down_bits<F>(bits: u64, width: u32, from: impl Fn(u64) -> F) -> F {
    let sign = 1u64 << (width - 1);
    let magnitude = bits & (sign - 1);
    if magnitude == 0 {
        // ±0: the smallest negative subnormal.
        from(sign | 1)
    } else if bits & sign == 0 {
        from(bits - 1)
    } else {
        from(bits + 1)
    }
}

/// A scalar as a value of the float type `E`, rounded once to nearest even.
#[inline]
pub(crate) fn scalar_to_float<E: CastElem>(scalar: burn_std::Scalar) -> E {
    match scalar {
        burn_std::Scalar::Float(v) => E::from_f64(v),
        burn_std::Scalar::Int(v) => E::from_i64(v),
        burn_std::Scalar::UInt(v) => E::from_u64(v),
        burn_std::Scalar::Bool(v) => E::from_u64(v as u64),
    }
}

/// Integer arithmetic with the contract's rules: wrapping add/sub/mul/neg,
/// floor division and remainder with the divisor's sign.
pub(crate) trait IntElem: Pod + Send + Sync + Eq + Ord + burn_std::Element {
    fn w_add(self, rhs: Self) -> Self;
    fn w_sub(self, rhs: Self) -> Self;
    fn w_mul(self, rhs: Self) -> Self;
    fn w_neg(self) -> Self;
    fn w_abs(self) -> Self;
    fn sign(self) -> Self;
    fn not(self) -> Self;
    fn and(self, rhs: Self) -> Self;
    fn or(self, rhs: Self) -> Self;
    fn xor(self, rhs: Self) -> Self;
    /// Floor division; `rhs` must be non-zero (checked by the caller).
    fn floor_div(self, rhs: Self) -> Self;
    /// Remainder with the sign of `rhs`; `rhs` must be non-zero.
    fn floor_rem(self, rhs: Self) -> Self;
    /// Wrapping power; negative exponents give 0 except for bases 1 and -1.
    fn pow(self, exp: Self) -> Self;
    /// Left shift; amounts outside `0..BITS` give 0.
    fn shl(self, rhs: Self) -> Self;
    /// Right shift (arithmetic for signed types); amounts outside `0..BITS`
    /// shift every bit out (0, or -1 for negative values).
    fn shr(self, rhs: Self) -> Self;
    fn is_zero(self) -> bool;
}

/// Square-and-multiply with wrapping.
#[inline]
fn wrapping_pow_u64<T: Copy>(mut base: T, mut exp: u64, one: T, mul: impl Fn(T, T) -> T) -> T {
    let mut acc = one;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, base);
        }
        exp >>= 1;
        if exp > 0 {
            base = mul(base, base);
        }
    }
    acc
}

macro_rules! int_common {
    ($t:ty) => {
        #[inline(always)]
        fn w_add(self, rhs: Self) -> Self {
            self.wrapping_add(rhs)
        }
        #[inline(always)]
        fn w_sub(self, rhs: Self) -> Self {
            self.wrapping_sub(rhs)
        }
        #[inline(always)]
        fn w_mul(self, rhs: Self) -> Self {
            self.wrapping_mul(rhs)
        }
        #[inline(always)]
        fn w_neg(self) -> Self {
            self.wrapping_neg()
        }
        #[inline(always)]
        fn not(self) -> Self {
            !self
        }
        #[inline(always)]
        fn and(self, rhs: Self) -> Self {
            self & rhs
        }
        #[inline(always)]
        fn or(self, rhs: Self) -> Self {
            self | rhs
        }
        #[inline(always)]
        fn xor(self, rhs: Self) -> Self {
            self ^ rhs
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            self == 0
        }
    };
}

macro_rules! impl_signed {
    ($($t:ty),*) => {$(
        impl IntElem for $t {
            int_common!($t);
            #[inline(always)]
            fn w_abs(self) -> Self {
                self.wrapping_abs()
            }
            #[inline(always)]
            fn sign(self) -> Self {
                self.signum()
            }
            #[inline(always)]
            fn floor_div(self, rhs: Self) -> Self {
                let q = self.wrapping_div(rhs);
                let r = self.wrapping_rem(rhs);
                if r != 0 && ((r < 0) != (rhs < 0)) { q - 1 } else { q }
            }
            #[inline(always)]
            fn floor_rem(self, rhs: Self) -> Self {
                let r = self.wrapping_rem(rhs);
                if r != 0 && ((r < 0) != (rhs < 0)) { r + rhs } else { r }
            }
            #[inline]
            fn pow(self, exp: Self) -> Self {
                if exp < 0 {
                    return match self {
                        1 => 1,
                        -1 => if exp & 1 == 0 { 1 } else { -1 },
                        _ => 0,
                    };
                }
                wrapping_pow_u64(self, exp as u64, 1, <$t>::wrapping_mul)
            }
            #[inline(always)]
            fn shl(self, rhs: Self) -> Self {
                if rhs < 0 { 0 } else { self.checked_shl(rhs as u32).unwrap_or(0) }
            }
            #[inline(always)]
            fn shr(self, rhs: Self) -> Self {
                let all_out = self >> (<$t>::BITS - 1);
                if rhs < 0 || rhs as u64 >= <$t>::BITS as u64 { all_out } else { self >> rhs as u32 }
            }
        }
    )*};
}

macro_rules! impl_unsigned {
    ($($t:ty),*) => {$(
        impl IntElem for $t {
            int_common!($t);
            #[inline(always)]
            fn w_abs(self) -> Self {
                self
            }
            #[inline(always)]
            fn sign(self) -> Self {
                (self != 0) as $t
            }
            #[inline(always)]
            fn floor_div(self, rhs: Self) -> Self {
                self / rhs
            }
            #[inline(always)]
            fn floor_rem(self, rhs: Self) -> Self {
                self % rhs
            }
            #[inline]
            fn pow(self, exp: Self) -> Self {
                wrapping_pow_u64(self, exp as u64, 1, <$t>::wrapping_mul)
            }
            #[inline(always)]
            fn shl(self, rhs: Self) -> Self {
                if rhs as u64 >= <$t>::BITS as u64 { 0 } else { self << rhs as u32 }
            }
            #[inline(always)]
            fn shr(self, rhs: Self) -> Self {
                if rhs as u64 >= <$t>::BITS as u64 { 0 } else { self >> rhs as u32 }
            }
        }
    )*};
}

impl_signed!(i64, i32, i16, i8);
impl_unsigned!(u64, u32, u16, u8);

/// Which route a conversion takes out of a source type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// Through f64 (exact for f64 sources).
    F64,
    /// Through f32 (exact for f32, f16, bf16 sources).
    F32,
    /// Through i64 (sign-extended: exact for signed sources).
    I64,
    /// Through u64 (zero-extended: exact for unsigned sources).
    U64,
}

/// A numeric element convertible to any other with Rust's `as` rules:
/// float to int truncates toward zero and saturates (NaN to 0), int to int
/// wraps, and every conversion into a float rounds once to nearest even.
pub(crate) trait CastElem: Pod + Send + Sync {
    /// How values leave this type without loss.
    const ROUTE: Route;
    fn as_f64(self) -> f64;
    fn as_f32(self) -> f32;
    fn as_i64(self) -> i64;
    fn as_u64(self) -> u64;
    fn from_f64(v: f64) -> Self;
    fn from_f32(v: f32) -> Self;
    fn from_i64(v: i64) -> Self;
    fn from_u64(v: u64) -> Self;
    fn nonzero(self) -> bool;
}

/// Converts one element with `as` semantics (see [`CastElem`]).
#[inline(always)]
pub(crate) fn cast_elem<S: CastElem, D: CastElem>(x: S) -> D {
    match S::ROUTE {
        Route::F64 => D::from_f64(x.as_f64()),
        Route::F32 => D::from_f32(x.as_f32()),
        Route::I64 => D::from_i64(x.as_i64()),
        Route::U64 => D::from_u64(x.as_u64()),
    }
}

macro_rules! impl_cast_prim {
    ($route:ident: $($t:ty),*) => {$(
        impl CastElem for $t {
            const ROUTE: Route = Route::$route;
            #[inline(always)]
            fn as_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn as_f32(self) -> f32 { self as f32 }
            #[inline(always)]
            fn as_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn as_u64(self) -> u64 { self as u64 }
            #[inline(always)]
            fn from_f64(v: f64) -> Self { v as $t }
            #[inline(always)]
            fn from_f32(v: f32) -> Self { v as $t }
            #[inline(always)]
            fn from_i64(v: i64) -> Self { v as $t }
            #[inline(always)]
            fn from_u64(v: u64) -> Self { v as $t }
            #[inline(always)]
            #[allow(clippy::float_cmp)]
            fn nonzero(self) -> bool { self != (0 as $t) }
        }
    )*};
}

impl_cast_prim!(F64: f64);
impl_cast_prim!(F32: f32);
impl_cast_prim!(I64: i64, i32, i16, i8);
impl_cast_prim!(U64: u64, u32, u16, u8);

macro_rules! impl_cast_half {
    ($($t:ty),*) => {$(
        impl CastElem for $t {
            const ROUTE: Route = Route::F32;
            #[inline(always)]
            fn as_f64(self) -> f64 { self.to_f64() }
            #[inline(always)]
            fn as_f32(self) -> f32 { self.to_f32() }
            #[inline(always)]
            fn as_i64(self) -> i64 { self.to_f32() as i64 }
            #[inline(always)]
            fn as_u64(self) -> u64 { self.to_f32() as u64 }
            // Wider sources are first rounded to odd in f32, which keeps
            // enough information for the final round-to-nearest-even to be
            // the correctly rounded result (no double rounding). `half`'s own
            // `from_f64` drops the low mantissa bits first.
            #[inline(always)]
            fn from_f64(v: f64) -> Self { <$t>::from_f32(f64_to_f32_odd(v)) }
            #[inline(always)]
            fn from_f32(v: f32) -> Self { <$t>::from_f32(v) }
            #[inline(always)]
            fn from_i64(v: i64) -> Self { <Self as CastElem>::from_f64(i64_to_f64_odd(v)) }
            #[inline(always)]
            fn from_u64(v: u64) -> Self { <Self as CastElem>::from_f64(u64_to_f64_odd(v)) }
            #[inline(always)]
            fn nonzero(self) -> bool { self.to_f32() != 0.0 }
        }
    )*};
}

/// `v` rounded to f32 with round-to-odd: truncated toward zero, with the
/// lowest mantissa bit set when inexact. A later round-to-nearest into a
/// format at least two bits narrower is then correctly rounded.
#[inline(always)]
fn f64_to_f32_odd(v: f64) -> f32 {
    let t = v as f32;
    let back = t as f64;
    if back == v || v.is_nan() {
        return t;
    }
    let mut bits = t.to_bits();
    if back.abs() > v.abs() {
        bits -= 1; // one step toward zero (infinity becomes MAX)
    }
    f32::from_bits(bits | 1)
}

/// `v` rounded to f64 with round-to-odd (see [`f64_to_f32_odd`]).
#[inline(always)]
fn i64_to_f64_odd(v: i64) -> f64 {
    let t = v as f64;
    let back = t as i128; // |t| <= 2^63: exact in i128
    if back == v as i128 {
        return t;
    }
    let mut bits = t.to_bits();
    if back.abs() > (v as i128).abs() {
        bits -= 1;
    }
    f64::from_bits(bits | 1)
}

/// `v` rounded to f64 with round-to-odd (see [`f64_to_f32_odd`]).
#[inline(always)]
fn u64_to_f64_odd(v: u64) -> f64 {
    let t = v as f64;
    let back = t as u128;
    if back == v as u128 {
        return t;
    }
    let mut bits = t.to_bits();
    if back > v as u128 {
        bits -= 1;
    }
    f64::from_bits(bits | 1)
}

impl_cast_half!(f16, bf16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_helpers_match_libm() {
        let xs = [
            -2.5f32, -1.5, -0.7, -0.5, -0.49, 0.7, 0.0, -0.0, 0.5, 1.5, 2.5, 3.7, -3.7, 1e10,
            -1e10, 8388607.5, -8388607.5, 4194302.5,
        ];
        for x in xs {
            assert_eq!(
                x.round_even().to_bits(),
                libm::roundevenf(x).to_bits(),
                "round {x}"
            );
            assert_eq!(x.floor_().to_bits(), libm::floorf(x).to_bits(), "floor {x}");
            assert_eq!(x.ceil_().to_bits(), libm::ceilf(x).to_bits(), "ceil {x}");
            assert_eq!(x.trunc_().to_bits(), libm::truncf(x).to_bits(), "trunc {x}");
            let d = x as f64 * 1.000001;
            assert_eq!(
                d.round_even().to_bits(),
                libm::roundeven(d).to_bits(),
                "round {d}"
            );
            assert_eq!(d.floor_().to_bits(), libm::floor(d).to_bits(), "floor {d}");
            assert_eq!(d.ceil_().to_bits(), libm::ceil(d).to_bits(), "ceil {d}");
        }
    }

    #[test]
    fn half_conversions_round_once() {
        // Just above an f16 tie (1 + 2^-11): correct rounding goes up.
        let v = 1.0 + 1.0 / 2048.0 + 1e-12;
        assert_eq!(
            <f16 as CastElem>::from_f64(v),
            f16::from_f32(1.0 + 1.0 / 1024.0)
        );
        // Exactly on the tie: to even (1.0).
        assert_eq!(<f16 as CastElem>::from_f64(1.0 + 1.0 / 2048.0), f16::ONE);
        // bf16 from a large i64 just above a tie: 2^62 + 2^54 + 1.
        let big = (1i64 << 62) + (1i64 << 54) + 1;
        assert_eq!(
            <bf16 as CastElem>::from_i64(big).to_f64(),
            ((1u64 << 62) + (1u64 << 55)) as f64
        );
        assert_eq!(
            <bf16 as CastElem>::from_u64(u64::MAX).to_f64(),
            2f64.powi(64)
        );
        assert!(<f16 as CastElem>::from_f64(1e300).is_infinite());
        assert!(<bf16 as CastElem>::from_f64(f64::NAN).is_nan());
        assert_eq!(<f16 as CastElem>::from_f64(1e-300).to_bits(), 0);
        assert_eq!(<f16 as CastElem>::from_f64(-1e-300).to_bits(), 0x8000);
    }

    /// Distance in f32 ulps between `got` and the f64 reference.
    fn ulps(got: f32, want: f64) -> f64 {
        let w = want as f32;
        if got == w || (got.is_nan() && want.is_nan()) {
            return 0.0;
        }
        let ulp = (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64;
        (got as f64 - want).abs() / ulp
    }

    #[test]
    fn exp_f32_within_two_ulp() {
        let mut worst = (0.0, 0.0f32);
        // A dense sweep of the whole finite-result range, plus edges.
        let mut xs: alloc::vec::Vec<f32> = (0..2_000_000)
            .map(|i| -104.0 + i as f32 * (193.0 / 2e6))
            .collect();
        xs.extend([
            0.0, -0.0, 1e-30, -1e-30, 88.72, 88.7229, -87.33, -103.9, -100.0, 0.34657, -0.34657,
        ]);
        for &x in &xs {
            let got = exp_f32(x);
            let want = libm::exp(x as f64);
            let e = if want < f32::MIN_POSITIVE as f64 {
                // Subnormal results: absolute error in units of the smallest subnormal.
                (got as f64 - want).abs() / 1.401298464324817e-45
            } else {
                ulps(got, want)
            };
            if e > worst.0 {
                worst = (e, x);
            }
        }
        assert!(worst.0 <= 2.0, "exp: {} ulp at {}", worst.0, worst.1);
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(89.0), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(-200.0), 0.0);
        assert!(exp_f32(f32::NAN).is_nan());
        assert_eq!(exp_f32(0.0), 1.0);
    }

    #[test]
    fn tanh_f32_within_four_ulp() {
        let mut worst = (0.0, 0.0f32);
        let mut xs: alloc::vec::Vec<f32> =
            (0..1_000_000).map(|i| -12.0 + i as f32 * 24e-6).collect();
        xs.extend((0..1000).map(|i| 1e-6 * i as f32));
        xs.extend([
            1e-30, -1e-30, 1e-40, 0.17, 0.18, 0.173, 0.35, 9.0, -9.01, 30.0,
        ]);
        for &x in &xs {
            let e = ulps(tanh_f32(x), libm::tanh(x as f64));
            if e > worst.0 {
                worst = (e, x);
            }
        }
        assert!(worst.0 <= 4.0, "tanh: {} ulp at {}", worst.0, worst.1);
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
        assert!(tanh_f32(f32::NAN).is_nan());
        assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn next_down_steps_one_ulp() {
        assert_eq!(1.0f32.next_down(), 1.0 - f32::EPSILON / 2.0);
        assert_eq!((-1.0f64).next_down(), -1.0 - f64::EPSILON);
        assert_eq!(
            f16::ONE.next_down().to_f32(),
            1.0 - f16::EPSILON.to_f32() / 2.0
        );
        assert!(0.0f32.next_down() < 0.0);
    }
}
