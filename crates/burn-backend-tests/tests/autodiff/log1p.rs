//! Backward of `log1p`: d/dx ln(1 + x) = 1 / (1 + x) (x > -1).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "log1p.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn log1p() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -0.5, 0.5], [3.0, 0.25, -0.75]], &device).require_grad();
    let grads = backward_with(x.clone().log1p(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [[0.4, -4.0, 0.3333333333333333], [0.75, 1.2, -4.0]],
    );
}
