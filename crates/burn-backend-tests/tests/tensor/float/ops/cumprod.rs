use crate::common::*;

#[test]
fn should_cumprod_along_each_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], &device);

    let along_rows = tensor.clone().cumprod(1);
    let along_cols = tensor.cumprod(0);

    let expected = TensorData::from([[1.0, 2.0, 6.0], [-1.0, -0.5, -2.0]]).convert::<FloatElem>();
    along_rows
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 2.0, 3.0], [-1.0, 1.0, 12.0]]).convert::<FloatElem>();
    along_cols
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cumprod_flipped_input_with_zero() {
    let device = device();
    let tensor = Tensor::<1>::from_data([5.0, 0.0, 3.0, 2.0], &device).flip([0]);

    let output = tensor.cumprod(0);

    let expected = TensorData::from([2.0, 6.0, 0.0, 0.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cummin_and_cummax() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, 1.0, 2.0, 0.0], [-1.0, 4.0, -2.0, 5.0]], &device);

    let cummin = tensor.clone().cummin(1);
    let cummax = tensor.cummax(1);

    let expected =
        TensorData::from([[3.0, 1.0, 1.0, 0.0], [-1.0, -1.0, -2.0, -2.0]]).convert::<FloatElem>();
    cummin
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected =
        TensorData::from([[3.0, 3.0, 3.0, 3.0], [-1.0, 4.0, 4.0, 5.0]]).convert::<FloatElem>();
    cummax
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "cumprod: dim 1 is out of range")]
fn should_panic_when_cumprod_dim_out_of_range() {
    let _ = Tensor::<1>::ones([2], &device()).cumprod(1);
}
