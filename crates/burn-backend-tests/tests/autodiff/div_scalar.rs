//! Backward of `div_scalar`: d/dx (x / s) = 1 / s, and d/dx (s / x) = -s / x².
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "div_scalar.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn div_scalar() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone() / 4.0, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[0.25, -0.5, 0.125], [0.75, 0.375, -0.25]]);
}

#[test]
fn scalar_over_tensor() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(3.0 / x.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [-1.3333333333333333, 1.5, -6.0],
            [-1.0, -72.0, 1.9200000000000004],
        ],
    );
}
