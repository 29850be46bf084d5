use crate::common::*;

/// [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
fn grid() -> Tensor<2> {
    Tensor::<1, Int>::arange(0..12, &device())
        .float()
        .reshape([3, 4])
}

#[test]
fn should_slice_ranges() {
    let output = grid().slice([1..3, 0..2]);

    let expected = TensorData::from([[4.0, 5.0], [8.0, 9.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_leading_dim_only() {
    let output = grid().slice(1..2);

    let expected = TensorData::from([[4.0, 5.0, 6.0, 7.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_with_index_negative_bounds_and_steps() {
    let index = grid().slice(s![-1, 1..]);
    let stepped = grid().slice(s![..;2, 1..;2]);
    let reversed = grid().slice(s![.., ..;-1]);
    let reversed_stepped = grid().slice(s![..;-2, -3..-1]);

    let expected = TensorData::from([[9.0, 10.0, 11.0]]).convert::<FloatElem>();
    index
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 3.0], [9.0, 11.0]]).convert::<FloatElem>();
    stepped
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([
        [3.0, 2.0, 1.0, 0.0],
        [7.0, 6.0, 5.0, 4.0],
        [11.0, 10.0, 9.0, 8.0],
    ])
    .convert::<FloatElem>();
    reversed
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[9.0, 10.0], [1.0, 2.0]]).convert::<FloatElem>();
    reversed_stepped
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_a_slice_of_transposed_input() {
    // transposed: [[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]]
    let output = grid().transpose().slice(s![1..;2]).slice(s![.., 1..]);

    let expected = TensorData::from([[5.0, 9.0], [7.0, 11.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_empty_range() {
    let output = grid().slice(s![2..2]);

    assert_eq!(output.dims(), [0, 4]);
}

#[test]
#[should_panic(expected = "slice: dim 1 of shape")]
fn should_panic_when_slice_out_of_range() {
    let _ = grid().slice([0..1, 0..5]);
}

#[test]
#[should_panic(expected = "slice: 3 slices given")]
fn should_panic_when_too_many_slices() {
    let _ = grid().slice([0..1, 0..1, 0..1]);
}
