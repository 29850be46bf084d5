//! Backward of `select`: dx = g added back into the selected slices,
//! summed where a slice was selected several times.
//! Reference values: tests/autodiff/reference/indexing.py ("select").

use super::expect::*;
use crate::common::*;

#[test]
fn select_dim0_with_repeats_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], &device)
            .require_grad();
        let indices = Tensor::<1, Int>::from_data([3, 0, 3], &device);
        let y = x.clone().select(0, indices);
        assert_values(y.clone(), [[7.0, 8.0], [1.0, 2.0], [7.0, 8.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [6.0, 8.0]]);
    }
}

#[test]
fn select_dim1_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let indices = Tensor::<1, Int>::from_data([2, 2, 1, 0], &device);
        let grads = weighted_sum(x.clone().select(1, indices)).backward();
        assert_grad(&x, &grads, [[4.0, 3.0, 3.0], [8.0, 7.0, 11.0]]);
    }
}
