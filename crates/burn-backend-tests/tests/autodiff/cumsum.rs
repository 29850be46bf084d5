//! Backward of `cumsum`: dx_i = sum_{k >= i} g_k, a reversed running sum.
//! Reference values: tests/autodiff/reference/cumulative.py ("cumsum").

use super::expect::*;
use crate::common::*;

const X: [[f64; 3]; 2] = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]];

#[test]
fn cumsum_dim1_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = x.clone().cumsum(1);
        assert_values(y.clone(), [[1.0, -1.0, 2.0], [4.0, 9.0, 3.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[6.0, 5.0, 3.0], [15.0, 11.0, 6.0]]);
    }
}

#[test]
fn cumsum_dim0_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(x.clone().cumsum(0)).backward();
        assert_grad(&x, &grads, [[5.0, 7.0, 9.0], [4.0, 5.0, 6.0]]);
    }
}
