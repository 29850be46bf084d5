use crate::common::*;

#[test]
fn should_repeat_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);

    let rows = tensor.clone().repeat_dim(0, 2);
    let cols = tensor.repeat_dim(1, 3);

    let expected =
        TensorData::from([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0], [3.0, 4.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([
        [1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
        [3.0, 4.0, 3.0, 4.0, 3.0, 4.0],
    ])
    .convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_repeat_every_dim_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0]], &device).transpose();

    let output = tensor.repeat(&[2, 2]);

    let expected =
        TensorData::from([[1.0, 1.0], [2.0, 2.0], [1.0, 1.0], [2.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_repeat_zero_times_to_empty() {
    let output = Tensor::<2>::ones([2, 2], &device()).repeat_dim(1, 0);

    assert_eq!(output.dims(), [2, 0]);
}

#[test]
#[should_panic(expected = "repeat_dim: dim 2 is out of range")]
fn should_panic_when_repeat_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).repeat_dim(2, 2);
}
