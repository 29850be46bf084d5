//! Backward of `sub`: d/dx (x - y) = 1, d/dy = -1, summed over broadcast dims.
//!
//! Reference values: tests/autodiff/reference/binary.py (the "sub.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn same_shape() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone() - y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&y, &grads, [[-1.0, 2.0, -0.5], [-3.0, -1.5, 1.0]]);
}

#[test]
fn broadcast_row() {
    // y is [1, 3]: its gradient sums the rows.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(x.clone() - y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&y, &grads, [[-4.0, 0.5, 0.5]]);
}

#[test]
fn broadcast_both() {
    // [2, 1] with [1, 3]: each gradient sums over the other's dim.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5], [-2.5]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(x.clone() - y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[-0.5], [3.5]]);
    assert_grad(&y, &grads, [[-4.0, 0.5, 0.5]]);
}

#[test]
fn untracked_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device);
    let grads = backward_with(x.clone() - y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert!(y.grad(&grads).is_none());
}

#[test]
fn untracked_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device);
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone() - y.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert!(x.grad(&grads).is_none());
    assert_grad(&y, &grads, [[-1.0, 2.0, -0.5], [-3.0, -1.5, 1.0]]);
}
