//! # burn-autodiff: reverse-mode differentiation as a backend decorator
//!
//! [`Autodiff<B, C>`] wraps any backend `B`: its float primitive is an
//! [`AutodiffTensor`] (a value of `B` plus an optional graph node), its int
//! and bool primitives are `B`'s own. Every float operation runs on `B` and,
//! when an input is tracked, records a backward step; `C` is the
//! [`CheckpointStrategy`] deciding which forward values those steps keep.
//!
//! The tensor API never names this type: `burn-dispatch` routes tensors that
//! carry an autodiff context here, with `B` = the dispatch backend itself, so
//! one instantiation serves every backend of the catalog.
//!
//! ## Writing a derivative
//!
//! Implement [`Backward`] for a unit struct (its `State` is what the forward
//! pass keeps), then in the op: `prepare` with the inputs' [`NodeGuard`]s,
//! return a constant when nothing is tracked, mark the op `compute_bound()`
//! or `memory_bound(inputs, retro_forward)`, `checkpoint` the inputs the
//! derivative needs, and `finish` with the state and the output. See
//! [`backward`] and `src/ops/float.rs`, where each derivative carries a
//! one-line comment giving its math.
//!
//! ## Modules
//! - [`backend`]: [`Autodiff`] and its `Backend` / `AutodiffBackend` impls.
//! - [`tensor`]: [`AutodiffTensor`], [`NodeGuard`].
//! - [`backward`]: [`Backward`], [`Prepared`], [`ParentGrads`].
//! - [`checkpoint`]: strategies, [`RetroForward`], [`Checkpointed`].
//! - [`grads`]: the [`Gradients`] of a backward pass.
//! - `graph`: nodes and the backward pass; `ops`: the ops traits.

extern crate alloc;

pub mod backend;
pub mod backward;
pub mod checkpoint;
pub mod grads;
mod graph;
mod ops;
pub mod tensor;

pub use backend::Autodiff;
pub use backward::{Backward, ParentGrads, Prepared};
pub use checkpoint::{
    BalancedCheckpointing, CheckpointStrategy, Checkpointed, Checkpointing, NoCheckpointing,
    RetroForward,
};
pub use grads::Gradients;
pub use graph::NodeId;
pub use tensor::{AutodiffTensor, NodeGuard};
