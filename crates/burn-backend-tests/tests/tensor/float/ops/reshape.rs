use crate::common::*;

#[test]
fn should_reshape_row_major() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);

    let output = tensor.reshape([3, 2]);

    let expected = TensorData::from([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_reshape_inferring_and_keeping_dims() {
    let device = device();
    let tensor = Tensor::<1>::from_data([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], &device);

    let inferred = tensor.reshape([2, -1]);
    assert_eq!(inferred.dims(), [2, 4]);
    let kept = inferred.reshape([0, 2, -1]);
    assert_eq!(kept.dims(), [2, 2, 2]);

    let expected = TensorData::from([[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]])
        .convert::<FloatElem>();
    kept.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_reshape_transposed_input_in_logical_order() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device).transpose();

    let output = tensor.reshape([6]);

    let expected = TensorData::from([0.0, 3.0, 1.0, 4.0, 2.0, 5.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_flatten_squeeze_and_unsqueeze() {
    let device = device();
    let tensor = Tensor::<3>::from_data([[[1.0, 2.0]], [[3.0, 4.0]]], &device);

    let flat = tensor.clone().flatten::<2>(1, 2);
    assert_eq!(flat.dims(), [2, 2]);
    let squeezed = tensor.clone().squeeze_dim::<2>(1);
    assert_eq!(squeezed.dims(), [2, 2]);
    let unsqueezed = squeezed.clone().unsqueeze_dim::<3>(2);
    assert_eq!(unsqueezed.dims(), [2, 2, 1]);
    let front = squeezed.unsqueeze_dims::<4>(&[0, -1]);
    assert_eq!(front.dims(), [1, 2, 2, 1]);

    let expected = TensorData::from([[[1.0], [2.0]], [[3.0], [4.0]]]).convert::<FloatElem>();
    unsqueezed
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_reshape_empty() {
    // A `[usize; D]` target is taken exactly, so 0 is a size here (in a
    // signed target it would keep the input's size).
    let output = empty_floats([0, 4]).reshape([2usize, 0, 4]);

    assert_eq!(output.dims(), [2, 0, 4]);
    assert_eq!(output.into_data().num_elements(), 0);
}

#[test]
#[should_panic(expected = "reshape: cannot reshape")]
fn should_panic_when_reshape_changes_element_count() {
    let _ = Tensor::<2>::ones([2, 3], &device()).reshape([4, 2]);
}

#[test]
#[should_panic(expected = "squeeze_dim: dim 0")]
fn should_panic_when_squeezing_dim_larger_than_one() {
    let _ = Tensor::<2>::ones([2, 3], &device()).squeeze_dim::<1>(0);
}
