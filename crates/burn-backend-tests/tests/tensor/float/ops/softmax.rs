//! Reference values: tests/reference/float_ops.py ("softmax" blocks).
use crate::common::*;

#[test]
fn should_softmax_last_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], &device);

    let output = activation::softmax(tensor, 1);

    let expected = TensorData::from([
        [0.09003057317038046, 0.24472847105479764, 0.6652409557748218],
        [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_dim0() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.0, 3.0]], &device);

    let output = activation::softmax(tensor, 0);

    let expected = TensorData::from([
        [0.04742587317756679, 0.8807970779778823, 0.5],
        [0.9525741268224334, 0.11920292202211755, 0.5],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_large_values_without_overflow() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1000.0, 1001.0, 1002.0]], &device);

    let output = activation::softmax(tensor, 1);

    let expected =
        TensorData::from([[0.09003057317038046, 0.24472847105479764, 0.6652409557748218]])
            .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmax_transposed_input() {
    let device = device();
    // Transposed, the rows are [1, 4] [2, 0] [3, 3]: the dim-0 case above, rotated.
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 0.0, 3.0]], &device).transpose();

    let output = activation::softmax(tensor, 1);

    let expected = TensorData::from([
        [0.04742587317756679, 0.9525741268224334],
        [0.8807970779778823, 0.11920292202211755],
        [0.5, 0.5],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_softmin_as_softmax_of_negation() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.0, -2.0, -3.0]], &device);

    let output = activation::softmin(tensor, 1);

    let expected =
        TensorData::from([[0.09003057317038046, 0.24472847105479764, 0.6652409557748218]])
            .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "softmax: dim 2 is out of range")]
fn should_panic_when_softmax_dim_out_of_range() {
    let _ = activation::softmax(Tensor::<2>::ones([2, 2], &device()), 2);
}
