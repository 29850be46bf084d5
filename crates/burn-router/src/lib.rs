//! # burn-router: operations as IR, through a channel, to an executor
//!
//! [`BackendRouter<C>`] is a backend that executes nothing itself: each
//! operation becomes one [`OperationIr`](burn_ir::OperationIr) with its
//! output shapes and dtypes computed on the spot, and goes through the
//! channel `C` to the [`RunnerClient`] serving the tensors' device. Its
//! tensors ([`RouterTensor`]) are ids on that client. A
//! [`TensorInterpreter`] executes IR on any concrete backend, mapping each
//! operation back onto the trait method it was recorded from.
//!
//! Channels:
//! - [`DirectChannel<B>`]: the interpreter over `B`, in process. The
//!   shared test suites run through it (`cargo test-router`).
//! - graph capture (`burn-capture`): a client that records and executes
//!   nothing.
//! - remote execution (`burn-remote`, later): a client that ships the IR to
//!   a server running an interpreter.
//!
//! The per-op code is written once, against `dyn RunnerClient`, in
//! non-generic functions (`ops/`); the trait impls are one line a method.
//! Reads (`into_data`, transfers, `bool_argwhere`, whose output shape
//! depends on values) go through [`RunnerClient::read_tensor`].
//!
//! It depends on `burn-std`, `burn-backend` and `burn-ir`, and needs `std`
//! (the in-process executor sits behind a mutex).
//!
//! ## Example
//!
//! Flex through the router: the same values, computed from IR.
//!
//! ```
//! use burn_backend::{Backend, FloatTensorOps, Scalar, TensorData};
//! use burn_flex::{Flex, FlexDevice};
//! use burn_router::{BackendRouter, DirectChannel};
//!
//! type Routed = BackendRouter<DirectChannel<Flex>>;
//! let device = FlexDevice;
//! let x = Routed::float_from_data(TensorData::from([1.0f32, 2.0, 3.0]), &device);
//! let y = Routed::float_add_scalar(Routed::float_exp(x), Scalar::Float(1.0));
//! let values = Routed::float_into_data(y).unwrap().to_vec::<f32>().unwrap();
//! assert!((values[2] - (3.0f32.exp() + 1.0)).abs() < 1e-5);
//! ```
//!
//! ## Map
//! - [`channel`]: [`RunnerChannel`], [`RunnerClient`].
//! - [`tensor`]: [`RouterTensor`], and how its last use becomes `ReadWrite`.
//! - [`backend`]: [`BackendRouter`] and its `Backend` impl.
//! - `ops/`: the ops traits, one file per trait, over shared recorders.
//! - [`interpreter`]: [`TensorInterpreter`], [`InterpreterError`].
//! - [`direct`]: [`DirectChannel`], [`DirectClient`].
#![warn(missing_docs)]

extern crate alloc;
extern crate std;

pub mod backend;
pub mod channel;
pub mod custom;
pub mod direct;
pub mod interpreter;
mod ops;
pub mod tensor;

pub use backend::BackendRouter;
pub use channel::{RunnerChannel, RunnerClient};
pub use custom::record_custom;
pub use direct::{DirectChannel, DirectClient};
pub use interpreter::{InterpreterError, TensorInterpreter};
pub use tensor::RouterTensor;
