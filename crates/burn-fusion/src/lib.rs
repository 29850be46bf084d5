//! # burn-fusion: lazy execution with kernel fusion
//!
//! [`Fusion<B>`] decorates a backend `B`: operations are recorded as IR (by
//! the router's recording code, `burn-router`, so every shape rule and
//! status rule is the router's), queued per device, and executed later,
//! when a value is read, the device is synced or seeded, or the queue
//! reaches [`QUEUE_LIMIT`]. At that point a search runs over the queue: the
//! backend's [`OptimizationBuilder`]s each grow a block of operations they
//! can run as one kernel (an element-wise chain, a reduction with work
//! fused around it, a matmul with an epilogue); the longest block worth
//! fusing runs as one [`Optimization`], everything else runs one operation
//! at a time through the router's interpreter. The plan found for a queue
//! is cached under the queue's relative form (ids renumbered, scalars
//! zeroed), so the steps of a training loop after the first reuse their
//! plans without searching.
//!
//! ## What cannot go wrong
//!
//! - A buffer is reused in place only where the IR marks a tensor's last
//!   use (`ReadWrite`): the recording side knows it holds the last handle,
//!   so no later operation, fused or not, can read it.
//! - A failure while executing (a backend's panic, an error) is recorded on
//!   the tensors the failing operations create and on everything computed
//!   from them: reading one of those returns an
//!   [`ExecutionError`](burn_backend::ExecutionError) naming the failure;
//!   other tensors, and other threads, are unaffected.
//! - Tensors are freed at their last use or when dropped, as without fusion,
//!   and the plan cache is bounded.
//!
//! It depends on `burn-backend`, `burn-ir` and `burn-router`, not on any
//! backend; a backend implements [`FusionBackend`] (with no builder, it runs
//! lazily and unfused).
//!
//! ## Map
//! - [`backend`]: [`FusionBackend`], [`Fusion`], [`FusionChannel`].
//! - [`optimization`]: [`OptimizationBuilder`], [`Optimization`].
//! - [`elementwise`]: the element-wise block builder every backend shares,
//!   and the program a backend runs for it ([`ElementwiseBackend`]).
//! - [`reduce`]: the row block builder (reductions and softmax along the
//!   last dim with the element-wise work around them) and its program
//!   ([`ReduceBackend`]).
//! - `plan`: the search, the relative key, the plan cache.
//! - [`client`]: [`FusionClient`], the queue and its flush, failures,
//!   [`FusionStatistics`].
//! - [`custom`]: backend extension ops, recorded lazily ([`register_custom`]).
#![warn(missing_docs)]

extern crate alloc;
extern crate std;

pub mod backend;
pub mod client;
pub mod custom;
pub mod elementwise;
pub mod optimization;
mod plan;
pub mod reduce;

pub use backend::{Fusion, FusionBackend, FusionChannel};
pub use client::{FusionClient, FusionStatistics, QUEUE_LIMIT, statistics};
pub use custom::{TensorSpec, register_custom};
pub use elementwise::{ElementwiseBackend, ElementwiseBuilder, ElementwiseProgram};
pub use optimization::{Optimization, OptimizationBuilder};
pub use reduce::{ReduceBackend, ReduceBuilder, ReduceProgram};
