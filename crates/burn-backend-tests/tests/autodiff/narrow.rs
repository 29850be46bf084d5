//! Backward of `narrow` (the trait's default, a `slice`): dx = g on the
//! kept range, zero elsewhere.
//! Reference values: tests/autodiff/reference/shape_ops.py ("narrow").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 3] = [
    [0.5, -1.0, 2.0, 3.5],
    [4.0, -5.5, 6.0, 7.0],
    [-8.0, 9.0, 10.5, -11.0],
];

#[test]
fn narrow_columns_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().narrow(1, 1, 2);
        assert_values(y.clone(), [[-1.0, 2.0], [-5.5, 6.0], [9.0, 10.5]]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 1.0, 2.0, 0.0],
                [0.0, 3.0, 4.0, 0.0],
                [0.0, 5.0, 6.0, 0.0],
            ],
        );
    }
}

#[test]
fn narrow_last_row_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(x.clone().narrow(0, 2, 1)).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.0],
                [1.0, 2.0, 3.0, 4.0],
            ],
        );
    }
}

#[test]
fn chunks_route_their_gradients_back() {
    // chunk(2, 1) splits [3, 4] into two [3, 2] pieces (narrows); the loss
    // weights the first with 1..6 and the second with 1..6 times -1 (by hand).
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let pieces = x.clone().chunk(2, 1);
        let loss = weighted_sum(pieces[0].clone()) - weighted_sum(pieces[1].clone());
        let grads = loss.backward();
        assert_grad(
            &x,
            &grads,
            [
                [1.0, 2.0, -1.0, -2.0],
                [3.0, 4.0, -3.0, -4.0],
                [5.0, 6.0, -5.0, -6.0],
            ],
        );
    }
}
