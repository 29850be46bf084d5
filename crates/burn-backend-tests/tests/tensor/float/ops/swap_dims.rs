use crate::common::*;

#[test]
fn should_swap_dims_rank3() {
    let device = device();
    let tensor = Tensor::<3>::from_data(
        [
            [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]],
            [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]],
        ],
        &device,
    );

    let output = tensor.swap_dims(0, 2);

    assert_eq!(output.dims(), [2, 3, 2]);
    let expected = TensorData::from([
        [[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]],
        [[1.0, 7.0], [3.0, 9.0], [5.0, 11.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_transpose_last_two_dims_with_negative_swap() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);

    let transposed = tensor.clone().transpose();
    let swapped = tensor.swap_dims(-1, -2);

    let expected = TensorData::from([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]).convert::<FloatElem>();
    transposed
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    swapped
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "swap_dims: dim 2 is out of range")]
fn should_panic_when_swap_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).swap_dims(0, 2);
}
