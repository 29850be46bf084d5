//! Reference values: tests/reference/float_ops.py ("powf" blocks).
use crate::common::*;

#[test]
fn should_powf_elementwise() {
    let device = device();
    let base = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.5, 9.0]], &device);
    let exponent = Tensor::<2>::from_data([[2.0, 0.5, -1.0], [1.5, 3.0, 0.5]], &device);

    let output = base.powf(exponent);

    let expected = TensorData::from([
        [1.0, 1.4142135623730951, 0.3333333333333333],
        [8.0, 0.125, 3.0],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_powf_broadcast_exponent_row() {
    let device = device();
    let base = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.5, 9.0]], &device);
    let exponent = Tensor::<2>::from_data([[0.5, 2.0, -0.5]], &device);

    let output = base.powf(exponent);

    let expected = TensorData::from([
        [1.0, 4.0, 0.5773502691896257],
        [2.0, 0.25, 0.3333333333333333],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_powf_scalar_on_flipped_input() {
    let device = device();
    let base = Tensor::<1>::from_data([0.25, 4.0, 2.0, 1.0, 0.0], &device).flip([0]);

    let output = base.powf_scalar(1.5);

    let expected =
        TensorData::from([0.0, 1.0, 2.8284271247461903, 8.0, 0.125]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_powi_with_negative_base() {
    let device = device();
    let base = Tensor::<1>::from_data([-2.0, 3.0, -0.5, 10.0], &device);
    let exponent = Tensor::<1, Int>::from_data([3, 2, 2, 0], &device);

    let scalar = base.clone().powi_scalar(3);
    let tensor = base.powi(exponent);

    let expected = TensorData::from([-8.0, 27.0, -0.125, 1000.0]).convert::<FloatElem>();
    scalar
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([-8.0, 9.0, 0.25, 1.0]).convert::<FloatElem>();
    tensor
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_powf_negative_base_fractional_exponent_to_nan() {
    let device = device();
    let base = Tensor::<1>::from_data([-4.0, -8.0], &device);

    let output = base.powf_scalar(0.5);

    let expected = TensorData::from([f32::NAN, f32::NAN]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "powf: shapes")]
fn should_panic_when_powf_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::ones([2], &device).powf(Tensor::<1>::ones([3], &device));
}
