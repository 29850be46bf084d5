use crate::common::*;

#[test]
fn should_argwhere_in_row_major_order() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[false, true, true], [true, false, false]], &device);

    let output = tensor.argwhere();

    assert_eq!(output.dims(), [3, 2]);
    output.into_data().assert_eq(
        &TensorData::from([[0i64, 1], [0, 2], [1, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_argwhere_transposed_input() {
    let device = device();
    // transposed: [[false, true], [true, false], [true, false]]
    let tensor = Tensor::<2, Bool>::from_data([[false, true, true], [true, false, false]], &device)
        .transpose();

    let output = tensor.argwhere();

    output.into_data().assert_eq(
        &TensorData::from([[0i64, 1], [1, 0], [2, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_argwhere_nothing() {
    let device = device();
    let tensor = Tensor::<3, Bool>::full([2, 2, 2], false, &device);

    let output = tensor.argwhere();

    assert_eq!(output.dims(), [0, 3]);
}

#[test]
fn should_nonzero_per_dim() {
    let device = device();
    let tensor = Tensor::<2, Bool>::from_data([[false, true], [true, true]], &device);

    let output = tensor.nonzero();

    assert_eq!(output.len(), 2);
    output[0]
        .to_data()
        .assert_eq(&TensorData::from([0i64, 1, 1]).convert::<IntElem>(), false);
    output[1]
        .to_data()
        .assert_eq(&TensorData::from([1i64, 0, 1]).convert::<IntElem>(), false);
}
