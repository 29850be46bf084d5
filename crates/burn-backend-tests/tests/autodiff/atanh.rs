//! Backward of `atanh`: d/dx atanh(x) = 1 / (1 - x²) (|x| < 1).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "atanh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn atanh() {
    let device = device();
    let x =
        Tensor::<2>::from_data([[0.25, -0.6, 0.45], [-0.15, 0.8, -0.35]], &device).require_grad();
    let grads = backward_with(x.clone().atanh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [1.0666666666666667, -3.125, 0.6269592476489029],
            [3.0690537084398977, 4.166666666666668, -1.1396011396011396],
        ],
    );
}
