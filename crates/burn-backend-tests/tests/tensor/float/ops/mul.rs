use crate::common::*;

#[test]
fn should_mul_same_shape() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);
    let rhs = Tensor::<2>::from_data([[6.0, 7.0, 8.0], [-9.0, 0.5, 11.0]], &device);

    let output = lhs * rhs;

    let expected = TensorData::from([[0.0, 7.0, 16.0], [-27.0, 2.0, 55.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mul_broadcast() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let rhs = Tensor::<2>::from_data([[2.0, 0.0, -1.0]], &device);

    let output = lhs.mul(rhs);

    let expected = TensorData::from([[2.0, 0.0, -3.0], [8.0, 0.0, -6.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mul_scalar_on_both_sides() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, -2.0, 0.25], &device);

    let right = tensor.clone() * 4;
    let left: Tensor<1> = -0.5 * tensor;

    let expected = TensorData::from([4.0, -8.0, 1.0]).convert::<FloatElem>();
    right
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([-0.5, 1.0, -0.125]).convert::<FloatElem>();
    left.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mul_permuted_operands() {
    let device = device();
    // [2, 3, 1] permuted to [1, 2, 3]... then broadcast against [3, 2, 3].
    let lhs = Tensor::<3>::from_data([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]], &device)
        .permute([2, 0, 1]);
    let rhs = Tensor::<1>::from_data([1.0, 10.0, 100.0], &device)
        .reshape([3, 1, 1])
        .expand([3, 2, 3]);

    let output = lhs * rhs;

    let expected = TensorData::from([
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        [[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]],
        [[100.0, 200.0, 300.0], [400.0, 500.0, 600.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "mul: shapes")]
fn should_panic_when_mul_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<2>::zeros([2, 3], &device) * Tensor::<2>::zeros([3, 2], &device);
}
