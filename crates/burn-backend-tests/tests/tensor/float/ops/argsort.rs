use crate::common::*;

#[test]
fn should_argsort_ascending_stable() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.5, -1.0, 0.5, 3.0], [2.0, 2.0, 2.0, 1.0]], &device);

    let output = tensor.argsort(1);

    output.into_data().assert_eq(
        &TensorData::from([[1i64, 0, 2, 3], [3, 0, 1, 2]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_argsort_descending_stable() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.5, -1.0, 0.5, 3.0], [2.0, 2.0, 2.0, 1.0]], &device);

    let output = tensor.argsort_descending(1);

    output.into_data().assert_eq(
        &TensorData::from([[3i64, 0, 2, 1], [0, 1, 2, 3]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_argsort_along_dim0_of_strided_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data(
        [
            [4.0, 0.0, 1.0],
            [9.0, 9.0, 9.0],
            [2.0, 5.0, 3.0],
            [9.0, 9.0, 9.0],
            [3.0, -1.0, 8.0],
        ],
        &device,
    )
    .slice(s![..;2]);

    // rows [4, 0, 1], [2, 5, 3], [3, -1, 8]
    let output = tensor.argsort(0);

    output.into_data().assert_eq(
        &TensorData::from([[1i64, 2, 0], [2, 0, 1], [0, 1, 2]]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "argsort: dim 1 is out of range")]
fn should_panic_when_argsort_dim_out_of_range() {
    let _ = Tensor::<1>::ones([2], &device()).argsort(1);
}
