//! Backward of `reshape`: dx = g reshaped back to the input's shape.
//! Reference values: tests/autodiff/reference/shape_ops.py ("reshape").

use super::expect::*;
use crate::common::*;

#[test]
fn reshape_gradient_matches_pytorch() {
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], &device).require_grad();
        let y: Tensor<3> = x.clone().reshape([3, 1, 2]);
        assert_eq!(y.dims(), [3, 1, 2]);
        let grads = weighted_sum(y).backward();
        // Row-major order is kept, so the weights land in the same order.
        assert_grad(&x, &grads, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    }
}

#[test]
fn reshape_with_inferred_dim_then_elementwise() {
    // y = reshape(x, [-1]) * reshape(x, [-1]): dy/dx = 2x, times the weights
    // 1..6 (worked by hand).
    for device in devices() {
        let x =
            Tensor::<2>::from_data([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], &device).require_grad();
        let flat: Tensor<1> = x.clone().reshape([-1]);
        let grads = weighted_sum(flat.clone() * flat).backward();
        assert_grad(&x, &grads, [[2.0, -8.0, 18.0], [32.0, 50.0, -72.0]]);
    }
}
