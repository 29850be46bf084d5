//! Backward of `cos`: d/dx cos(x) = -sin(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "cos.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn cos() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().cos(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [
                -0.9974949866040544,
                -1.8185948536513634,
                -0.2397127693021015,
            ],
            [
                -0.4233600241796016,
                -0.3711059388817844,
                -0.9489846193555862,
            ],
        ],
    );
}
