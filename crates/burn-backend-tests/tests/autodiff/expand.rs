//! Backward of `expand`: dx = g summed over the broadcast dims (the new
//! leading dims and the size-1 dims that grew).
//! Reference values: tests/autodiff/reference/shape_ops.py ("expand").

use super::expect::*;
use crate::common::*;

#[test]
fn expand_new_leading_dim_and_stretched_dim_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0], [2.0], [3.0]], &device).require_grad();
        let y: Tensor<3> = x.clone().expand([2, 3, 4]);
        assert_eq!(y.dims(), [2, 3, 4]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[68.0], [100.0], [132.0]]);
    }
}

#[test]
fn expand_rows_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().expand([2, -1])).backward();
        assert_grad(&x, &grads, [[5.0, 7.0, 9.0]]);
    }
}

#[test]
fn expand_then_multiply_by_a_tracked_tensor() {
    // y = expand(a, [2, 3]) * b with a = [[1, 2, 3]], b = [[1, 1, 1], [2, 2, 2]]:
    // da_j = sum_i w_ij * b_ij = (1 + 8, 2 + 10, 3 + 12), db = w * a (by hand).
    for device in devices() {
        let a = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device).require_grad();
        let b = Tensor::<2>::from_data([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], &device).require_grad();
        let grads = weighted_sum(a.clone().expand([2, 3]) * b.clone()).backward();
        assert_grad(&a, &grads, [[9.0, 12.0, 15.0]]);
        assert_grad(&b, &grads, [[1.0, 4.0, 9.0], [4.0, 10.0, 18.0]]);
    }
}
