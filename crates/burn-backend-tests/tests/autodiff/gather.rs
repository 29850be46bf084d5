//! Backward of `gather`: dx = g scattered back to the gathered positions,
//! summed where a position was gathered several times.
//! Reference values: tests/autodiff/reference/indexing.py ("gather").

use super::expect::*;
use crate::common::*;

const X: [[f64; 3]; 3] = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [7.0, 8.0, 9.0]];

#[test]
fn gather_dim1_with_repeats_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let indices = Tensor::<2, Int>::from_data([[0, 0], [2, 1], [1, 1]], &device);
        let y = x.clone().gather(1, indices);
        assert_values(y.clone(), [[1.0, 1.0], [-6.0, 5.0], [8.0, 8.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [[3.0, 0.0, 0.0], [0.0, 4.0, 3.0], [0.0, 11.0, 0.0]],
        );
    }
}

#[test]
fn gather_dim0_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let indices = Tensor::<2, Int>::from_data([[2, 0, 2], [2, 1, 0]], &device);
        let grads = weighted_sum(x.clone().gather(0, indices)).backward();
        assert_grad(
            &x,
            &grads,
            [[0.0, 2.0, 6.0], [0.0, 5.0, 0.0], [5.0, 0.0, 3.0]],
        );
    }
}
