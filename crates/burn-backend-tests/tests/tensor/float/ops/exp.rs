//! Reference values: tests/reference/float_ops.py ("exp" blocks).
use crate::common::*;

#[test]
fn should_exp() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [-1.0, 0.5, -2.5]], &device);

    let output = tensor.exp();

    let expected = TensorData::from([
        [1.0, 2.718281828459045, 7.38905609893065],
        [0.36787944117144233, 1.6487212707001282, 0.0820849986238988],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_exp_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [-1.0, 0.5, -2.5]], &device).transpose();

    let output = tensor.exp();

    let expected = TensorData::from([
        [1.0, 0.36787944117144233],
        [2.718281828459045, 1.6487212707001282],
        [7.38905609893065, 0.0820849986238988],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_exp_infinities() {
    let device = device();
    let tensor = Tensor::<1>::from_data([f32::NEG_INFINITY, f32::INFINITY], &device);

    let output = tensor.exp();

    let expected = TensorData::from([0.0, f32::INFINITY]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_exp_empty() {
    let output = empty_floats([2, 0]).exp();

    assert_eq!(output.dims(), [2, 0]);
}
