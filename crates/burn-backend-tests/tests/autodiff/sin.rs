//! Backward of `sin`: d/dx sin(x) = cos(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "sin.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn sin() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sin(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [0.0707372016677029, 0.8322936730942848, 0.4387912809451864],
            [-2.9699774898013365, 1.4533686325659672, -0.3153223623952687],
        ],
    );
}
