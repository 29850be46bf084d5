use crate::common::*;

#[test]
fn should_expand_size_one_dims_and_add_leading_dims() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0], [2.0]], &device);

    let output = tensor.expand([2, -1, 3]);

    assert_eq!(output.dims(), [2, 2, 3]);
    let expected = TensorData::from([
        [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]],
        [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_compute_on_expanded_tensor() {
    let device = device();
    let row = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).expand([2, 3]);
    let other = Tensor::<2>::from_data([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]], &device);

    let output = (row * other).sum_dim(0);

    let expected = TensorData::from([[50.0, 140.0, 270.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_expand_transposed_column() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0]], &device).transpose();

    let output = tensor.expand([2, 2]);

    let expected = TensorData::from([[1.0, 1.0], [2.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "expand: cannot expand")]
fn should_panic_when_expanding_non_unit_dim() {
    let _ = Tensor::<2>::ones([2, 3], &device()).expand([2, 4]);
}
