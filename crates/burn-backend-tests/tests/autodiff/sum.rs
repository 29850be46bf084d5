//! Backward of `sum`: d/dx_i sum(x) = 1, so every element gets the output's gradient.
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "sum.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn sum() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sum(), [2.5]);
    assert_grad(&x, &grads, [[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]);
}

#[test]
fn sum_3d() {
    let device = device();
    let x = Tensor::<3>::from_data(
        [[[1.5, -2.0], [0.5, 3.0]], [[0.25, -1.25], [2.0, -0.5]]],
        &device,
    )
    .require_grad();
    let grads = backward_with(x.clone().sum(), [-1.5]);
    assert_grad(
        &x,
        &grads,
        [[[-1.5, -1.5], [-1.5, -1.5]], [[-1.5, -1.5], [-1.5, -1.5]]],
    );
}

#[test]
fn sum_of_an_empty_tensor_has_an_empty_gradient() {
    // By hand: no element, so the gradient is the empty [0, 3] tensor.
    let x = empty_floats([0, 3]).require_grad();
    let grads = x.clone().sum().backward();
    let grad = x.grad(&grads).unwrap();
    assert_eq!(grad.dims(), [0, 3]);
}
