//! Backward of `acosh`: d/dx acosh(x) = 1 / sqrt(x² - 1) (x > 1).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "acosh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn acosh() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 1.1, 2.0], [3.0, 1.25, 4.5]], &device).require_grad();
    let grads = backward_with(x.clone().acosh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.8944271909999159, -4.3643578047198455, 0.2886751345948129],
            [1.0606601717798212, 2.0, -0.2279211529192759],
        ],
    );
}
