//! Backward of `recip`: d/dx (1 / x) = -1 / x².
//!
//! Reference values: tests/autodiff/reference/unary.py (the "recip.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn recip() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().recip(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [-0.4444444444444444, 0.5, -2.0],
            [-0.3333333333333333, -24.0, 0.6400000000000001],
        ],
    );
}
