//! Backward of `acos`: d/dx acos(x) = -1 / sqrt(1 - x²) (|x| < 1).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "acos.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn acos() {
    let device = device();
    let x =
        Tensor::<2>::from_data([[0.25, -0.6, 0.45], [-0.15, 0.8, -0.35]], &device).require_grad();
    let grads = backward_with(x.clone().acos(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [-1.0327955589886444, 2.5, -0.5598925109558544],
            [-3.0343304245450415, -2.5000000000000004, 1.0675210253672476],
        ],
    );
}
