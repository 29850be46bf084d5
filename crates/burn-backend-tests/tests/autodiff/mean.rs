//! Backward of `mean`: d/dx_i mean(x) = 1 / n.
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "mean.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn mean() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().mean(), [3.0]);
    assert_grad(&x, &grads, [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]);
}

#[test]
fn mean_3d() {
    let device = device();
    let x = Tensor::<3>::from_data(
        [[[1.5, -2.0], [0.5, 3.0]], [[0.25, -1.25], [2.0, -0.5]]],
        &device,
    )
    .require_grad();
    let grads = backward_with(x.clone().mean(), [-2.0]);
    assert_grad(
        &x,
        &grads,
        [
            [[-0.25, -0.25], [-0.25, -0.25]],
            [[-0.25, -0.25], [-0.25, -0.25]],
        ],
    );
}
