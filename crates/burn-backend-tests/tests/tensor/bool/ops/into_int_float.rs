use crate::common::*;

#[test]
fn should_convert_bool_to_int_and_float() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[true, false], [false, true]], &device);

    let ints = tensor.clone().int();
    let floats = tensor.float();

    assert_eq!(ints.dtype(), <IntElem as Element>::DTYPE);
    ints.into_data().assert_eq(
        &TensorData::from([[1i64, 0], [0, 1]]).convert::<IntElem>(),
        false,
    );
    let expected = TensorData::from([[1.0, 0.0], [0.0, 1.0]]).convert::<FloatElem>();
    floats
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_convert_transposed_bools_and_count() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[true, true, false], [false, true, false]], &device)
        .transpose();

    let counts = tensor.int().sum_dim(1);

    counts.into_data().assert_eq(
        &TensorData::from([[1i64], [2], [0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_create_bools_from_numbers() {
    let device = device();
    let tensor = Tensor::<1, Bool>::from_bool(TensorData::from([0.0f32, -2.0, 0.5]), &device);

    tensor
        .into_data()
        .assert_eq(&TensorData::from([false, true, true]), false);
}

#[test]
fn should_round_trip_comparison_to_float_mask() {
    let device = device();
    let values = Tensor::<1>::from_data([-1.0, 0.0, 2.0], &device);

    let positive = values.clone().greater_elem(0.0).float();
    let output = values * positive;

    let expected = TensorData::from([0.0, 0.0, 2.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
