//! The shared backend test suites. The tests live in `tests/`; this library
//! is empty. Every test goes through the public API (`burn::tensor`), so the
//! suites name no backend type: a Cargo feature (`flex`, `wgpu`, `cuda`)
//! picks the device they run on, through the aliases of `.cargo/config.toml`:
//!
//! ```text
//! cargo test-flex                          # every executable below, on Flex
//! cargo test-flex --test tensor_f16 conv   # one executable, filtered
//! cargo test-wgpu                          # on WGPU, plus burn-cubecl's own tests
//! ```
//!
//! # One executable per suite and float dtype
//!
//! A device's default float dtype is fixed once per process, before its
//! first tensor, so each precision is its own test executable. Each one
//! sets `FloatElem` and configures the device with it; the test modules
//! are shared, and convert their expected values to `FloatElem`, so they
//! run unchanged at every precision:
//!
//! | executable | suite | `FloatElem` |
//! |---|---|---|
//! | `tensor` | `tests/tensor/{float,int,bool}` | f32 |
//! | `tensor_f64`, `tensor_f16`, `tensor_bf16` | the same | f64, f16, bf16 |
//! | `autodiff` | `tests/autodiff/*`, plus the finite-difference checks of `autodiff/gradcheck.rs` | f32 |
//! | `autodiff_f64`, `autodiff_f16`, `autodiff_bf16` | `tests/autodiff/*` without `gradcheck.rs` | f64, f16, bf16 |
//! | `checkpointing` | peak memory of balanced checkpointing (Flex only) | f32 |
//!
//! The gradient checker computes in f64 whatever `FloatElem` is, so its
//! checks run once, in `autodiff`; a finite-difference check at f16 or
//! bf16 would be meaningless anyway (the rounding error of a difference
//! quotient is about ε/h, which at their ε of 1e-3 and 8e-3 swamps any
//! useful bound). The other autodiff tests compare gradients with PyTorch
//! references at every precision.
//!
//! A device that lacks the dtype skips the whole executable with a notice
//! on stderr (`tensor_f16: skipped, the device under test … does not
//! support f16`), decided at run time by `Device::supports_dtype`. On WGPU,
//! which has neither f64 nor bf16, those four executables are not even
//! built: each holds one test that checks the backend still refuses the
//! dtype and prints the notice.
//!
//! Tolerances follow the dtype: `Tolerance::default()` resolves per element
//! type (`1e-5` for f32, `1e-2` for f16, …). A test whose values or bounds
//! only fit f32 (values past f16's 65504, offsets finer than bf16's spacing,
//! cancellations) picks values every dtype holds or bounds for each dtype,
//! through `common::dtype_tolerance` (`tests/common/precision.rs`); f32
//! keeps its bounds.
//!
//! # Layout
//!
//! - `tests/common/`: the prelude (`mod.rs`), the device under test
//!   (`backend.rs`), the registries of the suites (`tensor.rs`,
//!   `autodiff.rs`) and the gradient checker (`gradcheck.rs`).
//! - `tests/tensor/{float,int,bool}/ops/<op>.rs`: one file per operation;
//!   `tests/tensor/float/module/<family>.rs`: the module ops (convolutions,
//!   pooling, interpolation, embedding, attention), forward, against PyTorch.
//! - `tests/autodiff/<op>.rs`: the backward pass of each operation.
//! - `tests/reference/*.py`, `tests/autodiff/reference/*.py`: the scripts
//!   that computed the expected values (Python's `math`, or PyTorch in
//!   float64); the tests hold their output and never need Python.
