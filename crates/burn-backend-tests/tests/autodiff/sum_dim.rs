//! Backward of `sum_dim`: the output's gradient broadcast back along `dim`.
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "sum_dim.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn sum_dim_0() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sum_dim(0), [[1.0, -2.0, 0.5]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.5], [1.0, -2.0, 0.5]]);
}

#[test]
fn sum_dim_1() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sum_dim(1), [[1.5], [-3.0]]);
    assert_grad(&x, &grads, [[1.5, 1.5, 1.5], [-3.0, -3.0, -3.0]]);
}

#[test]
fn sum_dim_middle_3d() {
    let device = device();
    let x = Tensor::<3>::from_data(
        [[[1.5, -2.0], [0.5, 3.0]], [[0.25, -1.25], [2.0, -0.5]]],
        &device,
    )
    .require_grad();
    let grads = backward_with(x.clone().sum_dim(1), [[[1.0, -2.0]], [[0.5, 3.0]]]);
    assert_grad(
        &x,
        &grads,
        [[[1.0, -2.0], [1.0, -2.0]], [[0.5, 3.0], [0.5, 3.0]]],
    );
}

#[test]
fn sum_dim_broadcast_back() {
    // x * sum_dim(x, 0), the sum broadcast over rows: two paths to x.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone() * x.clone().sum_dim(0),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[15.0, 7.875, 1.125], [24.0, 1.75, 2.25]]);
}
