//! Backward of `exp`: d/dx exp(x) = exp(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "exp.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn exp() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().exp(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [4.4816890703380645, -0.2706705664732254, 0.8243606353500641],
            [60.256610769563004, 1.926038125031612, -0.2865047968601901],
        ],
    );
}
