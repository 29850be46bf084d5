use crate::common::*;

#[test]
fn should_compare_tensors() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let rhs = Tensor::<2>::from_data([[3.0, 2.0, 1.0], [4.0, 6.0, 5.0]], &device);

    let greater = lhs.clone().greater(rhs.clone());
    let greater_equal = lhs.clone().greater_equal(rhs.clone());
    let lower = lhs.clone().lower(rhs.clone());
    let lower_equal = lhs.lower_equal(rhs);

    greater.into_data().assert_eq(
        &TensorData::from([[false, false, true], [false, false, true]]),
        false,
    );
    greater_equal.into_data().assert_eq(
        &TensorData::from([[false, true, true], [true, false, true]]),
        false,
    );
    lower.into_data().assert_eq(
        &TensorData::from([[true, false, false], [false, true, false]]),
        false,
    );
    lower_equal.into_data().assert_eq(
        &TensorData::from([[true, true, false], [true, true, false]]),
        false,
    );
}

#[test]
fn should_compare_with_scalars() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1.0, 0.5, 2.0], &device);

    tensor
        .clone()
        .greater_elem(0.5)
        .into_data()
        .assert_eq(&TensorData::from([false, false, true]), false);
    tensor
        .clone()
        .greater_equal_elem(0.5)
        .into_data()
        .assert_eq(&TensorData::from([false, true, true]), false);
    tensor
        .clone()
        .lower_elem(0.5)
        .into_data()
        .assert_eq(&TensorData::from([true, false, false]), false);
    tensor
        .lower_equal_elem(0.5)
        .into_data()
        .assert_eq(&TensorData::from([true, true, false]), false);
}

#[test]
fn should_compare_broadcast_and_transposed() {
    let device = device();
    // transposed: [[1, 4], [2, 5], [3, 6]]
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).transpose();
    let rhs = Tensor::<2>::from_data([[2.0], [2.0], [5.0]], &device);

    let output = lhs.greater(rhs);

    output.into_data().assert_eq(
        &TensorData::from([[false, true], [false, true], [false, true]]),
        false,
    );
}

#[test]
fn should_compare_nan_as_false() {
    let device = device();
    let tensor = Tensor::<1>::from_data([f32::NAN, 1.0], &device);

    tensor
        .clone()
        .greater_equal_elem(0.0)
        .into_data()
        .assert_eq(&TensorData::from([false, true]), false);
    tensor
        .lower_elem(2.0)
        .into_data()
        .assert_eq(&TensorData::from([false, true]), false);
}

#[test]
#[should_panic(expected = "greater: shapes")]
fn should_panic_when_compare_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::ones([2], &device).greater(Tensor::<1>::ones([3], &device));
}
