//! Element-wise unary ops.
//!
//! Every op is a closure handed to [`engine::map`], which picks the in-place,
//! contiguous or strided path. Float closures are written over the compute
//! type (f32 for f16/bf16) and kept branch-free where the op allows, so the
//! contiguous loops vectorize.
use burn_backend::TensorMetadata;
use num_traits::Float;

use crate::FlexTensor;
use crate::engine::map;
use crate::ops::elem::{FloatElem, IntElem, Real};
use crate::tensor::BOOL;
use crate::{with_float, with_int};

/// Unary float functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatUnary {
    Neg,
    Recip,
    Abs,
    Exp,
    Log,
    Log1p,
    Sqrt,
    Sin,
    Cos,
    Tan,
    Sinh,
    Cosh,
    Tanh,
    Asin,
    Acos,
    Atan,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Round,
    Floor,
    Ceil,
    Trunc,
    Sign,
}
/// Unary integer functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntUnary {
    Neg,
    Abs,
    Sign,
    BitNot,
}

/// Maps `f` over a float tensor in its compute type.
#[inline]
fn map_float<E: FloatElem>(
    tensor: FlexTensor,
    f: impl Fn(E::C) -> E::C + Sync + Send,
) -> FlexTensor {
    let dtype = tensor.dtype();
    map::<E, E>(tensor, dtype, move |x| E::down(f(x.up())))
}

fn float_unary_typed<E: FloatElem>(tensor: FlexTensor, op: FloatUnary) -> FlexTensor {
    use FloatUnary as U;
    let t = tensor;
    match op {
        U::Neg => map_float::<E>(t, |x| -x),
        U::Recip => map_float::<E>(t, |x| x.recip()),
        U::Abs => map_float::<E>(t, |x| x.abs()),
        U::Exp => map_float::<E>(t, |x| x.exp_()),
        U::Log => map_float::<E>(t, |x| x.ln()),
        U::Log1p => map_float::<E>(t, |x| x.ln_1p()),
        U::Sqrt => map_float::<E>(t, |x| x.sqrt()),
        U::Sin => map_float::<E>(t, |x| x.sin()),
        U::Cos => map_float::<E>(t, |x| x.cos()),
        U::Tan => map_float::<E>(t, |x| x.tan()),
        U::Sinh => map_float::<E>(t, |x| x.sinh()),
        U::Cosh => map_float::<E>(t, |x| x.cosh()),
        U::Tanh => map_float::<E>(t, |x| x.tanh_()),
        U::Asin => map_float::<E>(t, |x| x.asin()),
        U::Acos => map_float::<E>(t, |x| x.acos()),
        U::Atan => map_float::<E>(t, |x| x.atan()),
        U::Asinh => map_float::<E>(t, |x| x.asinh()),
        U::Acosh => map_float::<E>(t, |x| x.acosh()),
        U::Atanh => map_float::<E>(t, |x| x.atanh()),
        U::Erf => map_float::<E>(t, |x| x.erf()),
        U::Round => map_float::<E>(t, |x| x.round_even()),
        U::Floor => map_float::<E>(t, |x| x.floor_()),
        U::Ceil => map_float::<E>(t, |x| x.ceil_()),
        U::Trunc => map_float::<E>(t, |x| x.trunc_()),
        U::Sign => map_float::<E>(t, |x| x.sign_()),
    }
}

/// Applies a float function element-wise (f16/bf16 computed in f32).
pub fn float_unary(tensor: FlexTensor, op: FloatUnary) -> FlexTensor {
    let dtype = tensor.dtype();
    with_float!(float_op_name(op), dtype, |E| float_unary_typed::<E>(
        tensor, op
    ))
}

fn int_unary_typed<E: IntElem>(tensor: FlexTensor, op: IntUnary) -> FlexTensor {
    let dtype = tensor.dtype();
    match op {
        IntUnary::Neg => map::<E, E>(tensor, dtype, E::w_neg),
        IntUnary::Abs => map::<E, E>(tensor, dtype, E::w_abs),
        IntUnary::Sign => map::<E, E>(tensor, dtype, E::sign),
        IntUnary::BitNot => map::<E, E>(tensor, dtype, E::not),
    }
}

/// Applies an integer function element-wise (wrapping).
pub fn int_unary(tensor: FlexTensor, op: IntUnary) -> FlexTensor {
    let dtype = tensor.dtype();
    let name = match op {
        IntUnary::Neg => "int_neg",
        IntUnary::Abs => "int_abs",
        IntUnary::Sign => "int_sign",
        IntUnary::BitNot => "bitwise_not",
    };
    with_int!(name, dtype, |E| int_unary_typed::<E>(tensor, op))
}

/// Logical not of a bool tensor.
pub fn bool_not(tensor: FlexTensor) -> FlexTensor {
    let dtype = tensor.dtype();
    assert!(
        dtype.is_bool(),
        "bool_not: expected a bool dtype, got {dtype}"
    );
    map::<u8, u8>(tensor, BOOL, |x| (x == 0) as u8)
}

fn float_op_name(op: FloatUnary) -> &'static str {
    use FloatUnary as U;
    match op {
        U::Neg => "float_neg",
        U::Recip => "float_recip",
        U::Abs => "float_abs",
        U::Exp => "float_exp",
        U::Log => "float_log",
        U::Log1p => "float_log1p",
        U::Sqrt => "float_sqrt",
        U::Sin => "float_sin",
        U::Cos => "float_cos",
        U::Tan => "float_tan",
        U::Sinh => "float_sinh",
        U::Cosh => "float_cosh",
        U::Tanh => "float_tanh",
        U::Asin => "float_asin",
        U::Acos => "float_acos",
        U::Atan => "float_atan",
        U::Asinh => "float_asinh",
        U::Acosh => "float_acosh",
        U::Atanh => "float_atanh",
        U::Erf => "float_erf",
        U::Round => "float_round",
        U::Floor => "float_floor",
        U::Ceil => "float_ceil",
        U::Trunc => "float_trunc",
        U::Sign => "float_sign",
    }
}
