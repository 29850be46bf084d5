use crate::common::*;

#[test]
fn should_gather_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[10, 11, 12], [20, 21, 22]], &device);
    let indices = Tensor::<2, Int>::from_data([[2, 0], [1, 1]], &device);

    let output = tensor.gather(1, indices);

    output.into_data().assert_eq(
        &TensorData::from([[12i64, 10], [21, 21]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_gather_ints_along_dim0_of_flipped_input() {
    let device = device();
    // flipped: [[20, 21, 22], [10, 11, 12]]
    let tensor = Tensor::<2, Int>::from_data([[10, 11, 12], [20, 21, 22]], &device).flip([0]);
    let indices = Tensor::<2, Int>::from_data([[1, 0, 1]], &device);

    let output = tensor.gather(0, indices);

    output.into_data().assert_eq(
        &TensorData::from([[10i64, 21, 12]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_select_and_scatter_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &device);

    let selected = tensor
        .clone()
        .select(1, Tensor::<1, Int>::from_data([1, 1, 0], &device));
    let scattered = tensor.scatter(
        0,
        Tensor::<2, Int>::from_data([[1, 1]], &device),
        Tensor::<2, Int>::from_data([[100, 200]], &device),
    );

    selected.into_data().assert_eq(
        &TensorData::from([[2i64, 2, 1], [4, 4, 3]]).convert::<IntElem>(),
        false,
    );
    scattered.into_data().assert_eq(
        &TensorData::from([[1i64, 2], [103, 204]]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "gather: indices")]
fn should_panic_when_int_gather_indices_exceed_other_dims() {
    let device = device();
    let tensor = Tensor::<2, Int>::ones([2, 2], &device);
    let indices = Tensor::<2, Int>::zeros([1, 3], &device);
    let _ = tensor.gather(0, indices);
}
