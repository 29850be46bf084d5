//! Backward of `cosh`: d/dx cosh(x) = sinh(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "cosh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn cosh() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().cosh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [2.1292794550948173, 7.253720815694038, 0.2605476527468737],
            [30.053624782229708, 0.37891847521225247, 1.6019190803008256],
        ],
    );
}
