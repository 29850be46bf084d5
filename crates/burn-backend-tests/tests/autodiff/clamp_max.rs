//! Backward of `clamp_max`: d/dx min(x, m) = 1 where x < m, else 0. At x = m
//! the gradient is 0, PyTorch's convention.
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "clamp_max.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn clamp_max() {
    // Elements 0 (above), 1 (below), 2 (on the bound).
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, -1.0, 2.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().clamp_max(0.5),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[0.0, -2.0, 0.0], [0.0, 1.5, 0.0]]);
}
