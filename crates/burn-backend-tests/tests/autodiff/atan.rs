//! Backward of `atan`: d/dx atan(x) = 1 / (1 + x²).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "atan.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn atan() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().atan(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.3076923076923077, -0.4, 0.4],
            [0.3, 1.411764705882353, -0.3902439024390244],
        ],
    );
}
