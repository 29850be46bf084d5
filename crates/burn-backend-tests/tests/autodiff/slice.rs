//! Backward of `slice`: dx = g at the sliced positions, zero elsewhere.
//! Reference values: tests/autodiff/reference/shape_ops.py ("slice").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 3] = [
    [0.5, -1.0, 2.0, 3.5],
    [4.0, -5.5, 6.0, 7.0],
    [-8.0, 9.0, 10.5, -11.0],
];

#[test]
fn slice_ranges_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().slice([0..2, 1..3]);
        assert_values(y.clone(), [[-1.0, 2.0], [-5.5, 6.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 1.0, 2.0, 0.0],
                [0.0, 3.0, 4.0, 0.0],
                [0.0, 0.0, 0.0, 0.0],
            ],
        );
    }
}

#[test]
fn slice_with_negative_step_gradient_matches_pytorch() {
    // s![1.., ..;-2] takes rows 1, 2 and columns 3, 1 (in that order).
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().slice(s![1.., ..;-2]);
        assert_values(y.clone(), [[7.0, -5.5], [-11.0, 9.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 0.0, 0.0, 0.0],
                [0.0, 2.0, 0.0, 1.0],
                [0.0, 4.0, 0.0, 3.0],
            ],
        );
    }
}

#[test]
fn overlapping_slices_add_up() {
    // x[0..2] + x[1..3] for x = [a, b, c]: dx = (w1, w1 + w2, w2) = (1, 3, 2) (by hand).
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();
        let y = x.clone().slice(s![0..2]) + x.clone().slice(s![1..3]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [1.0, 3.0, 2.0]);
    }
}
