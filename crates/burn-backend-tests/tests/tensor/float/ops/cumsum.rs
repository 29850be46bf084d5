use crate::common::*;

#[test]
fn should_cumsum_along_each_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, -5.0, 6.5]], &device);

    let along_rows = tensor.clone().cumsum(1);
    let along_cols = tensor.cumsum(0);

    let expected = TensorData::from([[1.0, 3.0, 6.0], [4.0, -1.0, 5.5]]).convert::<FloatElem>();
    along_rows
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 2.0, 3.0], [5.0, -3.0, 9.5]]).convert::<FloatElem>();
    along_cols
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cumsum_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).transpose();

    let output = tensor.cumsum(0);

    let expected = TensorData::from([[1.0, 4.0], [3.0, 9.0], [6.0, 15.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cumsum_middle_dim_of_rank3() {
    let device = device();
    let tensor = Tensor::<3>::from_data(
        [
            [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
            [[0.5, 0.5], [1.5, 1.5], [-2.0, -2.0]],
        ],
        &device,
    );

    let output = tensor.cumsum(1);

    let expected = TensorData::from([
        [[1.0, 2.0], [4.0, 6.0], [9.0, 12.0]],
        [[0.5, 0.5], [2.0, 2.0], [0.0, 0.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cumsum_empty() {
    let output = empty_floats([0, 4]).cumsum(0);

    assert_eq!(output.dims(), [0, 4]);
}

#[test]
#[should_panic(expected = "cumsum: dim 2 is out of range")]
fn should_panic_when_cumsum_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).cumsum(2);
}
