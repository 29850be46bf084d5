//! Reference values: tests/reference/float_ops.py ("tanh").
use crate::common::*;

#[test]
fn should_tanh() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-3.0, -0.5, 0.0], [0.5, 1.0, 20.0]], &device);

    let output = tensor.tanh();

    let expected = TensorData::from([
        [-0.9950547536867305, -0.46211715726000974, 0.0],
        [0.46211715726000974, 0.7615941559557649, 1.0],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_tanh_through_activation_on_flipped_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, 0.5, -0.5], &device).flip([0]);

    let output = activation::tanh(tensor);

    let expected = TensorData::from([
        -0.46211715726000974,
        0.46211715726000974,
        0.7615941559557649,
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_tanh_large_magnitudes_without_nan() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1000.0, 1000.0], &device);

    let output = tensor.tanh();

    let expected = TensorData::from([-1.0, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
