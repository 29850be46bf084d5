//! Backward of `atan2(y, x)` (here `x.atan2(y)`, the first operand is the
//! ordinate): d/dx atan2(x, y) = y / (x² + y²), d/dy = -x / (x² + y²).
//!
//! Reference values: tests/autodiff/reference/binary.py (the "atan2.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn same_shape() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().atan2(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [0.32, -0.23529411764705882, -0.30000000000000004],
            [
                -0.23529411764705882,
                0.3735408560311284,
                -0.3902439024390244,
            ],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [
            [-0.24, -0.9411764705882353, -0.1],
            [
                -0.9411764705882353,
                -0.023346303501945526,
                -0.4878048780487805,
            ],
        ],
    );
}

#[test]
fn broadcast_row() {
    // y is [1, 3]: its gradient sums the rows.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().atan2(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [0.32, 0.23529411764705882, 0.3448275862068966],
            [0.46153846153846156, -2.4000000000000004, -0.4],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [[
            -0.9323076923076923,
            -2.1411764705882357,
            -0.5379310344827586,
        ]],
    );
}

#[test]
fn broadcast_both() {
    // [2, 1] with [1, 3]: each gradient sums over the other's dim.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5], [-2.5]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().atan2(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[0.8839344262295081], [0.3099812382739212]]);
    assert_grad(
        &y,
        &grads,
        [[0.4917073170731707, 1.7769230769230773, -0.5167213114754099]],
    );
}

#[test]
fn untracked_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device);
    let grads = backward_with(
        x.clone().atan2(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [0.32, -0.23529411764705882, -0.30000000000000004],
            [
                -0.23529411764705882,
                0.3735408560311284,
                -0.3902439024390244,
            ],
        ],
    );
    assert!(y.grad(&grads).is_none());
}

#[test]
fn untracked_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device);
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 4.0, 1.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().atan2(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert!(x.grad(&grads).is_none());
    assert_grad(
        &y,
        &grads,
        [
            [-0.24, -0.9411764705882353, -0.1],
            [
                -0.9411764705882353,
                -0.023346303501945526,
                -0.4878048780487805,
            ],
        ],
    );
}
