//! Reference values: tests/reference/float_ops.py ("log" blocks).
use crate::common::*;

#[test]
fn should_log() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 0.5], [10.0, 0.1, 3.0]], &device);

    let output = tensor.log();

    let expected = TensorData::from([
        [0.0, 0.6931471805599453, -0.6931471805599453],
        [2.302585092994046, -2.3025850929940455, 1.0986122886681098],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_zero_and_negative() {
    let device = device();
    let tensor = Tensor::<1>::from_data([0.0, -1.0], &device);

    let output = tensor.log();

    let expected = TensorData::from([f32::NEG_INFINITY, f32::NAN]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log1p_small_values_accurately() {
    let device = device();
    let tensor = Tensor::<1>::from_data([0.0, 1e-4, 1.0, -0.5], &device);

    let output = tensor.log1p();

    let expected = TensorData::from([
        0.0,
        9.999500033330834e-05,
        0.6931471805599453,
        -0.6931471805599453,
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::relative(1e-5));
}

#[test]
fn should_log_strided_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, 99.0, 2.0, 99.0, 0.5], &device).slice(s![..;2]);

    let output = tensor.log();

    let expected =
        TensorData::from([0.0, 0.6931471805599453, -0.6931471805599453]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
