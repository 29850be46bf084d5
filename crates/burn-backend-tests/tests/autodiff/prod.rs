//! Backward of `prod`: d/dx_i prod(x) = prod_{j != i} x_j, also where some
//! x_j are 0 (no division).
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "prod.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn prod() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().prod(), [1.5]);
    assert_grad(
        &x,
        &grads,
        [[1.40625, -1.0546875, 4.21875], [0.703125, 8.4375, -1.6875]],
    );
}

#[test]
fn prod_one_zero() {
    // Only the zero's own gradient is nonzero.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.0], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().prod(), [1.5]);
    assert_grad(&x, &grads, [[0.0, -0.0, 4.21875], [0.0, 0.0, -0.0]]);
}

#[test]
fn prod_two_zeros() {
    // Every product of the others holds a zero.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.0, 0.5], [3.0, 0.0, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().prod(), [1.5]);
    assert_grad(&x, &grads, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
}
