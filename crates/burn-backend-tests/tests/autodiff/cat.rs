//! Backward of `cat`: each input gets the slice of g that it filled;
//! untracked inputs get nothing.
//! Reference values: tests/autodiff/reference/shape_ops.py ("cat").

use super::expect::*;
use crate::common::*;

#[test]
fn cat_dim0_with_an_untracked_input_matches_pytorch() {
    for device in devices() {
        let a = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).require_grad();
        let b = Tensor::<2>::from_data([[5.0, 6.0]], &device);
        let c =
            Tensor::<2>::from_data([[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], &device).require_grad();
        let y = Tensor::cat(vec![a.clone(), b.clone(), c.clone()], 0);
        assert_eq!(y.dims(), [6, 2]);
        let grads = weighted_sum(y).backward();
        assert_grad(&a, &grads, [[1.0, 2.0], [3.0, 4.0]]);
        assert_grad(&c, &grads, [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]);
        assert_no_grad(&b, &grads);
    }
}

#[test]
fn cat_dim1_matches_pytorch() {
    for device in devices() {
        let a = Tensor::<2>::from_data([[1.0], [2.0]], &device).require_grad();
        let b = Tensor::<2>::from_data([[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], &device).require_grad();
        let grads = weighted_sum(Tensor::cat(vec![a.clone(), b.clone()], 1)).backward();
        assert_grad(&a, &grads, [[1.0], [5.0]]);
        assert_grad(&b, &grads, [[2.0, 3.0, 4.0], [6.0, 7.0, 8.0]]);
    }
}

#[test]
fn cat_of_one_tensor_twice_adds_both_slices() {
    // cat([x, x]) along dim 0 for x of 2 elements: dx = (w1 + w3, w2 + w4) (by hand).
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
        let grads = weighted_sum(Tensor::cat(vec![x.clone(), x.clone()], 0)).backward();
        assert_grad(&x, &grads, [4.0, 6.0]);
    }
}

#[test]
fn cat_of_untracked_inputs_is_a_constant() {
    for device in devices() {
        let a = Tensor::<1>::from_data([1.0], &device);
        let b = Tensor::<1>::from_data([2.0], &device);
        let y = Tensor::cat(vec![a, b], 0);
        assert!(y.is_autodiff());
        assert!(!y.is_tracked());
    }
}
