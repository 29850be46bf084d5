//! Backward of `max_dim_with_indices` (and `max_dim`): dx = g at the index
//! of the maximum along the dim (the first one on ties), 0 elsewhere.
//! Reference values: tests/autodiff/reference/sort.py ("max_dim_with_indices").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 2] = [[3.0, -1.0, 4.5, 2.0], [0.5, 9.0, -2.0, 6.0]];

#[test]
fn max_dim_with_indices_dim1_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let (y, indices) = x.clone().max_dim_with_indices(1);
        assert_values(y.clone(), [[4.5], [9.0]]);
        indices
            .into_data()
            .assert_eq(&TensorData::from([[2], [1]]).convert::<IntElem>(), false);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[0.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0]]);
    }
}

#[test]
fn max_dim_with_indices_dim0_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let (y, _) = x.clone().max_dim_with_indices(0);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[1.0, 0.0, 3.0, 0.0], [0.0, 2.0, 0.0, 4.0]]);
    }
}

#[test]
fn max_dim_with_a_tie_credits_the_first_maximum() {
    // PyTorch's indices: [[1], [0]].
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 3.0, 3.0], [5.0, 5.0, 2.0]], &device).require_grad();
        let (y, indices) = x.clone().max_dim_with_indices(1);
        indices
            .into_data()
            .assert_eq(&TensorData::from([[1], [0]]).convert::<IntElem>(), false);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[0.0, 1.0, 0.0], [2.0, 0.0, 0.0]]);
    }
}

#[test]
fn max_dim_values_only_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(x.clone().max_dim(1)).backward();
        assert_grad(&x, &grads, [[0.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0]]);
    }
}
