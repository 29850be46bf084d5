//! Backward of `remainder` (the sign of the divisor, as PyTorch): x mod y =
//! x - y floor(x / y), so d/dx = 1 and d/dy = -floor(x / y) away from the
//! jumps (no input has an integral quotient). Also the scalar forms
//! `x % s` (d/dx = 1) and `s % x` (d/dx = -floor(s / x)).
//!
//! Reference values: tests/autodiff/reference/binary.py (the "remainder.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn same_shape() {
    let device = device();
    let x = Tensor::<2>::from_data([[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.8, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone() % y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&y, &grads, [[-2.0, -10.0, 0.5], [12.0, -1.5, -2.0]]);
}

#[test]
fn broadcast_row() {
    // y is [1, 3]: its gradient sums the rows.
    let device = device();
    let x = Tensor::<2>::from_data([[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.7, 1.1]], &device).require_grad();
    let grads = backward_with(x.clone() % y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&y, &grads, [[-5.0, 22.5, -2.0]]);
}

#[test]
fn broadcast_both() {
    // [2, 1] with [1, 3]: each gradient sums over the other's dim.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5], [-2.5]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.7, 1.1]], &device).require_grad();
    let grads = backward_with(x.clone() % y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[-0.5], [3.5]]);
    assert_grad(&y, &grads, [[6.0, -10.5, -3.5]]);
}

#[test]
fn untracked_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.8, 4.0, 1.0]], &device);
    let grads = backward_with(x.clone() % y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert!(y.grad(&grads).is_none());
}

#[test]
fn untracked_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]], &device);
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.8, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone() % y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert!(x.grad(&grads).is_none());
    assert_grad(&y, &grads, [[-2.0, -10.0, 0.5], [12.0, -1.5, -2.0]]);
}

#[test]
fn scalar_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[5.5, -2.25, 0.75], [3.0, 7.5, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone() % 2.0, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
}

#[test]
fn scalar_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.25, 0.75], [3.0, 7.5, -1.5]], &device).require_grad();
    let grads = backward_with(5.0 % x.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[-3.0, -6.0, -3.0], [-3.0, -0.0, -4.0]]);
}
