//! # burn-backend: the contract between the tensor API and the backends
//!
//! Every backend (Flex on the CPU, CubeCL on GPUs, the Autodiff and Fusion
//! decorators, the router) implements the traits of this crate, and nothing
//! above dispatch ever names a backend type. The contract is deliberately
//! *small and primitive*: a backend implements the primitive operations and
//! inherits the composites (mean from sum, softmax, gelu, tril, topk, …) as
//! default methods written once here over those primitives. A backend
//! overrides a composite only when it has a measured reason to.
//!
//! This crate must not depend on any backend, on the tensor API, or on `std`
//! (it builds with `alloc` only when the `std` feature is off).
//!
//! ## Dtypes are run-time values
//!
//! There are no associated element types. A primitive reports its
//! [`DType`] through [`TensorMetadata`]; creation ops take the dtype to
//! create; scalars travel as [`Scalar`], whatever the tensor's dtype. A
//! backend lists what it handles through [`Backend::supports_dtype`] and
//! rejects the rest with a message naming the op and the dtype.
//!
//! ## Modules
//!
//! - [`backend`]: [`BackendTypes`], [`Backend`], [`DeviceOps`], [`TensorMetadata`], errors.
//! - [`ops`]: the ops traits, one file per kind as in every layer crate:
//!   [`FloatTensorOps`], [`IntTensorOps`], [`BoolTensorOps`], [`ModuleOps`],
//!   [`ActivationOps`], [`TransactionOps`]; and [`ops::vocabulary`], the
//!   element-wise, comparison, reduction and scan ops as data ([`BinaryOp`],
//!   [`CmpOp`], [`FloatUnaryOp`], …), shared by kernels, the IR and fusion.
//! - [`autodiff`]: [`AutodiffBackend`], what a differentiating backend adds.
//! - [`check`]: shape validation shared by backends (broadcasting, matmul, cat, …),
//!   so every backend reports bad input with the same message.
//! - [`kernels`]: the kernel interface of a backend whose float, int and bool
//!   tensors share one primitive (Flex, CubeCL): one trait per op family
//!   ([`ShapeKernels`](kernels::ShapeKernels), [`BinaryKernels`](kernels::BinaryKernels), …),
//!   on which [`FloatTensorOps`], [`IntTensorOps`], [`BoolTensorOps`] and
//!   [`ModuleOps`] are implemented once for such backends.
//!
//! ## Example
//!
//! Writing code that is generic over any backend:
//!
//! ```
//! use burn_backend::{Backend, FloatTensor, Scalar};
//!
//! /// `x * 2 + 1`, on whichever backend the caller picks.
//! fn affine<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
//!     B::float_add_scalar(B::float_mul_scalar(x, Scalar::Float(2.0)), Scalar::Float(1.0))
//! }
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod autodiff;
pub mod backend;
pub mod check;
pub mod kernels;
pub mod ops;

pub use autodiff::{AutodiffBackend, BackwardError};
pub use backend::*;
pub use kernels::Kernels;
pub use ops::*;

pub use burn_std::{
    BoolStore, Bytes, DType, Distribution, Element, ElementConversion, Scalar, Shape, Slice,
    TensorData, Tolerance, bf16, f16,
};
