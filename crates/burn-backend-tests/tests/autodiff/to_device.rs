//! Backward of `to_device`: the transfer is the identity on values, so the
//! gradient flows through (moved back to the source device).
//! Reference values: tests/autodiff/reference/indexing.py ("to_device").

use super::expect::*;
use crate::common::*;

#[test]
fn to_same_device_passes_the_gradient_through() {
    // y = to_device(x) * x: dx = 2x * w.
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let moved = x.clone().to_device(&device);
        assert!(moved.is_tracked());
        assert_eq!(moved.device(), device);
        let grads = weighted_sum(moved * x.clone()).backward();
        assert_grad(&x, &grads, [[2.0, 8.0, 18.0], [32.0, 50.0, 72.0]]);
    }
}

#[test]
fn to_plain_device_keeps_the_autodiff_context() {
    // Device equality ignores the context, so moving to the plain device is
    // a move to the same hardware: the tensor stays tracked.
    let x = Tensor::<1>::from_data([1.0, 2.0], &device()).require_grad();
    let moved = x.clone().to_device(&device().without_autodiff());
    assert!(moved.is_tracked());
    let grads = weighted_sum(moved).backward();
    assert_grad(&x, &grads, [1.0, 2.0]);
}
