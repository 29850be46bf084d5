use crate::common::*;

#[test]
fn should_equal_and_not_equal() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0], [3.0, f32::NAN]], &device);
    let rhs = Tensor::<2>::from_data([[1.0, -2.0], [3.0, f32::NAN]], &device);

    let equal = lhs.clone().equal(rhs.clone());
    let not_equal = lhs.not_equal(rhs);

    // NaN is never equal to anything, itself included.
    equal
        .into_data()
        .assert_eq(&TensorData::from([[true, false], [true, false]]), false);
    not_equal
        .into_data()
        .assert_eq(&TensorData::from([[false, true], [false, true]]), false);
}

#[test]
fn should_equal_elem_on_broadcast_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[2.0], [3.0]], &device).expand([2, 2]);

    let equal = tensor.clone().equal_elem(2.0);
    let not_equal = tensor.not_equal_elem(2.0);

    equal
        .into_data()
        .assert_eq(&TensorData::from([[true, true], [false, false]]), false);
    not_equal
        .into_data()
        .assert_eq(&TensorData::from([[false, false], [true, true]]), false);
}

#[test]
fn should_equal_broadcast() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], &device);
    let rhs = Tensor::<2>::from_data([[3.0, 2.0, 1.0]], &device);

    let output = lhs.equal(rhs);

    output.into_data().assert_eq(
        &TensorData::from([[false, true, false], [true, true, true]]),
        false,
    );
}

#[test]
fn should_detect_nan_inf_and_closeness() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &device);

    tensor
        .clone()
        .is_nan()
        .into_data()
        .assert_eq(&TensorData::from([false, true, false, false]), false);
    tensor
        .clone()
        .is_inf()
        .into_data()
        .assert_eq(&TensorData::from([false, false, true, true]), false);
    tensor
        .contains_nan()
        .into_data()
        .assert_eq(&TensorData::from([true]), false);

    // bf16 spaces its values 0.5 apart near 100 (8 significant bits), where
    // 100.1 would round to 100: its "not close" neighbour is the next value.
    let apart = match <FloatElem as Element>::DTYPE {
        DType::BF16 => 100.5,
        _ => 100.1,
    };
    let lhs = Tensor::<1>::from_data([1.0, 100.0, f32::INFINITY], &device);
    let rhs = Tensor::<1>::from_data([1.000001, apart, f32::INFINITY], &device);
    lhs.clone()
        .is_close(rhs.clone(), None, None)
        .into_data()
        .assert_eq(&TensorData::from([true, false, true]), false);
    assert!(lhs.clone().all_close(rhs.clone(), Some(1e-2), None));
    assert!(!lhs.all_close(rhs, None, None));
}

#[test]
#[should_panic(expected = "equal: shapes")]
fn should_panic_when_equal_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::ones([2], &device).equal(Tensor::<1>::ones([3], &device));
}
