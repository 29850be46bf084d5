use crate::common::*;

#[test]
fn should_sub_same_shape() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);
    let rhs = Tensor::<2>::from_data([[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], &device);

    let output = lhs - rhs;

    let expected =
        TensorData::from([[-6.0, -6.0, -6.0], [-6.0, -6.0, -6.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sub_broadcast_keeping_operand_order() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[10.0, 20.0, 30.0]], &device);
    let rhs = Tensor::<2>::from_data([[1.0], [2.0]], &device);

    let output = lhs.sub(rhs);

    let expected = TensorData::from([[9.0, 19.0, 29.0], [8.0, 18.0, 28.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sub_scalar_on_both_sides() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, -2.0, 3.5], &device);

    let right = tensor.clone() - 1.5;
    let left: Tensor<1> = 10.0 - tensor;

    let expected = TensorData::from([-0.5, -3.5, 2.0]).convert::<FloatElem>();
    right
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([9.0, 12.0, 6.5]).convert::<FloatElem>();
    left.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sub_strided_slice() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]], &device);
    // Every other column, walked backwards: [[3, 1], [7, 5]].
    let lhs = tensor.slice(s![.., ..;-2]);
    let rhs = Tensor::<2>::from_data([[1.0, 1.0], [2.0, 2.0]], &device);

    let output = lhs - rhs;

    let expected = TensorData::from([[2.0, 0.0], [5.0, 3.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "sub: shapes")]
fn should_panic_when_sub_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::zeros([3], &device) - Tensor::<1>::zeros([4], &device);
}
