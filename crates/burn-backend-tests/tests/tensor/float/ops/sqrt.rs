use crate::common::*;

#[test]
fn should_sqrt() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [4.0, 9.0, 0.25]], &device);

    let output = tensor.sqrt();

    let expected =
        TensorData::from([[0.0, 1.0, 1.4142135623730951], [2.0, 3.0, 0.5]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sqrt_negative_to_nan() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1.0, 16.0], &device);

    let output = tensor.sqrt();

    let expected = TensorData::from([f32::NAN, 4.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sqrt_column_slice() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[4.0, 1.0], [16.0, 1.0], [64.0, 1.0]], &device);

    let output = tensor.slice(s![.., 0]).sqrt();

    let expected = TensorData::from([[2.0], [4.0], [8.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_square() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-3.0, 0.5, 2.0], &device);

    let output = tensor.square();

    let expected = TensorData::from([9.0, 0.25, 4.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
