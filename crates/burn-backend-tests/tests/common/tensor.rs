//! The registry of the tensor suite.
//!
//! Test modules live under `tests/tensor/{float,int,bool}/ops/<op>.rs`, one
//! file per op, and are registered in the `mod.rs` of their folder; the
//! kinds are registered here. `tests/tensor.rs` includes this file as its
//! `tensor` module, so test names read `tensor::float::ops::add::…`.

#[path = "../tensor/bool/mod.rs"]
mod bool;
#[path = "../tensor/float/mod.rs"]
mod float;
#[path = "../tensor/int/mod.rs"]
mod int;
