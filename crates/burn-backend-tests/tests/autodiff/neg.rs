//! Backward of `neg`: d/dx (-x) = -1.
//!
//! Reference values: tests/autodiff/reference/unary.py (the "neg.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn neg() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(-x.clone(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(&x, &grads, [[-1.0, 2.0, -0.5], [-3.0, -1.5, 1.0]]);
}
