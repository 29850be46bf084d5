//! Element-wise unary ops.
//!
//! Every op is a closure handed to [`engine::map`], which picks the in-place,
//! contiguous or strided path. Float closures are written over the compute
//! type (f32 for f16/bf16) and kept branch-free where the op allows, so the
//! contiguous loops vectorize.
use burn_backend::kernels::UnaryKernels;
use burn_backend::{FloatUnaryOp, IntUnaryOp, TensorMetadata};
use num_traits::Float;

use crate::engine::map;
use crate::ops::elem::{FloatElem, IntElem, Real};
use crate::tensor::BOOL;
use crate::{Flex, FlexTensor};
use crate::{with_float, with_int};

/// Maps `f` over a float tensor in its compute type.
#[inline]
fn map_float<E: FloatElem>(
    tensor: FlexTensor,
    f: impl Fn(E::C) -> E::C + Sync + Send,
) -> FlexTensor {
    let dtype = tensor.dtype();
    map::<E, E>(tensor, dtype, move |x| E::down(f(x.up())))
}

fn float_unary_typed<E: FloatElem>(tensor: FlexTensor, op: FloatUnaryOp) -> FlexTensor {
    use FloatUnaryOp as U;
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

fn int_unary_typed<E: IntElem>(tensor: FlexTensor, op: IntUnaryOp) -> FlexTensor {
    let dtype = tensor.dtype();
    match op {
        IntUnaryOp::Neg => map::<E, E>(tensor, dtype, E::w_neg),
        IntUnaryOp::Abs => map::<E, E>(tensor, dtype, E::w_abs),
        IntUnaryOp::Sign => map::<E, E>(tensor, dtype, E::sign),
        IntUnaryOp::BitNot => map::<E, E>(tensor, dtype, E::not),
    }
}

// ------------------------------------------------------------ UnaryKernels

impl UnaryKernels for Flex {
    /// Applies a float function element-wise (f16/bf16 computed in f32).
    fn float_unary(op: FloatUnaryOp, tensor: FlexTensor) -> FlexTensor {
        let dtype = tensor.dtype();
        with_float!(op.name(), dtype, |E| float_unary_typed::<E>(tensor, op))
    }

    /// Applies an integer function element-wise (wrapping).
    fn int_unary(op: IntUnaryOp, tensor: FlexTensor) -> FlexTensor {
        let dtype = tensor.dtype();
        with_int!(op.name(), dtype, |E| int_unary_typed::<E>(tensor, op))
    }

    /// Logical not of a bool tensor.
    fn logical_not(tensor: FlexTensor) -> FlexTensor {
        let dtype = tensor.dtype();
        assert!(
            dtype.is_bool(),
            "bool_not: expected a bool dtype, got {dtype}"
        );
        map::<u8, u8>(tensor, BOOL, |x| (x == 0) as u8)
    }
}
