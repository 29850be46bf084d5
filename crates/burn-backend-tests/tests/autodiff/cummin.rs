//! Backward of `cummin`: dx_i = the sum of g_k over the k whose running
//! minimum came from position i (a tie credits the latest position, as in
//! PyTorch).
//! Reference values: tests/autodiff/reference/cumulative.py ("cummin").

use super::expect::*;
use crate::common::*;

#[test]
fn cummin_dim1_with_ties_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(
            [[3.0, 1.0, 4.0, 1.0, 0.5], [2.0, 7.0, 1.0, 8.0, 1.0]],
            &device,
        )
        .require_grad();
        let y = x.clone().cummin(1);
        assert_values(
            y.clone(),
            [[3.0, 1.0, 1.0, 1.0, 0.5], [2.0, 2.0, 1.0, 1.0, 1.0]],
        );
        let grads = weighted_sum(y).backward();
        // PyTorch's indices: [[0, 1, 1, 3, 4], [0, 0, 2, 2, 4]].
        assert_grad(
            &x,
            &grads,
            [[1.0, 5.0, 0.0, 4.0, 5.0], [13.0, 0.0, 17.0, 0.0, 10.0]],
        );
    }
}

#[test]
fn cummin_dim0_matches_pytorch() {
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.0, 5.0], [3.0, 2.0], [0.0, 6.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().cummin(0)).backward();
        assert_grad(&x, &grads, [[4.0, 2.0], [0.0, 10.0], [5.0, 0.0]]);
    }
}
