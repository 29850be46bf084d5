use crate::common::*;

#[test]
fn should_mean_all() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], &device);

    let output = tensor.mean();

    let expected = TensorData::from([22.0 / 6.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mean_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], &device);

    let rows = tensor.clone().mean_dim(1);
    let cols = tensor.mean_dim(0);

    let expected = TensorData::from([[2.0], [16.0 / 3.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[2.5, 3.5, 5.0]]).convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mean_dim_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], &device).transpose();

    let output = tensor.mean_dim(1);

    let expected = TensorData::from([[2.5], [3.5], [5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "mean_dim: dim 3 is out of range")]
fn should_panic_when_mean_dim_out_of_range() {
    let _ = Tensor::<3>::ones([1, 2, 3], &device()).mean_dim(3);
}
