//! Backward of `flip`: dx = g flipped along the same axes.
//! Reference values: tests/autodiff/reference/shape_ops.py ("flip").

use super::expect::*;
use crate::common::*;

#[test]
fn flip_both_axes_gradient_matches_pytorch() {
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], &device).require_grad();
        let y = x.clone().flip([0, 1]);
        assert_values(y.clone(), [[-6.0, 5.0, 4.0], [3.0, -2.0, 1.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]]);
    }
}

#[test]
fn flip_one_axis_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(
            [
                [0.5, -1.0, 2.0, 3.5],
                [4.0, -5.5, 6.0, 7.0],
                [-8.0, 9.0, 10.5, -11.0],
            ],
            &device,
        )
        .require_grad();
        let grads = weighted_sum(x.clone().flip([-1])).backward();
        assert_grad(
            &x,
            &grads,
            [
                [4.0, 3.0, 2.0, 1.0],
                [8.0, 7.0, 6.0, 5.0],
                [12.0, 11.0, 10.0, 9.0],
            ],
        );
    }
}
