use crate::common::*;

#[test]
fn should_sort_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[5, -1, 3, 3], [0, 9, -7, 2]], &device);

    let ascending = tensor.clone().sort(1);
    let descending = tensor.sort_descending(1);

    ascending.into_data().assert_eq(
        &TensorData::from([[-1i64, 3, 3, 5], [-7, 0, 2, 9]]).convert::<IntElem>(),
        false,
    );
    descending.into_data().assert_eq(
        &TensorData::from([[5i64, 3, 3, -1], [9, 2, 0, -7]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_sort_ints_with_stable_indices_along_dim0() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[2, 1], [1, 1], [2, 0]], &device);

    let (values, indices) = tensor.sort_with_indices(0);

    values.into_data().assert_eq(
        &TensorData::from([[1i64, 0], [2, 1], [2, 1]]).convert::<IntElem>(),
        false,
    );
    indices.into_data().assert_eq(
        &TensorData::from([[1i64, 2], [0, 0], [2, 1]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_argsort_and_topk_transposed_ints() {
    let device = device();
    // transposed: [[4, 1, 7], [6, 8, 2]]
    let tensor = Tensor::<2, Int>::from_data([[4, 6], [1, 8], [7, 2]], &device).transpose();

    let argsort = tensor.clone().argsort(1);
    let (top, top_idx) = tensor.topk_with_indices(2, 1);

    argsort.into_data().assert_eq(
        &TensorData::from([[1i64, 0, 2], [2, 0, 1]]).convert::<IntElem>(),
        false,
    );
    top.into_data().assert_eq(
        &TensorData::from([[7i64, 4], [8, 6]]).convert::<IntElem>(),
        false,
    );
    top_idx.into_data().assert_eq(
        &TensorData::from([[2i64, 0], [1, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "sort_descending: dim 1 is out of range")]
fn should_panic_when_int_sort_dim_out_of_range() {
    let _ = Tensor::<1, Int>::ones([3], &device()).sort_descending(1);
}
