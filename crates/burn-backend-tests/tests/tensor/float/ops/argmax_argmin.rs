use crate::common::*;

#[test]
fn should_argmax_and_argmin_along_rows() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 5.0, -2.0], [7.0, 0.0, 7.5]], &device);

    let argmax = tensor.clone().argmax(1);
    let argmin = tensor.argmin(1);

    argmax
        .into_data()
        .assert_eq(&TensorData::from([[1i64], [2]]).convert::<IntElem>(), false);
    argmin
        .into_data()
        .assert_eq(&TensorData::from([[2i64], [1]]).convert::<IntElem>(), false);
}

#[test]
fn should_argmax_along_columns() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 5.0, -2.0], [7.0, 0.0, -7.5]], &device);

    let argmax = tensor.clone().argmax(0);
    let argmin = tensor.argmin(0);

    argmax.into_data().assert_eq(
        &TensorData::from([[1i64, 0, 0]]).convert::<IntElem>(),
        false,
    );
    argmin.into_data().assert_eq(
        &TensorData::from([[0i64, 1, 1]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_return_first_index_on_ties() {
    let device = device();
    let tensor = Tensor::<1>::from_data([2.0, 9.0, 9.0, -1.0, -1.0], &device);

    let argmax = tensor.clone().argmax(0);
    let argmin = tensor.argmin(0);

    argmax
        .into_data()
        .assert_eq(&TensorData::from([1i64]).convert::<IntElem>(), false);
    argmin
        .into_data()
        .assert_eq(&TensorData::from([3i64]).convert::<IntElem>(), false);
}

#[test]
fn should_argmax_of_flipped_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 5.0, -2.0], [7.0, 0.0, 7.5]], &device).flip([1]);

    let output = tensor.argmax(1);

    output
        .into_data()
        .assert_eq(&TensorData::from([[1i64], [0]]).convert::<IntElem>(), false);
}

#[test]
#[should_panic(expected = "argmax: dim 2 is out of range")]
fn should_panic_when_argmax_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).argmax(2);
}
