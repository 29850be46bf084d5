use crate::common::*;

#[test]
fn should_slice_assign_block() {
    let device = device();
    let tensor = Tensor::<2>::zeros([3, 3], &device);
    let values = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);

    let output = tensor.slice_assign([1..3, 0..2], values);

    let expected = TensorData::from([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [3.0, 4.0, 0.0]])
        .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_assign_with_negative_step() {
    let device = device();
    let tensor = Tensor::<1>::zeros([5], &device);
    let values = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device);

    // Positions 4, 2, 0 receive 1, 2, 3.
    let output = tensor.slice_assign(s![..;-2], values);

    let expected = TensorData::from([3.0, 0.0, 2.0, 0.0, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_assign_transposed_values_without_touching_source() {
    let device = device();
    let source = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    let values = Tensor::<2>::from_data([[10.0, 20.0], [30.0, 40.0]], &device).transpose();

    let output = source.clone().slice_assign([0..2, 0..2], values);

    let expected = TensorData::from([[10.0, 30.0], [20.0, 40.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    // The clone kept by the caller still sees the old values.
    let expected = TensorData::from([[1.0, 2.0], [3.0, 4.0]]).convert::<FloatElem>();
    source
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_slice_fill_strided_region() {
    let device = device();
    let tensor = Tensor::<2>::ones([2, 4], &device);

    let output = tensor.slice_fill(s![.., 1..;2], -5.0);

    let expected =
        TensorData::from([[1.0, -5.0, 1.0, -5.0], [1.0, -5.0, 1.0, -5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "slice_assign: values of shape")]
fn should_panic_when_values_do_not_match_region() {
    let device = device();
    let _ = Tensor::<2>::zeros([3, 3], &device)
        .slice_assign([0..2, 0..2], Tensor::<2>::ones([2, 3], &device));
}
