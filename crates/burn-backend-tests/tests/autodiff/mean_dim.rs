//! Backward of `mean_dim`: the output's gradient / n, broadcast back along `dim`.
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "mean_dim.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn mean_dim_0() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().mean_dim(0), [[1.0, -2.0, 0.5]]);
    assert_grad(&x, &grads, [[0.5, -1.0, 0.25], [0.5, -1.0, 0.25]]);
}

#[test]
fn mean_dim_1() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().mean_dim(1), [[1.5], [-3.0]]);
    assert_grad(&x, &grads, [[0.5, 0.5, 0.5], [-1.0, -1.0, -1.0]]);
}

#[test]
fn mean_dim_last_3d() {
    let device = device();
    let x = Tensor::<3>::from_data(
        [[[1.5, -2.0], [0.5, 3.0]], [[0.25, -1.25], [2.0, -0.5]]],
        &device,
    )
    .require_grad();
    let grads = backward_with(x.clone().mean_dim(2), [[[1.0], [-2.0]], [[0.5], [3.0]]]);
    assert_grad(
        &x,
        &grads,
        [[[0.5, 0.5], [-1.0, -1.0]], [[0.25, 0.25], [1.5, 1.5]]],
    );
}

#[test]
fn mean_dim_centered() {
    // x - mean_dim(x, 1), the mean broadcast over columns: two paths to x.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone() - x.clone().mean_dim(1),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [1.1666666666666667, -1.8333333333333333, 0.6666666666666666],
            [1.8333333333333333, 0.33333333333333326, -2.166666666666667],
        ],
    );
}
