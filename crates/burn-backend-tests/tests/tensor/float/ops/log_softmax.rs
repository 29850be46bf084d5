//! Reference values: tests/reference/float_ops.py ("log_softmax" blocks).
use crate::common::*;

#[test]
fn should_log_softmax_last_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]], &device);

    let output = activation::log_softmax(tensor, 1);

    let expected = TensorData::from([
        [
            -2.4076059644443806,
            -1.4076059644443806,
            -0.4076059644443806,
        ],
        [
            -6.0091744845917345,
            -5.0091744845917345,
            -0.009174484591734533,
        ],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_softmax_extreme_values_stay_finite() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1000.0, 0.0, 1000.0], &device);

    let output = activation::log_softmax(tensor, 0);

    let expected = TensorData::from([-2000.0, -1000.0, 0.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_log_softmax_dim0_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]], &device).transpose();

    let output = activation::log_softmax(tensor, 0);

    let expected = TensorData::from([
        [-2.4076059644443806, -6.0091744845917345],
        [-1.4076059644443806, -5.0091744845917345],
        [-0.4076059644443806, -0.009174484591734533],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "log_softmax: dim 1 is out of range")]
fn should_panic_when_log_softmax_dim_out_of_range() {
    let _ = activation::log_softmax(Tensor::<1>::ones([2], &device()), 1);
}
