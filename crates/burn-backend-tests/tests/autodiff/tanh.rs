//! Backward of `tanh`: d/dx tanh(x) = 1 - tanh²(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "tanh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn tanh() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().tanh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.1807066389236486, -0.14130164970632886, 0.3932238664829637],
            [0.0295981114963205, 1.410022273209567, -0.28041486618043265],
        ],
    );
}
