//! Backward of `slice_assign`: d/dx = g with the assigned region zeroed,
//! d/dvalue = g over the assigned region.
//! Reference values: tests/autodiff/reference/shape_ops.py ("slice_assign").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 3] = [
    [0.5, -1.0, 2.0, 3.5],
    [4.0, -5.5, 6.0, 7.0],
    [-8.0, 9.0, 10.5, -11.0],
];
const V: [[f64; 2]; 2] = [[10.0, 20.0], [30.0, 40.0]];
const X_GRAD: [[f64; 4]; 3] = [
    [1.0, 2.0, 3.0, 4.0],
    [0.0, 0.0, 7.0, 8.0],
    [0.0, 0.0, 11.0, 12.0],
];
const V_GRAD: [[f64; 2]; 2] = [[5.0, 6.0], [9.0, 10.0]];

#[test]
fn slice_assign_gradients_match_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let y = x.clone().slice_assign([1..3, 0..2], v.clone());
        assert_values(
            y.clone(),
            [
                [0.5, -1.0, 2.0, 3.5],
                [10.0, 20.0, 6.0, 7.0],
                [30.0, 40.0, 10.5, -11.0],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_grad(&v, &grads, V_GRAD);
    }
}

#[test]
fn slice_assign_untracked_value() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device);
        let grads = weighted_sum(x.clone().slice_assign([1..3, 0..2], v.clone())).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_no_grad(&v, &grads);
    }
}

#[test]
fn slice_assign_untracked_destination() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device);
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let grads = weighted_sum(x.clone().slice_assign([1..3, 0..2], v.clone())).backward();
        assert_grad(&v, &grads, V_GRAD);
        assert_no_grad(&x, &grads);
    }
}
