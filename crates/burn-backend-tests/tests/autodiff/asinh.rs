//! Backward of `asinh`: d/dx asinh(x) = 1 / sqrt(x² + 1).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "asinh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn asinh() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().asinh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.5547001962252291, -0.8944271909999159, 0.4472135954999579],
            [0.9486832980505138, 1.4552137502179978, -0.6246950475544243],
        ],
    );
}
