//! Backward of `powf_scalar`: d/dx x^s = s x^(s-1).
//!
//! Reference values: tests/autodiff/reference/scalar.py (the "powf_scalar.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn fractional_exponent() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf_scalar(2.5),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [4.592793267718459, -1.7677669529663689, 3.5355339059327378],
            [38.97114317029974, 0.46875, -3.4938562148434213],
        ],
    );
}

#[test]
fn negative_exponent() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf_scalar(-1.5),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [
                -0.5443310539518174,
                16.970562748477143,
                -0.13258252147247768,
            ],
            [-0.28867513459481287, -72.0, 0.8586501033599193],
        ],
    );
}

#[test]
fn square_root() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf_scalar(0.5),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [0.4082482904638631, -1.414213562373095, 0.17677669529663687],
            [0.8660254037844388, 1.5, -0.4472135954999579],
        ],
    );
}

#[test]
fn integral_exponent_negative_bases() {
    // x^3 is real for x < 0: the derivative 3x² must not be NaN.
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf_scalar(3.0),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[6.75, -24.0, 0.375], [81.0, 0.28125, -4.6875]]);
}

#[test]
fn zero_exponent() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let grads = backward_with(
        x.clone().powf_scalar(0.0),
        [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]],
    );
    assert_grad(&x, &grads, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
}
