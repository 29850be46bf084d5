//! Backward of `scatter` (scatter-add): d/dx = g, d/dvalues = g read at the
//! positions each value was added to.
//! Reference values: tests/autodiff/reference/indexing.py ("scatter").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 3] = [
    [0.5, -1.0, 2.0, 3.5],
    [4.0, -5.5, 6.0, 7.0],
    [-8.0, 9.0, 10.5, -11.0],
];
const V: [[f64; 2]; 3] = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
const INDICES: [[i64; 2]; 3] = [[0, 1], [3, 3], [2, 0]];
const X_GRAD: [[f64; 4]; 3] = [
    [1.0, 2.0, 3.0, 4.0],
    [5.0, 6.0, 7.0, 8.0],
    [9.0, 10.0, 11.0, 12.0],
];
const V_GRAD: [[f64; 2]; 3] = [[1.0, 2.0], [8.0, 8.0], [11.0, 9.0]];

#[test]
fn scatter_add_gradients_match_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let indices = Tensor::<2, Int>::from_data(INDICES, &device);
        let y = x.clone().scatter(1, indices, v.clone());
        assert_values(
            y.clone(),
            [
                [1.5, 1.0, 2.0, 3.5],
                [4.0, -5.5, 6.0, 14.0],
                [-2.0, 9.0, 15.5, -11.0],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_grad(&v, &grads, V_GRAD);
    }
}

#[test]
fn scatter_add_untracked_destination() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device);
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let indices = Tensor::<2, Int>::from_data(INDICES, &device);
        let grads = weighted_sum(x.clone().scatter(1, indices, v.clone())).backward();
        assert_grad(&v, &grads, V_GRAD);
        assert_no_grad(&x, &grads);
    }
}

#[test]
fn scatter_add_untracked_values() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device);
        let indices = Tensor::<2, Int>::from_data(INDICES, &device);
        let grads = weighted_sum(x.clone().scatter(1, indices, v.clone())).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_no_grad(&v, &grads);
    }
}
