//! Backward of `clamp` (default body: clamp_max of clamp_min): d/dx = 1 where
//! lo < x < hi, else 0 (0 on either bound, PyTorch's convention).
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "clamp.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn clamp() {
    // -1.0 and 2.0 sit on the bounds; -2.0 and 3.0 are clamped.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, -1.0, 2.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().clamp(-1.0, 2.0),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[1.0, 0.0, 0.5], [0.0, 0.0, 0.0]]);
}
