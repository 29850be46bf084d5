//! Backward of `min_dim` and `min_dim_with_indices`: the gradient goes to the
//! index of the minimum along `dim`, the first one on ties (as PyTorch's
//! `min(dim)` on CPU).
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "min_dim.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn min_dim_1() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().min_dim(1), [[1.5], [-3.0]]);
    assert_grad(&x, &grads, [[0.0, 1.5, 0.0], [0.0, 0.0, -3.0]]);
}

#[test]
fn min_dim_0() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().min_dim(0), [[1.0, -2.0, 0.5]]);
    assert_grad(&x, &grads, [[1.0, -2.0, 0.0], [0.0, 0.0, 0.5]]);
}

#[test]
fn min_dim_ties() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.0, 3.0, 1.0], [2.0, 2.0, 2.0]], &device).require_grad();
    let grads = backward_with(x.clone().min_dim(1), [[1.5], [-3.0]]);
    assert_grad(&x, &grads, [[1.5, 0.0, 0.0], [-3.0, 0.0, 0.0]]);
}

#[test]
fn min_dim_with_indices_ties() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.0, 3.0, 1.0], [2.0, 2.0, 2.0]], &device).require_grad();
    let grads = backward_with(x.clone().min_dim_with_indices(1).0, [[1.5], [-3.0]]);
    assert_grad(&x, &grads, [[1.5, 0.0, 0.0], [-3.0, 0.0, 0.0]]);
}
