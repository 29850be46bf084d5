//! Backward of the piecewise-constant ops `round`, `floor`, `ceil`, `trunc`,
//! `sign`: their derivative is 0 (away from the jumps, and by convention on
//! them, as PyTorch). Each test differentiates x f(x), whose gradient is
//! exactly f(x) when f' = 0: a nonzero f' would show.
//!
//! Reference values: tests/autodiff/reference/unary.py (the "piecewise_constant.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn round() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().round(),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[2.0, 6.0, 0.0], [6.0, 0.0, 1.0]]);
}

#[test]
fn floor() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().floor(),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[1.0, 6.0, 0.0], [6.0, 0.0, 2.0]]);
}

#[test]
fn ceil() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().ceil(),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[2.0, 4.0, 0.5], [9.0, 1.5, 1.0]]);
}

#[test]
fn trunc() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().trunc(),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[1.0, 4.0, 0.0], [6.0, 0.0, 1.0]]);
}

#[test]
fn sign() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.7, 0.5], [2.5, 0.3, -1.2]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().sign(),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[1.0, 2.0, 0.5], [3.0, 1.5, 1.0]]);
}
