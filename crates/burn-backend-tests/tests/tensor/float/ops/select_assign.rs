use crate::common::*;

#[test]
fn should_select_assign_accumulating_repeats() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], &device);
    let indices = Tensor::<1, Int>::from_data([2, 0, 2], &device);
    let values = Tensor::<2>::from_data([[10.0, 20.0], [30.0, 40.0], [100.0, 200.0]], &device);

    let output = tensor.select_assign(0, indices, values);

    let expected =
        TensorData::from([[31.0, 41.0], [2.0, 2.0], [113.0, 223.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_select_assign_columns_with_transposed_values() {
    let device = device();
    let tensor = Tensor::<2>::zeros([2, 3], &device);
    let indices = Tensor::<1, Int>::from_data([2, 0], &device);
    // transposed: [[1, 2], [3, 4]]
    let values = Tensor::<2>::from_data([[1.0, 3.0], [2.0, 4.0]], &device).transpose();

    let output = tensor.select_assign(1, indices, values);

    let expected = TensorData::from([[2.0, 0.0, 1.0], [4.0, 0.0, 3.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "select_assign: values")]
fn should_panic_when_select_assign_values_mismatch() {
    let device = device();
    let _ = Tensor::<2>::zeros([3, 2], &device).select_assign(
        0,
        Tensor::<1, Int>::from_data([0, 1], &device),
        Tensor::<2>::ones([3, 2], &device),
    );
}
