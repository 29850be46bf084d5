use crate::common::*;

#[test]
fn should_select_rows_with_repeats() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], &device);
    let indices = Tensor::<1, Int>::from_data([2, 0, 2], &device);

    let output = tensor.select(0, indices);

    let expected = TensorData::from([[4.0, 5.0], [0.0, 1.0], [4.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_select_columns_of_transposed_input() {
    let device = device();
    // transposed: [[0, 2, 4], [1, 3, 5]]
    let tensor = Tensor::<2>::from_data([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], &device).transpose();
    let indices = Tensor::<1, Int>::from_data([1, 2], &device);

    let output = tensor.select(1, indices);

    let expected = TensorData::from([[2.0, 4.0], [3.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_select_nothing() {
    let device = device();
    let tensor = Tensor::<2>::ones([2, 3], &device);
    let indices = Tensor::<1, Int>::from_data(TensorData::new(Vec::<i64>::new(), [0]), &device);

    let output = tensor.select(1, indices);

    assert_eq!(output.dims(), [2, 0]);
}

#[test]
#[should_panic(expected = "select: dim 2 is out of range")]
fn should_panic_when_select_dim_out_of_range() {
    let device = device();
    let _ = Tensor::<2>::ones([2, 2], &device).select(2, Tensor::<1, Int>::zeros([1], &device));
}
