//! Reference values: tests/reference/float_ops.py ("erf").
use crate::common::*;

#[test]
fn should_erf() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-2.0, -0.5, 0.0], [0.3, 1.0, 2.5]], &device);

    let output = tensor.erf();

    let expected = TensorData::from([
        [-0.9953222650189527, -0.5204998778130465, 0.0],
        [0.3286267594591274, 0.8427007929497149, 0.999593047982555],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_erf_saturate() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-10.0, 10.0], &device);

    let output = tensor.erf();

    let expected = TensorData::from([-1.0, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_erf_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-2.0, -0.5, 0.0], [0.3, 1.0, 2.5]], &device).transpose();

    let output = tensor.erf();

    let expected = TensorData::from([
        [-0.9953222650189527, 0.3286267594591274],
        [-0.5204998778130465, 0.8427007929497149],
        [0.0, 0.999593047982555],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
