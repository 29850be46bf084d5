use crate::common::*;

#[test]
fn should_take_sign_of_divisor() {
    let device = device();
    let lhs = Tensor::<1>::from_data([-7.5, 7.5, -3.0, 5.0, 7.0, -7.0], &device);
    let rhs = Tensor::<1>::from_data([2.0, -2.0, 3.0, 2.5, 3.0, -3.0], &device);

    let output = lhs.remainder(rhs);

    // Python: -7.5 % 2 = 0.5, 7.5 % -2 = -0.5, 7 % 3 = 1, -7 % -3 = -1.
    let expected = TensorData::from([0.5, -0.5, 0.0, 0.0, 1.0, -1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_remainder_scalar() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1.0, 0.5, 4.0, -4.5], &device);

    let output = tensor % 3.0;

    let expected = TensorData::from([2.0, 0.5, 1.0, 1.5]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_remainder_scalar_lhs() {
    let device = device();
    let tensor = Tensor::<1>::from_data([2.0, -3.0, 4.0], &device);

    let output: Tensor<1> = 7.0 % tensor;

    let expected = TensorData::from([1.0, -2.0, 3.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_remainder_broadcast() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[5.0], [-5.0]], &device);
    let rhs = Tensor::<2>::from_data([[3.0, -3.0, 10.0]], &device);

    let output = lhs % rhs;

    let expected = TensorData::from([[2.0, -1.0, 5.0], [1.0, -2.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "remainder: shapes")]
fn should_panic_when_remainder_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::ones([2], &device).remainder(Tensor::<1>::ones([3], &device));
}
