//! Backward of `log`: d/dx ln(x) = 1 / x (x > 0).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "log.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn log() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let grads = backward_with(x.clone().log(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [[0.6666666666666666, -4.0, 0.25], [1.0, 6.0, -0.8]],
    );
}
