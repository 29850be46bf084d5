use crate::common::*;

#[test]
fn should_add_sub_mul_ints() {
    let device = device();
    let lhs = Tensor::<2, Int>::from_data([[1, -2, 3], [4, 5, -6]], &device);
    let rhs = Tensor::<2, Int>::from_data([[10, 20, 30], [-1, 0, 2]], &device);

    let sum = lhs.clone() + rhs.clone();
    let diff = lhs.clone() - rhs.clone();
    let prod = lhs * rhs;

    sum.into_data().assert_eq(
        &TensorData::from([[11i64, 18, 33], [3, 5, -4]]).convert::<IntElem>(),
        false,
    );
    diff.into_data().assert_eq(
        &TensorData::from([[-9i64, -22, -27], [5, 5, -8]]).convert::<IntElem>(),
        false,
    );
    prod.into_data().assert_eq(
        &TensorData::from([[10i64, -40, 90], [-4, 0, -12]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_broadcast_int_arithmetic() {
    let device = device();
    let column = Tensor::<2, Int>::from_data([[1], [2]], &device);
    let row = Tensor::<2, Int>::from_data([[10, 20, 30]], &device);

    let output = column.clone() * row.clone() - column;

    output.into_data().assert_eq(
        &TensorData::from([[9i64, 19, 29], [18, 38, 58]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_int_scalar_ops_on_both_sides() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([1, -2, 3], &device);

    let added = tensor.clone() + 5;
    let subtracted: Tensor<1, Int> = 10 - tensor.clone();
    let multiplied = tensor.clone() * -3;
    let negated = -tensor;

    added
        .into_data()
        .assert_eq(&TensorData::from([6i64, 3, 8]).convert::<IntElem>(), false);
    subtracted
        .into_data()
        .assert_eq(&TensorData::from([9i64, 12, 7]).convert::<IntElem>(), false);
    multiplied.into_data().assert_eq(
        &TensorData::from([-3i64, 6, -9]).convert::<IntElem>(),
        false,
    );
    negated.into_data().assert_eq(
        &TensorData::from([-1i64, 2, -3]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_add_transposed_ints() {
    let device = device();
    let lhs = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &device).transpose();
    let rhs = Tensor::<2, Int>::from_data([[10, 20], [30, 40]], &device);

    let output = lhs + rhs;

    output.into_data().assert_eq(
        &TensorData::from([[11i64, 23], [32, 44]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_abs_and_powi_ints() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([-3, 0, 2], &device);

    tensor
        .clone()
        .abs()
        .into_data()
        .assert_eq(&TensorData::from([3i64, 0, 2]).convert::<IntElem>(), false);
    tensor.powi_scalar(3).into_data().assert_eq(
        &TensorData::from([-27i64, 0, 8]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "add: shapes")]
fn should_panic_when_int_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1, Int>::ones([2], &device) + Tensor::<1, Int>::ones([3], &device);
}
