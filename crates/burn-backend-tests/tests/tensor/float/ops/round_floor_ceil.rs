use crate::common::*;

#[test]
fn should_round_half_to_even() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6, 3.5], &device);

    let output = tensor.round();

    let expected =
        TensorData::from([-2.0, -2.0, 0.0, 0.0, 2.0, 2.0, 2.0, -3.0, 4.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_floor() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.5, -0.5, 0.5], [1.5, 2.0, -3.0]], &device);

    let output = tensor.floor();

    let expected = TensorData::from([[-2.0, -1.0, 0.0], [1.0, 2.0, -3.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_ceil_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.5, -0.5, 0.5], [1.5, 2.0, -3.0]], &device).transpose();

    let output = tensor.ceil();

    let expected = TensorData::from([[-1.0, 2.0], [0.0, 2.0], [1.0, -3.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_trunc_toward_zero() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1.7, -0.2, 0.9, 2.5], &device);

    let output = tensor.trunc();

    let expected = TensorData::from([-1.0, 0.0, 0.0, 2.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
