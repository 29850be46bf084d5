use crate::common::*;

#[test]
fn should_cumsum_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2, 3], [-4, 5, -6]], &device);

    let rows = tensor.clone().cumsum(1);
    let cols = tensor.cumsum(0);

    rows.into_data().assert_eq(
        &TensorData::from([[1i64, 3, 6], [-4, 1, -5]]).convert::<IntElem>(),
        false,
    );
    cols.into_data().assert_eq(
        &TensorData::from([[1i64, 2, 3], [-3, 7, -3]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_cumsum_flipped_ints() {
    let device = device();
    let tensor = Tensor::<1, Int>::arange(1..6, &device).flip([0]);

    let output = tensor.cumsum(0);

    output.into_data().assert_eq(
        &TensorData::from([5i64, 9, 12, 14, 15]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_cumprod_cummax_ints() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([2, -1, 3, 5], &device);

    tensor.clone().cumprod(0).into_data().assert_eq(
        &TensorData::from([2i64, -2, -6, -30]).convert::<IntElem>(),
        false,
    );
    tensor.cummax(0).into_data().assert_eq(
        &TensorData::from([2i64, 2, 3, 5]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "cumsum: dim 1 is out of range")]
fn should_panic_when_int_cumsum_dim_out_of_range() {
    let _ = Tensor::<1, Int>::ones([3], &device()).cumsum(1);
}
