//! Backward of `powf`: d/dx x^y = y x^(y-1), d/dy = x^y ln(x), summed over
//! broadcast dims. Bases are positive where y is tracked (ln x); negative
//! bases take integral exponents.
//!
//! Reference values: tests/autodiff/reference/binary.py (the "powf.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn same_shape() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 3.0, 1.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [3.0, -1.4142135623730951, -0.13258252147247768],
            [-0.32901850323812315, 0.28125, -1.0],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [
            [0.9122964932433699, 0.9802581434685472, 0.1225322679335684],
            [
                1.4458550834263613,
                -0.032491274088747434,
                -0.2789294391427622,
            ],
        ],
    );
}

#[test]
fn broadcast_row() {
    // y is [1, 3]: its gradient sums the rows.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [3.0, 2.8284271247461903, 0.7432544468767006],
            [18.0, -6.0, -1.3217140793007052],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [[30.574828287282333, -2.198366796422577, 0.5293635853888123]],
    );
}

#[test]
fn broadcast_both() {
    // [2, 1] with [1, 3]: each gradient sums over the other's dim.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5], [2.5]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, -0.5, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[4.236007253764519], [13.238471553286228]]);
    assert_grad(
        &y,
        &grads,
        [[18.092747715883778, 0.20714796457587858, -2.543895815758533]],
    );
}

#[test]
fn untracked_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 3.0, 1.0]], &device);
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [3.0, -1.4142135623730951, -0.13258252147247768],
            [-0.32901850323812315, 0.28125, -1.0],
        ],
    );
    assert!(y.grad(&grads).is_none());
}

#[test]
fn untracked_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device);
    let y = Tensor::<2>::from_data([[2.0, 0.5, -1.5], [-0.75, 3.0, 1.0]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert!(x.grad(&grads).is_none());
    assert_grad(
        &y,
        &grads,
        [
            [0.9122964932433699, 0.9802581434685472, 0.1225322679335684],
            [
                1.4458550834263613,
                -0.032491274088747434,
                -0.2789294391427622,
            ],
        ],
    );
}

#[test]
fn negative_base_integral_exponent() {
    // (-2)^3 and friends are real: d/dx = y x^(y-1) must not be NaN.
    let device = device();
    let x =
        Tensor::<2>::from_data([[-2.0, -0.5, 1.5], [-3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[3.0, 2.0, -1.0], [2.0, 3.0, -2.0]], &device);
    let grads = backward_with(
        x.clone().powf(y.clone()),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [[12.0, 2.0, -0.2222222222222222], [-18.0, 0.28125, -1.024]],
    );
    assert!(y.grad(&grads).is_none());
}
