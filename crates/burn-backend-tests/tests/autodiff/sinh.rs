//! Backward of `sinh`: d/dx sinh(x) = cosh(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "sinh.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn sinh() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().sinh(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [2.352409615243247, -7.524391382167263, 0.5638129826031903],
            [30.202985987333296, 1.5471196498193598, -1.8884238771610158],
        ],
    );
}
