//! Backward of `cummax`: dx_i = the sum of g_k over the k whose running
//! maximum came from position i (a tie credits the latest position, as in
//! PyTorch).
//! Reference values: tests/autodiff/reference/cumulative.py ("cummax").

use super::expect::*;
use crate::common::*;

#[test]
fn cummax_dim1_with_ties_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(
            [[3.0, 1.0, 4.0, 4.0, 5.0], [2.0, 7.0, 1.0, 8.0, 8.0]],
            &device,
        )
        .require_grad();
        let y = x.clone().cummax(1);
        assert_values(
            y.clone(),
            [[3.0, 3.0, 4.0, 4.0, 5.0], [2.0, 7.0, 7.0, 8.0, 8.0]],
        );
        let grads = weighted_sum(y).backward();
        // PyTorch's indices: [[0, 0, 2, 3, 4], [0, 1, 1, 3, 4]].
        assert_grad(
            &x,
            &grads,
            [[3.0, 0.0, 3.0, 4.0, 5.0], [6.0, 15.0, 0.0, 9.0, 10.0]],
        );
    }
}

#[test]
fn cummax_dim0_matches_pytorch() {
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.0, 5.0], [3.0, 2.0], [2.0, 6.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().cummax(0)).backward();
        assert_grad(&x, &grads, [[1.0, 6.0], [8.0, 0.0], [0.0, 6.0]]);
    }
}
