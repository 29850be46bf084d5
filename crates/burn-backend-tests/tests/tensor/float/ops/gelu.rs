//! Reference values: tests/reference/float_ops.py ("gelu", exact erf form).
use crate::common::*;

#[test]
fn should_gelu_exact_form() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], &device);

    let output = activation::gelu(tensor);

    let expected = TensorData::from([
        -0.00404969409489031,
        -0.15865525393145707,
        -0.15426876936299344,
        0.0,
        0.34573123063700656,
        0.8413447460685429,
        1.9544997361036416,
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_gelu_reshaped_flipped_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([2.0, 1.0, 0.5, -0.5, -1.0, -3.0], &device)
        .reshape([2, 3])
        .flip([0, 1]);

    let output = activation::gelu(tensor);

    let expected = TensorData::from([
        [
            -0.00404969409489031,
            -0.15865525393145707,
            -0.15426876936299344,
        ],
        [0.34573123063700656, 0.8413447460685429, 1.9544997361036416],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
