use crate::common::*;

#[test]
fn should_bitwise_and_or_xor() {
    let device = device();
    let lhs = Tensor::<1, Int>::from_data([0b1100, 0b1010, -1, 0], &device);
    let rhs = Tensor::<1, Int>::from_data([0b1010, 0b0110, 0b0101, 0b0111], &device);

    let and = lhs.clone().bitwise_and(rhs.clone());
    let or = lhs.clone().bitwise_or(rhs.clone());
    let xor = lhs.bitwise_xor(rhs);

    and.into_data().assert_eq(
        &TensorData::from([0b1000i64, 0b0010, 0b0101, 0]).convert::<IntElem>(),
        false,
    );
    or.into_data().assert_eq(
        &TensorData::from([0b1110i64, 0b1110, -1, 0b0111]).convert::<IntElem>(),
        false,
    );
    xor.into_data().assert_eq(
        &TensorData::from([0b0110i64, 0b1100, -6, 0b0111]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_bitwise_scalar_and_not() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([5, 12, -3], &device);

    tensor
        .clone()
        .bitwise_and_scalar(6)
        .into_data()
        .assert_eq(&TensorData::from([4i64, 4, 4]).convert::<IntElem>(), false);
    tensor.clone().bitwise_or_scalar(3).into_data().assert_eq(
        &TensorData::from([7i64, 15, -1]).convert::<IntElem>(),
        false,
    );
    tensor.clone().bitwise_xor_scalar(1).into_data().assert_eq(
        &TensorData::from([4i64, 13, -4]).convert::<IntElem>(),
        false,
    );
    tensor.bitwise_not().into_data().assert_eq(
        &TensorData::from([-6i64, -13, 2]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_shift_left_and_right() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([1, 3, -8, 64], &device);
    let shifts = Tensor::<1, Int>::from_data([0, 2, 1, 3], &device);

    let left = tensor.clone().bitwise_left_shift(shifts.clone());
    let right = tensor.bitwise_right_shift(shifts);

    left.into_data().assert_eq(
        &TensorData::from([1i64, 12, -16, 512]).convert::<IntElem>(),
        false,
    );
    // Arithmetic shift keeps the sign: -8 >> 1 = -4.
    right.into_data().assert_eq(
        &TensorData::from([1i64, 0, -4, 8]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_bitwise_broadcast_transposed() {
    let device = device();
    // transposed: [[1, 3], [2, 4]]
    let lhs = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &device).transpose();
    let rhs = Tensor::<2, Int>::from_data([[6], [1]], &device);

    let output = lhs.bitwise_and(rhs);

    output.into_data().assert_eq(
        &TensorData::from([[0i64, 2], [0, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "bitwise_or: shapes")]
fn should_panic_when_bitwise_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1, Int>::ones([2], &device).bitwise_or(Tensor::<1, Int>::ones([3], &device));
}
