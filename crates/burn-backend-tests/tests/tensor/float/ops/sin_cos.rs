//! Reference values: tests/reference/float_ops.py ("sin", "cos").
use crate::common::*;

const INPUT: [f64; 6] = [0.0, 0.5, 1.0, 2.0, -3.0, core::f64::consts::PI];

#[test]
fn should_sin() {
    let tensor = Tensor::<1>::from_data(INPUT, &device());

    let output = tensor.sin();

    let expected = TensorData::from([
        0.0,
        0.479425538604203,
        0.8414709848078965,
        0.9092974268256817,
        -0.1411200080598672,
        0.0,
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cos() {
    let tensor = Tensor::<1>::from_data(INPUT, &device());

    let output = tensor.cos();

    let expected = TensorData::from([
        1.0,
        0.8775825618903728,
        0.5403023058681398,
        -0.4161468365471424,
        -0.9899924966004454,
        -1.0,
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sin_flipped_reshaped_input() {
    let tensor = Tensor::<1>::from_data(INPUT, &device())
        .reshape([2, 3])
        .flip([0, 1]);

    let output = tensor.sin();

    let expected = TensorData::from([
        [0.0, -0.1411200080598672, 0.9092974268256817],
        [0.8414709848078965, 0.479425538604203, 0.0],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_satisfy_pythagorean_identity() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-7.0, -1.3, 0.2, 2.9, 11.0], &device);

    let sin = tensor.clone().sin();
    let cos = tensor.cos();
    let output = sin.clone() * sin + cos.clone() * cos;

    let expected = TensorData::from([1.0, 1.0, 1.0, 1.0, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
