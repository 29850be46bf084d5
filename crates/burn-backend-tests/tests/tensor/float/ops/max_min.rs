use crate::common::*;

#[test]
fn should_max_and_min_all() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, -7.0, 3.0], [4.5, 0.0, -2.0]], &device);

    let max = tensor.clone().max();
    let min = tensor.clone().min();
    let max_abs = tensor.max_abs();

    let expected = TensorData::from([4.5]).convert::<FloatElem>();
    max.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([-7.0]).convert::<FloatElem>();
    min.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([7.0]).convert::<FloatElem>();
    max_abs
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_max_and_min_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, -7.0, 3.0], [4.5, 0.0, -2.0]], &device);

    let max = tensor.clone().max_dim(1);
    let min = tensor.clone().min_dim(0);
    let max_abs = tensor.max_abs_dim(1);

    let expected = TensorData::from([[3.0], [4.5]]).convert::<FloatElem>();
    max.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, -7.0, -2.0]]).convert::<FloatElem>();
    min.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[7.0], [4.5]]).convert::<FloatElem>();
    max_abs
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_max_dim_with_indices_first_on_ties() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[5.0, 1.0, 5.0], [-1.0, -1.0, -3.0]], &device);

    let (max, max_idx) = tensor.clone().max_dim_with_indices(1);
    let (min, min_idx) = tensor.min_dim_with_indices(1);

    let expected = TensorData::from([[5.0], [-1.0]]).convert::<FloatElem>();
    max.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    max_idx
        .into_data()
        .assert_eq(&TensorData::from([[0i64], [0]]).convert::<IntElem>(), false);
    let expected = TensorData::from([[1.0], [-3.0]]).convert::<FloatElem>();
    min.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    min_idx
        .into_data()
        .assert_eq(&TensorData::from([[1i64], [2]]).convert::<IntElem>(), false);
}

#[test]
fn should_max_dim_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 9.0], [8.0, 2.0], [3.0, 7.0]], &device).transpose();

    let (values, indices) = tensor.max_dim_with_indices(1);

    let expected = TensorData::from([[8.0], [9.0]]).convert::<FloatElem>();
    values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    indices
        .into_data()
        .assert_eq(&TensorData::from([[1i64], [0]]).convert::<IntElem>(), false);
}

#[test]
fn should_propagate_nan_in_max() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.0, f32::NAN, 3.0], &device);

    let output = tensor.max();

    let expected = TensorData::from([f32::NAN]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "max_dim: dim 2 is out of range")]
fn should_panic_when_max_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).max_dim(2);
}
