//! Backward of `select_assign` (select-add): d/dx = g, d/dvalues = the
//! slices of g that each value slice was added to.
//! Reference values: tests/autodiff/reference/indexing.py ("select_assign").

use super::expect::*;
use crate::common::*;

const X: [[f64; 2]; 3] = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
const V: [[f64; 2]; 3] = [[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]];
const X_GRAD: [[f64; 2]; 3] = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
const V_GRAD: [[f64; 2]; 3] = [[5.0, 6.0], [1.0, 2.0], [5.0, 6.0]];

#[test]
fn select_add_gradients_match_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let indices = Tensor::<1, Int>::from_data([2, 0, 2], &device);
        let y = x.clone().select_assign(0, indices, v.clone());
        assert_values(y.clone(), [[31.0, 42.0], [3.0, 4.0], [65.0, 86.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_grad(&v, &grads, V_GRAD);
    }
}

#[test]
fn select_add_untracked_values() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let v = Tensor::<2>::from_data(V, &device);
        let indices = Tensor::<1, Int>::from_data([2, 0, 2], &device);
        let grads = weighted_sum(x.clone().select_assign(0, indices, v.clone())).backward();
        assert_grad(&x, &grads, X_GRAD);
        assert_no_grad(&v, &grads);
    }
}

#[test]
fn select_add_untracked_destination() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device);
        let v = Tensor::<2>::from_data(V, &device).require_grad();
        let indices = Tensor::<1, Int>::from_data([2, 0, 2], &device);
        let grads = weighted_sum(x.clone().select_assign(0, indices, v.clone())).backward();
        assert_grad(&v, &grads, V_GRAD);
        assert_no_grad(&x, &grads);
    }
}
