//! Backward of `sort`, `sort_with_indices` and `topk`: each output value's
//! gradient goes back to the position it came from.
//! Reference values: tests/autodiff/reference/sort.py.

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 2] = [[3.0, -1.0, 4.5, 2.0], [0.5, 9.0, -2.0, 6.0]];

#[test]
fn sort_ascending_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().sort(1);
        assert_values(y.clone(), [[-1.0, 2.0, 3.0, 4.5], [-2.0, 0.5, 6.0, 9.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[3.0, 1.0, 4.0, 2.0], [6.0, 8.0, 5.0, 7.0]]);
    }
}

#[test]
fn sort_descending_with_indices_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let (y, indices) = x.clone().sort_descending_with_indices(1);
        indices.into_data().assert_eq(
            &TensorData::from([[2, 0, 3, 1], [1, 3, 0, 2]]).convert::<IntElem>(),
            false,
        );
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[2.0, 4.0, 1.0, 3.0], [7.0, 5.0, 8.0, 6.0]]);
    }
}

#[test]
fn sort_with_indices_dim0_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let (y, _) = x.clone().sort_with_indices(0);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[5.0, 2.0, 7.0, 4.0], [1.0, 6.0, 3.0, 8.0]]);
    }
}

#[test]
fn sort_with_ties_is_stable() {
    // Equal values keep their order: indices [4, 1, 3, 0, 2].
    for device in devices() {
        let x = Tensor::<2>::from_data([[2.0, 1.0, 2.0, 1.0, 0.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().sort(1)).backward();
        assert_grad(&x, &grads, [[4.0, 2.0, 5.0, 3.0, 1.0]]);
    }
}

#[test]
fn topk_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let (y, indices) = x.clone().topk_with_indices(2, 1);
        assert_values(y.clone(), [[4.5, 3.0], [9.0, 6.0]]);
        indices.into_data().assert_eq(
            &TensorData::from([[2, 0], [1, 3]]).convert::<IntElem>(),
            false,
        );
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[2.0, 0.0, 1.0, 0.0], [0.0, 3.0, 0.0, 4.0]]);
    }
}

#[test]
fn topk_dim0_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(x.clone().topk(1, 0)).backward();
        assert_grad(&x, &grads, [[1.0, 0.0, 3.0, 0.0], [0.0, 2.0, 0.0, 4.0]]);
    }
}
