//! Backward of `mul_scalar`: d/dx (s x) = s.
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "mul_scalar.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn mul_scalar() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone() * -1.5, [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[-1.5, 3.0, -0.75], [-4.5, -2.25, 1.5]]);
}
