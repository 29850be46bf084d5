//! Helpers of the reference-value tests of the autodiff suite.
//!
//! Each case reduces an op's output with [`weighted_sum`], `sum(w * y)`
//! with `w = 1, 2, …, n` in row-major order, so every output element
//! carries its own upstream gradient (a plain `sum()` gives all-ones
//! gradients, which cannot tell a permutation or a flip from the identity).
//! The scripts under `tests/autodiff/reference/` use the same loss
//! (`weighted_loss.py`) and print the gradients pasted into the tests.
//!
//! Every case runs on both [`devices`]: the suite's autodiff device, and the
//! same device with balanced checkpointing, whose backward pass recomputes
//! the outputs of memory-bound ops and must give the same gradients.

use burn::tensor::{Checkpointing, Device, Gradients};

use crate::common::*;

/// The autodiff devices every case runs on: no checkpointing, then balanced.
pub fn devices() -> [Device; 2] {
    [
        device(),
        device().autodiff_with_checkpointing(Checkpointing::Balanced),
    ]
}

/// `sum(w * output)` with `w = 1, 2, …, n` in row-major order (a constant).
pub fn weighted_sum<const D: usize>(output: Tensor<D>) -> Tensor<1> {
    let n = output.num_elements();
    let weights: Vec<FloatElem> = (1..=n).map(|k| FloatElem::from_f64(k as f64)).collect();
    let weights =
        Tensor::<D>::from_data(TensorData::new(weights, output.shape()), &output.device());
    (output * weights).sum()
}

/// Asserts that `tensor` holds `expected` (default tolerance of `FloatElem`).
#[track_caller]
pub fn assert_values<const D: usize>(tensor: Tensor<D>, expected: impl Into<TensorData>) {
    tensor.into_data().assert_approx_eq::<FloatElem>(
        &expected.into().convert::<FloatElem>(),
        Tolerance::default(),
    );
}

/// Asserts that backward reached `leaf` and that its gradient is `expected`
/// (a plain tensor of the leaf's shape).
#[track_caller]
pub fn assert_grad<const D: usize>(
    leaf: &Tensor<D>,
    grads: &Gradients,
    expected: impl Into<TensorData>,
) {
    let grad = leaf
        .grad(grads)
        .expect("backward did not reach the leaf: no gradient");
    assert_eq!(grad.dims(), leaf.dims(), "gradient shape");
    assert!(!grad.is_autodiff(), "a gradient is a plain tensor");
    assert_values(grad, expected);
}

/// Asserts that `tensor` got no gradient (an untracked input).
#[track_caller]
pub fn assert_no_grad<const D: usize>(tensor: &Tensor<D>, grads: &Gradients) {
    assert!(
        tensor.grad(grads).is_none(),
        "an untracked input must get no gradient"
    );
}
