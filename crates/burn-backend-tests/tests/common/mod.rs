//! Code shared by the test executables: the prelude every test module
//! imports with `use crate::common::*;`.
//!
//! It re-exports the public tensor API and the executable's precision
//! aliases and device (`FloatElem`, `IntElem`, `device()`, which each test
//! executable defines at its root).

// A prelude: not every executable uses every name.
#[allow(unused_imports)]
pub use burn::tensor::activation;
#[allow(unused_imports)]
pub use burn::tensor::{Bool, DType, Distribution, Element, Int, Tensor, TensorData, Tolerance, s};

pub use crate::{FloatElem, IntElem, device};

/// The backend under test, chosen by the crate's features.
pub mod backend;

/// The finite-difference gradient checker of the autodiff suite (the
/// tensor suite compiles it too, unused).
#[allow(dead_code)]
pub mod gradcheck;

/// Tolerances for tests that run at every float dtype (not every
/// executable uses them).
#[allow(dead_code)]
mod precision;
#[allow(unused_imports)]
pub use precision::{dtype_tolerance, max_abs};

/// An empty float tensor of `shape` (one dim must be 0).
pub fn empty_floats<const D: usize>(shape: [usize; D]) -> Tensor<D> {
    Tensor::from_data(TensorData::new(Vec::<FloatElem>::new(), shape), &device())
}
