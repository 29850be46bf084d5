//! Backward of `repeat_dim`: dx = the sum of g's copies along the dim.
//! Reference values: tests/autodiff/reference/shape_ops.py ("repeat_dim").

use super::expect::*;
use crate::common::*;

const X: [[f64; 3]; 2] = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]];

#[test]
fn repeat_dim0_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().repeat_dim(0, 3);
        assert_eq!(y.dims(), [6, 3]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[21.0, 24.0, 27.0], [30.0, 33.0, 36.0]]);
    }
}

#[test]
fn repeat_dim1_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().repeat_dim(1, 2);
        assert_values(
            y.clone(),
            [
                [1.0, -2.0, 3.0, 1.0, -2.0, 3.0],
                [4.0, 5.0, -6.0, 4.0, 5.0, -6.0],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[5.0, 7.0, 9.0], [17.0, 19.0, 21.0]]);
    }
}
