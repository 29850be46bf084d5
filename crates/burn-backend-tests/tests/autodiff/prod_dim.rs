//! Backward of `prod_dim`: d/dx_i = the product of the others along `dim`,
//! also where some are 0 (no division).
//!
//! Reference values: tests/autodiff/reference/reductions.py (the "prod_dim.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn prod_dim_1_with_zeros() {
    // Row 0 has no zero, row 1 one zero, row 2 two zeros.
    let device = device();
    let x = Tensor::<2>::from_data(
        [[1.5, -2.0, 0.5], [3.0, 0.0, -1.25], [0.0, 2.0, 0.0]],
        &device,
    )
    .require_grad();
    let grads = backward_with(x.clone().prod_dim(1), [[1.0], [-2.0], [0.5]]);
    assert_grad(
        &x,
        &grads,
        [[-1.0, 0.75, -3.0], [0.0, 7.5, -0.0], [0.0, 0.0, 0.0]],
    );
}

#[test]
fn prod_dim_0() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().prod_dim(0), [[1.0, -2.0, 0.5]]);
    assert_grad(&x, &grads, [[3.0, -0.5, -0.625], [1.5, 4.0, 0.25]]);
}
