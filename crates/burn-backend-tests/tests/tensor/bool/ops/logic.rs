use crate::common::*;

#[test]
fn should_and_or_xor_not() {
    let device = device();
    let lhs = Tensor::<1, Bool>::from_data([true, true, false, false], &device);
    let rhs = Tensor::<1, Bool>::from_data([true, false, true, false], &device);

    let and = lhs.clone().bool_and(rhs.clone());
    let or = lhs.clone().bool_or(rhs.clone());
    let xor = lhs.clone().bool_xor(rhs);
    let not = lhs.bool_not();

    and.into_data()
        .assert_eq(&TensorData::from([true, false, false, false]), false);
    or.into_data()
        .assert_eq(&TensorData::from([true, true, true, false]), false);
    xor.into_data()
        .assert_eq(&TensorData::from([false, true, true, false]), false);
    not.into_data()
        .assert_eq(&TensorData::from([false, false, true, true]), false);
}

#[test]
fn should_broadcast_logic() {
    let device = device();
    let column = Tensor::<2, Bool>::from_data([[true], [false]], &device);
    let row = Tensor::<2, Bool>::from_data([[true, false, true]], &device);

    let and = column.clone().bool_and(row.clone());
    let or = column.bool_or(row);

    and.into_data().assert_eq(
        &TensorData::from([[true, false, true], [false, false, false]]),
        false,
    );
    or.into_data().assert_eq(
        &TensorData::from([[true, true, true], [true, false, true]]),
        false,
    );
}

#[test]
fn should_not_transposed_and_compare_bools() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[true, false], [true, true]], &device).transpose();

    let not = tensor.clone().bool_not();
    let equal = tensor.equal_elem(true);

    not.into_data()
        .assert_eq(&TensorData::from([[false, false], [true, false]]), false);
    equal
        .into_data()
        .assert_eq(&TensorData::from([[true, true], [false, true]]), false);
}

#[test]
#[should_panic(expected = "bool_xor: shapes")]
fn should_panic_when_bool_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1, Bool>::full([2], true, &device).bool_xor(Tensor::<1, Bool>::full(
        [3],
        true,
        &device,
    ));
}
