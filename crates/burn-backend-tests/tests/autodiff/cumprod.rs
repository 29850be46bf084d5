//! Backward of `cumprod`: dx_i = sum_{k >= i} g_k prod_{j <= k, j != i} x_j,
//! which must stay exact when some x_j are zero (no division by x_i).
//! Reference values: tests/autodiff/reference/cumulative.py ("cumprod").

use super::expect::*;
use crate::common::*;

#[test]
fn cumprod_with_zeros_inside_matches_pytorch() {
    // Rows: no zero, one zero, two zeros.
    for device in devices() {
        let x = Tensor::<2>::from_data(
            [
                [2.0, -0.5, 3.0, 1.5],
                [2.0, 0.0, 3.0, 4.0],
                [0.0, 2.0, 0.0, 3.0],
            ],
            &device,
        )
        .require_grad();
        let y = x.clone().cumprod(1);
        assert_values(
            y.clone(),
            [
                [2.0, -1.0, -3.0, -4.5],
                [2.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.0],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [-13.5, 58.0, -9.0, -12.0],
                [5.0, 246.0, 0.0, 0.0],
                [29.0, 0.0, 0.0, 0.0],
            ],
        );
    }
}

#[test]
fn cumprod_dim0_with_a_zero_matches_pytorch() {
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.5, -2.0], [2.0, 0.5], [0.0, 3.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().cumprod(0)).backward();
        assert_grad(&x, &grads, [[7.0, 13.0], [4.5, -44.0], [15.0, -6.0]]);
    }
}
