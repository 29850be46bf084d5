//! Reference values: tests/reference/float_ops.py ("sigmoid").
use crate::common::*;

#[test]
fn should_sigmoid() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-2.0, 0.0, 1.0], [3.0, 100.0, -100.0]], &device);

    let output = activation::sigmoid(tensor);

    let expected = TensorData::from([
        [0.11920292202211755, 0.5, 0.7310585786300049],
        [0.9525741268224334, 1.0, 3.720075976020836e-44],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sigmoid_extremes_without_nan() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1000.0, 1000.0], &device);

    let output = activation::sigmoid(tensor);

    let expected = TensorData::from([0.0, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sigmoid_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-2.0, 0.0], [1.0, 3.0]], &device).transpose();

    let output = activation::sigmoid(tensor);

    let expected = TensorData::from([
        [0.11920292202211755, 0.7310585786300049],
        [0.5, 0.9525741268224334],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_sigmoid_large_negative_stay_finite() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-200.0, 0.0], &device);

    let output = activation::log_sigmoid(tensor);

    // log(sigmoid(-200)) = -200 - log(1 + e^-200) = -200; log(0.5)
    let expected = TensorData::from([-200.0, -0.6931471805599453]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
