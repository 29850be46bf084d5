//! Backward of `cast`: the identity on values, so dx = g cast back to the
//! input's dtype.
//!
//! Reference values: tests/autodiff/reference/cast.py: the gradient of
//! cast(2 exp(cast(x))) is 2 exp(x) g, in x's dtype.

use crate::common::gradcheck::backward_with;
use crate::common::*;

const X: [[f64; 3]; 2] = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]];
const UPSTREAM: [[f64; 3]; 2] = [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]];
const EXPECTED: [[f64; 3]; 2] = [
    [8.963377952575684, -0.5413411259651184, 1.6487212181091309],
    [120.51322174072266, 3.852076292037964, -0.5730096101760864],
];

/// Runs `cast(2 exp(cast(x, Inner)), Outer)` from an `Outer` leaf and
/// checks the leaf's gradient: its dtype, and its values at f32 precision
/// (the chain passes through f32 either way).
fn check_chain<Outer: Element, Inner: Element>() {
    let (outer, inner) = (Outer::DTYPE, Inner::DTYPE);
    let device = device();
    if !device.supports_dtype(outer) || !device.supports_dtype(inner) {
        return;
    }
    let x = Tensor::<2>::from_data(TensorData::from(X), (&device, outer)).require_grad();
    let inside = x.clone().cast(inner);
    assert_eq!(inside.dtype(), inner);
    let output = (inside.exp() * 2.0).cast(outer);
    assert_eq!(output.dtype(), outer);
    let grads = backward_with(output, UPSTREAM);
    let grad = x.grad(&grads).unwrap();
    assert_eq!(grad.dtype(), outer, "the gradient takes the leaf's dtype");
    grad.into_data()
        .assert_approx_eq::<f32>(&TensorData::from(EXPECTED), Tolerance::default());
}

#[test]
fn f32_through_f64() {
    check_chain::<f32, f64>();
}

#[test]
fn f64_through_f32() {
    check_chain::<f64, f32>();
}
