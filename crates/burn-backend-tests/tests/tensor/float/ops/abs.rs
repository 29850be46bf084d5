use crate::common::*;

#[test]
fn should_abs() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.5, 0.0, 2.0], [-0.0, -7.0, 3.25]], &device);

    let output = tensor.abs();

    let expected = TensorData::from([[1.5, 0.0, 2.0], [0.0, 7.0, 3.25]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_abs_infinity_and_transposed_input() {
    let device = device();
    let tensor =
        Tensor::<2>::from_data([[f32::NEG_INFINITY, -2.0], [3.0, -4.0]], &device).transpose();

    let output = tensor.abs();

    let expected = TensorData::from([[f32::INFINITY, 3.0], [2.0, 4.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sign() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-2.5, 0.0, 7.0, -0.1], &device);

    let output = tensor.sign();

    let expected = TensorData::from([-1.0, 0.0, 1.0, -1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
