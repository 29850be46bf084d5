use crate::common::*;

#[test]
fn should_add_same_shape() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);
    let rhs = Tensor::<2>::from_data([[6.0, 7.0, 8.0], [9.0, 10.0, -11.5]], &device);

    let output = lhs + rhs;

    let expected = TensorData::from([[6.0, 8.0, 10.0], [12.0, 14.0, -6.5]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_add_broadcast_row_and_column() {
    let device = device();
    let column = Tensor::<2>::from_data([[1.0], [2.0]], &device);
    let row = Tensor::<2>::from_data([[10.0, 20.0, 30.0]], &device);

    let output = column.add(row);

    assert_eq!(output.dims(), [2, 3]);
    let expected =
        TensorData::from([[11.0, 21.0, 31.0], [12.0, 22.0, 32.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_add_broadcast_rank3_on_both_sides() {
    let device = device();
    // [2, 1, 2] + [3, 1] -> [2, 3, 2]
    let lhs = Tensor::<3>::from_data([[[0.0, 1.0]], [[100.0, 200.0]]], &device);
    let rhs = Tensor::<2>::from_data([[1.0], [2.0], [3.0]], &device).unsqueeze::<3>();

    let output = lhs + rhs;

    let expected = TensorData::from([
        [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]],
        [[101.0, 201.0], [102.0, 202.0], [103.0, 203.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_add_scalar_on_both_sides() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0], [-2.0, 3.5]], &device);

    let right = tensor.clone() + 2.5;
    let left: Tensor<2> = 1.0 + tensor;

    let expected = TensorData::from([[2.5, 3.5], [0.5, 6.0]]).convert::<FloatElem>();
    right
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 2.0], [-1.0, 4.5]]).convert::<FloatElem>();
    left.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_add_transposed_operand() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).transpose();
    let rhs = Tensor::<2>::from_data([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]], &device);

    let output = lhs + rhs;

    let expected =
        TensorData::from([[11.0, 24.0], [32.0, 45.0], [53.0, 66.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_add_empty_broadcast() {
    let lhs = empty_floats([0, 3]);
    let rhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device());

    let output = lhs + rhs;

    assert_eq!(output.dims(), [0, 3]);
    assert_eq!(output.into_data().num_elements(), 0);
}

#[test]
#[should_panic(expected = "add: shapes")]
fn should_panic_when_add_shapes_do_not_broadcast() {
    let device = device();
    let lhs = Tensor::<2>::zeros([2, 3], &device);
    let rhs = Tensor::<2>::zeros([2, 2], &device);
    let _ = lhs + rhs;
}
