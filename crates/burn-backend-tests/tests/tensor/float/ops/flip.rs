use crate::common::*;

#[test]
fn should_flip_one_axis() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);

    let rows = tensor.clone().flip([0]);
    let cols = tensor.flip([-1]);

    let expected = TensorData::from([[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]).convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_flip_outer_and_inner_axes_of_rank3() {
    let device = device();
    let tensor = Tensor::<1, Int>::arange(0..12, &device)
        .float()
        .reshape([2, 3, 2]);

    let output = tensor.flip([0, 2]);

    let expected = TensorData::from([
        [[7.0, 6.0], [9.0, 8.0], [11.0, 10.0]],
        [[1.0, 0.0], [3.0, 2.0], [5.0, 4.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_flip_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device).transpose();

    let output = tensor.flip([0]);

    let expected = TensorData::from([[2.0, 5.0], [1.0, 4.0], [0.0, 3.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "flip: dim 0 appears more than once")]
fn should_panic_when_flip_axis_repeats() {
    let _ = Tensor::<2>::ones([2, 2], &device()).flip([0, -2]);
}
