//! Backward of `min` (full): the gradient goes to the minimum; k tied
//! minima share it, g / k each (PyTorch's convention).
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "min.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn min() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().min(), [2.0]);
    assert_grad(&x, &grads, [[0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]);
}

#[test]
fn min_two_way_tie() {
    let device = device();
    let x = Tensor::<2>::from_data([[3.0, -2.0, 3.0], [-2.0, 3.0, 0.5]], &device).require_grad();
    let grads = backward_with(x.clone().min(), [1.0]);
    assert_grad(&x, &grads, [[0.0, 0.5, 0.0], [0.5, 0.0, 0.0]]);
}
