use crate::common::*;

#[test]
fn should_sort_ascending_and_descending() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, -1.0, 2.5, 0.0], [1.0, 1.0, -7.0, 9.0]], &device);

    let ascending = tensor.clone().sort(1);
    let descending = tensor.sort_descending(1);

    let expected =
        TensorData::from([[-1.0, 0.0, 2.5, 3.0], [-7.0, 1.0, 1.0, 9.0]]).convert::<FloatElem>();
    ascending
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected =
        TensorData::from([[3.0, 2.5, 0.0, -1.0], [9.0, 1.0, 1.0, -7.0]]).convert::<FloatElem>();
    descending
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sort_along_dim0() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, -1.0], [1.0, 5.0], [2.0, 0.0]], &device);

    let output = tensor.sort(0);

    let expected = TensorData::from([[1.0, -1.0], [2.0, 0.0], [3.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sort_with_stable_indices() {
    let device = device();
    let tensor = Tensor::<1>::from_data([2.0, 1.0, 2.0, 0.0, 1.0], &device);

    let (values, indices) = tensor.clone().sort_with_indices(0);
    let (desc_values, desc_indices) = tensor.sort_descending_with_indices(0);

    let expected = TensorData::from([0.0, 1.0, 1.0, 2.0, 2.0]).convert::<FloatElem>();
    values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    indices.into_data().assert_eq(
        &TensorData::from([3i64, 1, 4, 0, 2]).convert::<IntElem>(),
        false,
    );
    let expected = TensorData::from([2.0, 2.0, 1.0, 1.0, 0.0]).convert::<FloatElem>();
    desc_values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    desc_indices.into_data().assert_eq(
        &TensorData::from([0i64, 2, 1, 4, 3]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_sort_nan_last_ascending_and_first_descending() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, f32::NAN, -1.0, 0.5], &device);

    let ascending = tensor.clone().sort(0);
    let descending = tensor.sort_descending(0);

    let expected = TensorData::from([-1.0, 0.5, 1.0, f32::NAN]).convert::<FloatElem>();
    ascending
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([f32::NAN, 1.0, 0.5, -1.0]).convert::<FloatElem>();
    descending
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sort_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, 1.0], [-2.0, 0.0], [1.0, 4.0]], &device).transpose();

    let (values, indices) = tensor.sort_with_indices(1);

    let expected = TensorData::from([[-2.0, 1.0, 3.0], [0.0, 1.0, 4.0]]).convert::<FloatElem>();
    values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    indices.into_data().assert_eq(
        &TensorData::from([[1i64, 2, 0], [1, 0, 2]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_sort_empty() {
    let output = empty_floats([0, 3]).sort(1);

    assert_eq!(output.dims(), [0, 3]);
}

#[test]
#[should_panic(expected = "sort: dim 2 is out of range")]
fn should_panic_when_sort_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).sort(2);
}
