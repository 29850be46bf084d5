//! Backward of `clamp_min`: d/dx max(x, m) = 1 where x > m, else 0. At x = m
//! the gradient is 0, PyTorch's convention (and relu's).
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "clamp_min.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn clamp_min() {
    // Elements 0 (above), 1 (below), 2 (on the bound).
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, -1.0, 2.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().clamp_min(0.5),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[1.0, 0.0, 0.0], [3.0, 0.0, -1.0]]);
}
