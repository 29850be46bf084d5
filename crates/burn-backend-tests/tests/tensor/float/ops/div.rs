use crate::common::*;

#[test]
fn should_div_same_shape() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);
    let rhs = Tensor::<2>::from_data([[1.0, 2.0, -4.0], [0.5, 8.0, 3.0]], &device);

    let output = lhs / rhs;

    let expected =
        TensorData::from([[0.0, 0.5, -0.5], [6.0, 0.5, 1.6666666666666667]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_div_broadcast_keeping_operand_order() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0], [8.0]], &device);
    let rhs = Tensor::<2>::from_data([[1.0, 2.0, 4.0]], &device);

    let output = lhs.div(rhs);

    let expected = TensorData::from([[1.0, 0.5, 0.25], [8.0, 4.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_div_scalar_on_both_sides() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, -2.0, 8.0], &device);

    let right = tensor.clone() / 4.0;
    let left: Tensor<1> = 2.0 / tensor;

    let expected = TensorData::from([0.25, -0.5, 2.0]).convert::<FloatElem>();
    right
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([2.0, -1.0, 0.25]).convert::<FloatElem>();
    left.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_follow_ieee_division_by_zero() {
    let device = device();
    let lhs = Tensor::<1>::from_data([1.0, -1.0, 0.0], &device);
    let rhs = Tensor::<1>::zeros([3], &device);

    let output = lhs / rhs;

    let expected =
        TensorData::from([f32::INFINITY, f32::NEG_INFINITY, f32::NAN]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_div_transposed_operand() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[2.0, 4.0], [6.0, 8.0]], &device).transpose();
    let rhs = Tensor::<2>::from_data([[2.0, 1.0], [2.0, 1.0]], &device);

    let output = lhs / rhs;

    let expected = TensorData::from([[1.0, 6.0], [2.0, 8.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "div: shapes")]
fn should_panic_when_div_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<2>::ones([2, 3], &device) / Tensor::<2>::ones([4, 3], &device);
}
