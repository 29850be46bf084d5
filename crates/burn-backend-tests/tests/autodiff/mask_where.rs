//! Backward of `mask_where`: d/dx = g where the mask is false, d/dvalue = g
//! where it is true, each summed over the dims it was broadcast along.
//! Reference values: tests/autodiff/reference/indexing.py ("mask_where").

use super::expect::*;
use crate::common::*;

#[test]
fn mask_where_gradients_match_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let v = Tensor::<2>::from_data([[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]], &device)
            .require_grad();
        let mask =
            Tensor::<2, Bool>::from_data([[true, false, true], [false, false, true]], &device);
        let y = x.clone().mask_where(mask, v.clone());
        assert_values(y.clone(), [[-1.0, 2.0, -3.0], [4.0, 5.0, -6.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[0.0, 2.0, 0.0], [4.0, 5.0, 0.0]]);
        assert_grad(&v, &grads, [[1.0, 0.0, 3.0], [0.0, 0.0, 6.0]]);
    }
}

#[test]
fn mask_where_broadcast_tensor_and_mask_match_pytorch() {
    // x [1, 3], mask [2, 1], value [2, 3] -> [2, 3].
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device).require_grad();
        let v = Tensor::<2>::from_data([[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]], &device)
            .require_grad();
        let mask = Tensor::<2, Bool>::from_data([[true], [false]], &device);
        let y = x.clone().mask_where(mask, v.clone());
        assert_values(y.clone(), [[-1.0, -2.0, -3.0], [1.0, 2.0, 3.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[4.0, 5.0, 6.0]]);
        assert_grad(&v, &grads, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]);
    }
}

#[test]
fn mask_where_broadcast_value_matches_pytorch() {
    // x [2, 3], mask [1, 3], value [2, 1] -> [2, 3].
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let v = Tensor::<2>::from_data([[-1.0], [-2.0]], &device).require_grad();
        let mask = Tensor::<2, Bool>::from_data([[false, true, true]], &device);
        let y = x.clone().mask_where(mask, v.clone());
        assert_values(y.clone(), [[1.0, -1.0, -1.0], [4.0, -2.0, -2.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[1.0, 0.0, 0.0], [4.0, 0.0, 0.0]]);
        assert_grad(&v, &grads, [[5.0], [11.0]]);
    }
}

#[test]
fn mask_where_untracked_value() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let v = Tensor::<2>::from_data([[-1.0], [-2.0]], &device);
        let mask = Tensor::<2, Bool>::from_data([[false, true, true]], &device);
        let grads = weighted_sum(x.clone().mask_where(mask, v.clone())).backward();
        assert_grad(&x, &grads, [[1.0, 0.0, 0.0], [4.0, 0.0, 0.0]]);
        assert_no_grad(&v, &grads);
    }
}

#[test]
fn mask_where_untracked_tensor() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device);
        let v = Tensor::<2>::from_data([[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]], &device)
            .require_grad();
        let mask = Tensor::<2, Bool>::from_data([[true], [false]], &device);
        let grads = weighted_sum(x.clone().mask_where(mask, v.clone())).backward();
        assert_grad(&v, &grads, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]);
        assert_no_grad(&x, &grads);
    }
}
