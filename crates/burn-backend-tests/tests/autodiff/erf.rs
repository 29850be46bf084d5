//! Backward of `erf`: d/dx erf(x) = 2 / sqrt(pi) exp(-x²).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "erf.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn erf() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().erf(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [
                0.11893028922362936,
                -0.041333970708184106,
                0.4393912894677224,
            ],
            [
                0.00041775915584024356,
                1.5900211940641715,
                -0.23652112244729076,
            ],
        ],
    );
}
