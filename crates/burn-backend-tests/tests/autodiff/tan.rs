//! Backward of `tan`: d/dx tan(x) = 1 + tan²(x).
//!
//! Reference values: tests/autodiff/reference/unary.py (the "tan.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn tan() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(x.clone().tan(), [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]);
    assert_grad(
        &x,
        &grads,
        [
            [199.85004452649244, -11.548798408083835, 0.6492232052047624],
            [3.0609585508272805, 1.5977992450992748, -10.057509621834829],
        ],
    );
}
