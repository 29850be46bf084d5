//! Backward of `mask_fill`: dx = g where the mask is false (filled
//! positions hold a constant).
//! Reference values: tests/autodiff/reference/indexing.py ("mask_fill").

use super::expect::*;
use crate::common::*;

#[test]
fn mask_fill_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let mask =
            Tensor::<2, Bool>::from_data([[true, false, true], [false, false, true]], &device);
        let y = x.clone().mask_fill(mask, 9.0);
        assert_values(y.clone(), [[9.0, 2.0, 9.0], [4.0, 5.0, 9.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[0.0, 2.0, 0.0], [4.0, 5.0, 0.0]]);
    }
}

#[test]
fn mask_fill_broadcast_mask_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let mask = Tensor::<2, Bool>::from_data([[false, true, false]], &device);
        let y = x.clone().mask_fill(mask, -1.0);
        assert_values(y.clone(), [[1.0, -1.0, 3.0], [4.0, -1.0, 6.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]);
    }
}
