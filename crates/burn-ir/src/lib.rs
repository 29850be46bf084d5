//! # burn-ir: every operation as data
//!
//! The decorator layers of the framework need operations they can hold,
//! inspect and move: Fusion defers a stream of them and fuses what it can,
//! the router sends them through a channel to an executor
//! (`burn_router::TensorInterpreter`), the remote backend ships them over
//! the network, and graph capture records them without running anything.
//! This crate is that description: one serializable value per primitive of
//! the backend contract (the ops traits of `burn-backend`), naming tensors by
//! [`TensorId`] with their shape, dtype and [`TensorStatus`].
//!
//! It knows nothing of how operations run and depends only on `burn-std`
//! and `burn-backend` (for the op vocabulary and option types) and `serde`.
//! It builds without `std`.
//!
//! ## Map
//!
//! - [`tensor`]: [`TensorId`], [`TensorStatus`], [`TensorIr`], [`ScalarIr`],
//!   [`TensorKind`], [`NumericKind`].
//! - [`operation`]: [`OperationIr`] and its families, one per kind of op
//!   ([`InitOperationIr`], [`BaseOperationIr`], [`NumericOperationIr`],
//!   [`FloatOperationIr`], [`IntOperationIr`], [`BoolOperationIr`],
//!   [`ModuleOperationIr`], [`ActivationOperationIr`],
//!   [`QuantizedOperationIr`]), and [`OperationIr::tensors`], what an
//!   operation reads and creates.
//! - [`graph`]: [`GraphIr`], a recorded sequence with its boundaries.
//! - [`handle`]: [`HandleContainer`], the executor's map from ids to
//!   backend primitives, which honours each use's status.
//!
//! Element-wise families take their op from the shared vocabulary of
//! `burn-backend` (`BinaryOp`, `CmpOp`, `FloatUnaryOp`, …), so an addition
//! of floats and of ints is the same variant on another kind. Every consumer
//! matches these enums without a wildcard arm: a new operation fails to
//! compile wherever it is not handled.
//!
//! ## Example
//!
//! An addition of two `[2, 3]` f32 tensors, the second used for the last
//! time, round-tripped through JSON:
//!
//! ```
//! use burn_backend::ops::vocabulary::BinaryOp;
//! use burn_ir::{BinaryOpIr, NumericKind, NumericOperationIr, OperationIr, TensorId, TensorIr, TensorStatus};
//! use burn_std::{DType, Shape};
//!
//! let tensor = |id, status| TensorIr { id: TensorId::new(id), shape: Shape::new([2, 3]), dtype: DType::F32, status };
//! let op = OperationIr::Numeric(
//!     NumericKind::Float,
//!     NumericOperationIr::Binary {
//!         op: BinaryOp::Add,
//!         desc: BinaryOpIr {
//!             lhs: tensor(0, TensorStatus::ReadOnly),
//!             rhs: tensor(1, TensorStatus::ReadWrite),
//!             out: tensor(2, TensorStatus::NotInit),
//!         },
//!     },
//! );
//! let json = serde_json::to_string(&op).unwrap();
//! assert_eq!(serde_json::from_str::<OperationIr>(&json).unwrap(), op);
//! assert_eq!(op.tensors().inputs.len(), 2);
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

pub mod graph;
pub mod handle;
pub mod operation;
pub mod tensor;

pub use graph::GraphIr;
pub use handle::{Handle, HandleContainer, HandleError};
pub use operation::*;
pub use tensor::{NumericKind, ScalarIr, TensorId, TensorIr, TensorKind, TensorStatus};
