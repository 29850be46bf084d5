//! Element-wise binary ops with broadcasting, comparisons and bool logic.
//!
//! Tensor-tensor ops go through [`engine::zip`] (broadcasting, in-place
//! reuse of a uniquely owned lhs, parallel chunks); tensor-scalar ops
//! through [`engine::map`] with the scalar captured by the closure.
use core::cmp::Ordering;

use burn_backend::kernels::BinaryKernels;
use burn_backend::{BinaryOp, BitwiseOp, BoolOp, CmpOp, FloatBinaryOp, TensorMetadata, check};
use burn_std::{DType, Scalar};

use crate::engine::{map, zip};
use crate::ops::elem::{FloatElem, IntElem, Real, scalar_to_float};
use crate::tensor::BOOL;
use crate::{Flex, FlexTensor};
use crate::{with_float, with_int};

/// Whether `op` divides by its right operand, which integers cannot be zero.
fn divides(op: BinaryOp) -> bool {
    match op {
        BinaryOp::Div | BinaryOp::Rem => true,
        BinaryOp::Add
        | BinaryOp::Sub
        | BinaryOp::Mul
        | BinaryOp::Pow
        | BinaryOp::Max
        | BinaryOp::Min => false,
    }
}

#[track_caller]
fn division_by_zero(op: BinaryOp) -> ! {
    panic!("{}: integer division by zero", op.name())
}

// ------------------------------------------------------------------ floats

/// Runs `$body` with `$f` bound to the float closure of `$op` over `$C`.
macro_rules! float_op {
    ($op:expr, $C:ty, |$f:ident| $body:expr) => {
        match $op {
            BinaryOp::Add => {
                let $f = |a: $C, b: $C| a + b;
                $body
            }
            BinaryOp::Sub => {
                let $f = |a: $C, b: $C| a - b;
                $body
            }
            BinaryOp::Mul => {
                let $f = |a: $C, b: $C| a * b;
                $body
            }
            BinaryOp::Div => {
                let $f = |a: $C, b: $C| a / b;
                $body
            }
            BinaryOp::Rem => {
                let $f = |a: $C, b: $C| a.rem_floor(b);
                $body
            }
            BinaryOp::Pow => {
                let $f = |a: $C, b: $C| num_traits::Float::powf(a, b);
                $body
            }
            BinaryOp::Max => {
                let $f = |a: $C, b: $C| a.max_nan(b);
                $body
            }
            BinaryOp::Min => {
                let $f = |a: $C, b: $C| a.min_nan(b);
                $body
            }
        }
    };
}

fn float_binary<E: FloatElem>(op: BinaryOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    let dtype = lhs.dtype();
    float_op!(op, E::C, |f| zip::<E, E, E>(
        op.name(),
        lhs,
        rhs,
        dtype,
        move |a, b| E::down(f(a.up(), b.up()))
    ))
}

fn float_binary_scalar<E: FloatElem>(op: BinaryOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
    let dtype = lhs.dtype();
    let s = scalar_to_float::<E>(rhs).up();
    // Exponents with an exact cheaper form (the common `x^2` of losses).
    if op == BinaryOp::Pow {
        let c = |v: f64| <E::C as Real>::of_f64(v);
        if s == c(1.0) {
            return map::<E, E>(lhs, dtype, |a| a);
        }
        if s == c(2.0) {
            return map::<E, E>(lhs, dtype, |a| {
                let a = a.up();
                E::down(a * a)
            });
        }
    }
    float_op!(op, E::C, |f| map::<E, E>(lhs, dtype, move |a| E::down(f(
        a.up(),
        s
    ))))
}

// ---------------------------------------------------------------- integers

/// Runs `$body` with `$f` bound to the integer closure of `$op` over `$E`.
/// Division and remainder check their divisor in the closure.
macro_rules! int_op {
    ($op:expr, $E:ty, |$f:ident| $body:expr) => {
        match $op {
            BinaryOp::Add => {
                let $f = <$E>::w_add;
                $body
            }
            BinaryOp::Sub => {
                let $f = <$E>::w_sub;
                $body
            }
            BinaryOp::Mul => {
                let $f = <$E>::w_mul;
                $body
            }
            BinaryOp::Div => {
                let $f = |a: $E, b: $E| {
                    if b.is_zero() {
                        division_by_zero(BinaryOp::Div)
                    }
                    a.floor_div(b)
                };
                $body
            }
            BinaryOp::Rem => {
                let $f = |a: $E, b: $E| {
                    if b.is_zero() {
                        division_by_zero(BinaryOp::Rem)
                    }
                    a.floor_rem(b)
                };
                $body
            }
            BinaryOp::Pow => {
                let $f = <$E>::pow;
                $body
            }
            BinaryOp::Max => {
                let $f = |a: $E, b: $E| if a > b { a } else { b };
                $body
            }
            BinaryOp::Min => {
                let $f = |a: $E, b: $E| if a < b { a } else { b };
                $body
            }
        }
    };
}

/// Runs `$body` with `$f` bound to the integer closure of the bitwise `$op` over `$E`.
macro_rules! bitwise_op {
    ($op:expr, $E:ty, |$f:ident| $body:expr) => {
        match $op {
            BitwiseOp::And => {
                let $f = <$E>::and;
                $body
            }
            BitwiseOp::Or => {
                let $f = <$E>::or;
                $body
            }
            BitwiseOp::Xor => {
                let $f = <$E>::xor;
                $body
            }
            BitwiseOp::Shl => {
                let $f = <$E>::shl;
                $body
            }
            BitwiseOp::Shr => {
                let $f = <$E>::shr;
                $body
            }
        }
    };
}

fn int_binary<E: IntElem>(op: BinaryOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    let dtype = lhs.dtype();
    int_op!(op, E, |f| zip::<E, E, E>(op.name(), lhs, rhs, dtype, f))
}

fn int_binary_scalar<E: IntElem>(op: BinaryOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
    let dtype = lhs.dtype();
    let s = rhs.elem::<E>();
    if divides(op) && s.is_zero() {
        division_by_zero(op);
    }
    int_op!(op, E, |f| map::<E, E>(lhs, dtype, move |a| f(a, s)))
}

fn int_bitwise<E: IntElem>(op: BitwiseOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    let dtype = lhs.dtype();
    bitwise_op!(op, E, |f| zip::<E, E, E>(op.name(), lhs, rhs, dtype, f))
}

fn int_bitwise_scalar<E: IntElem>(op: BitwiseOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
    let dtype = lhs.dtype();
    let s = rhs.elem::<E>();
    bitwise_op!(op, E, |f| map::<E, E>(lhs, dtype, move |a| f(a, s)))
}

// ------------------------------------------------------------------ checks

#[track_caller]
fn check_operands(op: &str, lhs: &FlexTensor, rhs: &FlexTensor) -> DType {
    let (l, r) = (lhs.dtype(), rhs.dtype());
    check::same_dtype(op, l, r);
    l
}

/// Rejects bool as non-numeric: the integer dispatch alone would call it
/// "not an integer", which misstates what arithmetic accepts.
#[track_caller]
fn check_numeric(op: &str, dtype: DType) {
    if dtype.is_bool() {
        panic!("{op}: expected a numeric dtype, got {dtype}");
    }
}

// ------------------------------------------------------------- comparisons

/// Runs `$body` with `$f` bound to a `Fn(T, T) -> u8` comparison.
macro_rules! cmp_op {
    ($op:expr, $T:ty, |$f:ident| $body:expr) => {
        match $op {
            CmpOp::Eq => {
                let $f = |a: $T, b: $T| (a == b) as u8;
                $body
            }
            CmpOp::Ne => {
                let $f = |a: $T, b: $T| (a != b) as u8;
                $body
            }
            CmpOp::Gt => {
                let $f = |a: $T, b: $T| (a > b) as u8;
                $body
            }
            CmpOp::Ge => {
                let $f = |a: $T, b: $T| (a >= b) as u8;
                $body
            }
            CmpOp::Lt => {
                let $f = |a: $T, b: $T| (a < b) as u8;
                $body
            }
            CmpOp::Le => {
                let $f = |a: $T, b: $T| (a <= b) as u8;
                $body
            }
        }
    };
}

/// Where an integer scalar lies relative to the values of an integer dtype.
enum IntBound<E> {
    /// Every comparison is false except `Ne` (NaN).
    Unordered,
    /// Above every value of the dtype.
    Above,
    /// Below every value of the dtype.
    Below,
    /// `floor(scalar)` is a value of the dtype; `fraction` tells whether the
    /// scalar lies strictly between it and the next integer.
    At { floor: E, fraction: bool },
}

/// Places a scalar against an integer dtype without rounding it into range,
/// so `int_tensor == 2.5` is all false and `u8_tensor > -1` all true.
fn int_bound<E: burn_std::Element>(scalar: Scalar) -> IntBound<E> {
    let (lo, hi) = (
        E::min_value().to_i64() as i128,
        E::max_value().to_u64() as i128,
    );
    let (floor, fraction) = match scalar {
        Scalar::Float(v) if v.is_nan() => return IntBound::Unordered,
        Scalar::Float(v) => {
            let f = libm::floor(v);
            if f < lo as f64 {
                return IntBound::Below;
            }
            if f > hi as f64 {
                return IntBound::Above;
            }
            // In range and integral, so exact as i128 (|f| <= 2^64).
            (f as i128, f != v)
        }
        Scalar::Int(v) => (v as i128, false),
        Scalar::UInt(v) => (v as i128, false),
        Scalar::Bool(v) => (v as i128, false),
    };
    if floor < lo {
        IntBound::Below
    } else if floor > hi {
        IntBound::Above
    } else {
        let floor = if floor < 0 {
            E::from_i64(floor as i64)
        } else {
            E::from_u64(floor as u64)
        };
        IntBound::At { floor, fraction }
    }
}

fn int_compare_scalar<E: burn_std::Element + bytemuck::Pod + Ord>(
    op: CmpOp,
    lhs: FlexTensor,
    rhs: Scalar,
    prepare: impl Fn(E) -> E + Sync + Send,
) -> FlexTensor {
    let constant = |lhs: FlexTensor, v: bool| map::<E, u8>(lhs, BOOL, move |_| v as u8);
    match int_bound::<E>(rhs) {
        IntBound::Unordered => constant(lhs, op.holds(None)),
        // Every element is below the scalar, or above it.
        IntBound::Above => constant(lhs, op.holds(Some(Ordering::Less))),
        IntBound::Below => constant(lhs, op.holds(Some(Ordering::Greater))),
        IntBound::At { floor: s, fraction } => {
            let f = move |a: E| {
                let a = prepare(a);
                (match (op, fraction) {
                    (CmpOp::Eq, false) => a == s,
                    (CmpOp::Ne, false) => a != s,
                    (CmpOp::Eq, true) => false,
                    (CmpOp::Ne, true) => true,
                    // x > s + frac  <=>  x > s, for integer x.
                    (CmpOp::Gt, _) | (CmpOp::Ge, true) => a > s,
                    (CmpOp::Ge, false) => a >= s,
                    (CmpOp::Lt, true) | (CmpOp::Le, _) => a <= s,
                    (CmpOp::Lt, false) => a < s,
                }) as u8
            };
            map::<E, u8>(lhs, BOOL, f)
        }
    }
}

// ----------------------------------------------------------- BinaryKernels

impl BinaryKernels for Flex {
    /// `lhs op rhs` with broadcasting; both operands share a numeric dtype.
    fn binary(op: BinaryOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let dtype = check_operands(op.name(), &lhs, &rhs);
        if dtype.is_float() {
            with_float!(op.name(), dtype, |E| float_binary::<E>(op, lhs, rhs))
        } else {
            check_numeric(op.name(), dtype);
            with_int!(op.name(), dtype, |E| int_binary::<E>(op, lhs, rhs))
        }
    }

    /// `lhs op rhs` with a scalar converted to the tensor's dtype.
    fn binary_scalar(op: BinaryOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
        let dtype = lhs.dtype();
        if dtype.is_float() {
            with_float!(op.name(), dtype, |E| float_binary_scalar::<E>(op, lhs, rhs))
        } else {
            check_numeric(op.name(), dtype);
            with_int!(op.name(), dtype, |E| int_binary_scalar::<E>(op, lhs, rhs))
        }
    }

    /// `lhs op rhs` of two float tensors with broadcasting.
    fn float_binary(op: FloatBinaryOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let dtype = check_operands(op.name(), &lhs, &rhs);
        with_float!(op.name(), dtype, |E| match op {
            FloatBinaryOp::Atan2 => zip::<E, E, E>(op.name(), lhs, rhs, dtype, |a, b| {
                E::down(a.up().atan2_(b.up()))
            }),
        })
    }

    /// Bitwise `lhs op rhs` of two integer tensors with broadcasting.
    fn bitwise(op: BitwiseOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let dtype = check_operands(op.name(), &lhs, &rhs);
        with_int!(op.name(), dtype, |E| int_bitwise::<E>(op, lhs, rhs))
    }

    /// Bitwise `lhs op rhs` with a scalar converted to the tensor's integer dtype.
    fn bitwise_scalar(op: BitwiseOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
        let dtype = lhs.dtype();
        with_int!(op.name(), dtype, |E| int_bitwise_scalar::<E>(op, lhs, rhs))
    }

    /// Element-wise comparison giving a bool tensor.
    fn compare(op: CmpOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let dtype = check_operands(op.name(), &lhs, &rhs);
        let name = op.name();
        if dtype.is_bool() {
            // Bools compare as 0 < 1; any non-zero byte counts as true.
            return cmp_op!(op, u8, |f| zip::<u8, u8, u8>(
                name,
                lhs,
                rhs,
                BOOL,
                move |a, b| f((a != 0) as u8, (b != 0) as u8)
            ));
        }
        if dtype.is_float() {
            return with_float!(name, dtype, |E| {
                cmp_op!(op, <E as FloatElem>::C, |f| zip::<E, E, u8>(
                    name,
                    lhs,
                    rhs,
                    BOOL,
                    move |a, b| f(a.up(), b.up())
                ))
            });
        }
        with_int!(name, dtype, |E| cmp_op!(op, E, |f| zip::<E, E, u8>(
            name, lhs, rhs, BOOL, f
        )))
    }

    /// Comparison with a scalar giving a bool tensor.
    ///
    /// Float tensors compare with the scalar converted to their dtype, as
    /// PyTorch does; integer and bool tensors compare with the exact scalar
    /// value (a fractional or out-of-range scalar is not rounded into range).
    fn compare_scalar(op: CmpOp, lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
        let dtype = lhs.dtype();
        let name = op.name();
        if dtype.is_bool() {
            return int_compare_scalar::<u8>(op, lhs, rhs, |a| (a != 0) as u8);
        }
        if dtype.is_float() {
            return with_float!(name, dtype, |E| {
                let s = scalar_to_float::<E>(rhs).up();
                cmp_op!(op, <E as FloatElem>::C, |f| map::<E, u8>(
                    lhs,
                    BOOL,
                    move |a| f(a.up(), s)
                ))
            });
        }
        with_int!(name, dtype, |E| int_compare_scalar::<E>(
            op,
            lhs,
            rhs,
            |a| a
        ))
    }

    /// Logic between bool tensors with broadcasting.
    fn bool_binary(op: BoolOp, lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let name = op.name();
        let (l, r) = (lhs.dtype(), rhs.dtype());
        assert!(
            l.is_bool() && r.is_bool(),
            "{name}: expected bool operands, got {l} and {r}"
        );
        // Normalising to 0/1 first keeps any non-zero byte "true".
        let b = |x: u8| (x != 0) as u8;
        match op {
            BoolOp::And => zip::<u8, u8, u8>(name, lhs, rhs, BOOL, move |x, y| b(x) & b(y)),
            BoolOp::Or => zip::<u8, u8, u8>(name, lhs, rhs, BOOL, move |x, y| b(x) | b(y)),
            BoolOp::Xor => zip::<u8, u8, u8>(name, lhs, rhs, BOOL, move |x, y| b(x) ^ b(y)),
            BoolOp::Eq => zip::<u8, u8, u8>(name, lhs, rhs, BOOL, move |x, y| (b(x) == b(y)) as u8),
        }
    }
}
