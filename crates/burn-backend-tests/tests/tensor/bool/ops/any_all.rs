use crate::common::*;

#[test]
fn should_any_and_all() {
    let device = device();
    let some = Tensor::<2, Bool>::from_data([[false, true], [false, false]], &device);
    let none = Tensor::<2, Bool>::from_data([[false, false], [false, false]], &device);
    let every = Tensor::<2, Bool>::from_data([[true, true], [true, true]], &device);

    some.clone()
        .any()
        .into_data()
        .assert_eq(&TensorData::from([true]), false);
    some.all()
        .into_data()
        .assert_eq(&TensorData::from([false]), false);
    none.any()
        .into_data()
        .assert_eq(&TensorData::from([false]), false);
    every
        .all()
        .into_data()
        .assert_eq(&TensorData::from([true]), false);
}

#[test]
fn should_any_and_all_dim() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[true, false, true], [true, true, true]], &device);

    let any = tensor.clone().any_dim(1);
    let all_rows = tensor.clone().all_dim(1);
    let all_cols = tensor.all_dim(0);

    any.into_data()
        .assert_eq(&TensorData::from([[true], [true]]), false);
    all_rows
        .into_data()
        .assert_eq(&TensorData::from([[false], [true]]), false);
    all_cols
        .into_data()
        .assert_eq(&TensorData::from([[true, false, true]]), false);
}

#[test]
fn should_all_dim_of_transposed_input() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[true, false, true], [true, true, true]], &device)
        .transpose();

    let output = tensor.all_dim(1);

    output
        .into_data()
        .assert_eq(&TensorData::from([[true], [false], [true]]), false);
}

#[test]
fn should_any_false_and_all_true_when_empty() {
    let device = device();
    let tensor = Tensor::<1, Bool>::from_data(TensorData::new(Vec::<bool>::new(), [0]), &device);

    tensor
        .clone()
        .any()
        .into_data()
        .assert_eq(&TensorData::from([false]), false);
    tensor
        .all()
        .into_data()
        .assert_eq(&TensorData::from([true]), false);
}

#[test]
#[should_panic(expected = "any_dim: dim 2 is out of range")]
fn should_panic_when_any_dim_out_of_range() {
    let _ = Tensor::<2, Bool>::full([2, 2], true, &device()).any_dim(2);
}
