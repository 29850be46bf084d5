//! Backward of `abs`: d/dx |x| = sign(x), 0 at x = 0 (PyTorch's convention).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "abs.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn abs() {
    // Element 2 is 0: its gradient is 0.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.0], [3.0, -0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().abs(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, 2.0, 0.0], [3.0, -1.5, 1.0]]);
}
