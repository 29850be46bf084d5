use crate::common::*;

#[test]
fn should_argmax_and_argmin_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[3, 9, 9, 1], [-4, -8, 0, -8]], &device);

    let argmax = tensor.clone().argmax(1);
    let argmin = tensor.argmin(1);

    argmax
        .into_data()
        .assert_eq(&TensorData::from([[1i64], [2]]).convert::<IntElem>(), false);
    argmin
        .into_data()
        .assert_eq(&TensorData::from([[3i64], [1]]).convert::<IntElem>(), false);
}

#[test]
fn should_argmax_dim0_of_transposed_ints() {
    let device = device();
    // transposed: [[3, -4], [9, -8], [9, 0], [1, -8]]
    let tensor = Tensor::<2, Int>::from_data([[3, 9, 9, 1], [-4, -8, 0, -8]], &device).transpose();

    let output = tensor.argmax(0);

    output
        .into_data()
        .assert_eq(&TensorData::from([[1i64, 2]]).convert::<IntElem>(), false);
}

#[test]
fn should_max_min_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[3, 9], [-4, 0]], &device);

    let (values, indices) = tensor.clone().max_dim_with_indices(0);
    let min = tensor.min();

    values
        .into_data()
        .assert_eq(&TensorData::from([[3i64, 9]]).convert::<IntElem>(), false);
    indices
        .into_data()
        .assert_eq(&TensorData::from([[0i64, 0]]).convert::<IntElem>(), false);
    min.into_data()
        .assert_eq(&TensorData::from([-4i64]).convert::<IntElem>(), false);
}

#[test]
#[should_panic(expected = "argmin: dim 2 is out of range")]
fn should_panic_when_int_argmin_dim_out_of_range() {
    let _ = Tensor::<2, Int>::ones([2, 2], &device()).argmin(2);
}
