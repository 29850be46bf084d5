use crate::common::*;

#[test]
fn should_floor_divide_with_negative_operands() {
    let device = device();
    let lhs = Tensor::<1, Int>::from_data([7, -7, 7, -7, 6, -6, 0], &device);
    let rhs = Tensor::<1, Int>::from_data([2, 2, -2, -2, 3, 4, -5], &device);

    let output = lhs / rhs;

    // Python's //: 3, -4, -4, 3, 2, -2, 0
    output.into_data().assert_eq(
        &TensorData::from([3i64, -4, -4, 3, 2, -2, 0]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_remainder_with_sign_of_divisor() {
    let device = device();
    let lhs = Tensor::<1, Int>::from_data([7, -7, 7, -7, 6, -6, 0], &device);
    let rhs = Tensor::<1, Int>::from_data([2, 2, -2, -2, 3, 4, -5], &device);

    let output = lhs.remainder(rhs);

    // Python's %: 1, 1, -1, -1, 0, 2, 0
    output.into_data().assert_eq(
        &TensorData::from([1i64, 1, -1, -1, 0, 2, 0]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_div_and_remainder_scalar() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([-5, -1, 0, 4, 9], &device);

    let quotient = tensor.clone().div_scalar(3);
    let remainder = tensor.clone() % 3;
    let negative_divisor = tensor % -4;

    quotient.into_data().assert_eq(
        &TensorData::from([-2i64, -1, 0, 1, 3]).convert::<IntElem>(),
        false,
    );
    remainder.into_data().assert_eq(
        &TensorData::from([1i64, 2, 0, 1, 0]).convert::<IntElem>(),
        false,
    );
    negative_divisor.into_data().assert_eq(
        &TensorData::from([-1i64, -1, 0, 0, -3]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_div_scalar_lhs_and_broadcast() {
    let device = device();
    let divisors = Tensor::<2, Int>::from_data([[3, -3]], &device);
    let numerators = Tensor::<2, Int>::from_data([[10], [-10]], &device);

    let broadcast = numerators / divisors.clone();
    let scalar_lhs: Tensor<2, Int> = 7 / divisors;

    broadcast.into_data().assert_eq(
        &TensorData::from([[3i64, -4], [-4, 3]]).convert::<IntElem>(),
        false,
    );
    scalar_lhs
        .into_data()
        .assert_eq(&TensorData::from([[2i64, -3]]).convert::<IntElem>(), false);
}

#[test]
fn should_keep_floor_identity_on_strided_input() {
    // a == (a / b) * b + a % b for every sign combination.
    let device = device();
    let a = Tensor::<1, Int>::arange(-9..10, &device).slice(s![..;3]);
    let b = Tensor::<1, Int>::from_data([4, -4, 3, -3, 5, -5, 7], &device);

    // a = [-9, -6, -3, 0, 3, 6, 9]
    let q = a.clone() / b.clone();
    let r = a.clone().remainder(b.clone());

    q.to_data().assert_eq(
        &TensorData::from([-3i64, 1, -1, 0, 0, -2, 1]).convert::<IntElem>(),
        false,
    );
    r.to_data().assert_eq(
        &TensorData::from([3i64, -2, 0, 0, 3, -4, 2]).convert::<IntElem>(),
        false,
    );
    (q * b + r).into_data().assert_eq(&a.into_data(), false);
}

#[test]
#[should_panic(expected = "div: shapes")]
fn should_panic_when_int_div_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1, Int>::ones([2], &device) / Tensor::<1, Int>::ones([3], &device);
}
