//! The ops traits, one file per tensor kind or op family.
//!
//! Names are prefixed with the kind (`float_add`, `int_powf`, `bool_and`) so
//! one grep finds an op in every layer crate. Required methods are the
//! primitives a backend must provide; provided methods are composites written
//! once over those primitives.

mod activation;
mod bool;
mod float;
mod int;
mod module;
mod module_options;
mod pool_options;
mod qtensor;
mod transaction;
pub mod vocabulary;

pub use activation::ActivationOps;
pub use bool::BoolTensorOps;
pub use float::FloatTensorOps;
pub use int::IntTensorOps;
pub use module::ModuleOps;
pub use module_options::{ConvOptions, ConvTransposeOptions, UnfoldOptions};
pub use pool_options::{
    AttentionOptions, InterpolateMode, InterpolateOptions, PoolWindow, dims3, dims4,
    nonempty_spatial, pool_output_size, pool2d_output_shape,
};
pub use qtensor::{QTensorOps, matmul_dequantized, reshape_keeps_blocks, scheme_of};
pub use transaction::{TransactionOps, TransactionPrimitive, TransactionPrimitiveData};
pub use vocabulary::{
    ArgReduceOp, BinaryOp, BitwiseOp, BoolOp, CmpOp, CumOp, FloatBinaryOp, FloatUnaryOp,
    IntUnaryOp, ReduceOp,
};

use crate::{Backend, IntTensor};
use burn_std::{DType, Shape};

/// An int tensor holding `0..n` along `dim` of a `rank`-dim tensor, size 1 elsewhere,
/// used by composites that compare positions (tril, triu).
pub(crate) fn positions<B: Backend>(
    n: usize,
    dim: usize,
    rank: usize,
    device: &crate::Device<B>,
) -> IntTensor<B> {
    let arange = B::int_arange(0..n as i64, device, DType::I64);
    let mut dims = alloc::vec![1; rank];
    dims[dim] = n;
    B::int_reshape(arange, Shape::from(dims))
}
