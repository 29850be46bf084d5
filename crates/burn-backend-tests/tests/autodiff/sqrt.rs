//! Backward of `sqrt`: d/dx sqrt(x) = 1 / (2 sqrt(x)) (x > 0).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "sqrt.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn sqrt() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sqrt(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.4082482904638631, -1.4142135623730951, 0.1767766952966369],
            [0.8660254037844387, 1.5, -0.4472135954999579],
        ],
    );
}
