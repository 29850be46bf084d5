use crate::common::*;

#[test]
fn should_sum_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2, 3], [4, -5, 6]], &device);

    let all = tensor.clone().sum();
    let rows = tensor.clone().sum_dim(1);
    let cols = tensor.sum_dim(0);

    all.into_data()
        .assert_eq(&TensorData::from([11i64]).convert::<IntElem>(), false);
    rows.into_data()
        .assert_eq(&TensorData::from([[6i64], [5]]).convert::<IntElem>(), false);
    cols.into_data().assert_eq(
        &TensorData::from([[5i64, -3, 9]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_mean_ints_with_floor() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2], [-1, -2]], &device);

    let rows = tensor.clone().mean_dim(1);
    let all = tensor.mean();

    // 1.5 -> 1, -1.5 -> -2
    rows.into_data().assert_eq(
        &TensorData::from([[1i64], [-2]]).convert::<IntElem>(),
        false,
    );
    all.into_data()
        .assert_eq(&TensorData::from([0i64]).convert::<IntElem>(), false);
}

#[test]
fn should_prod_and_sum_permuted_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2, 3], [4, 5, 6]], &device).permute([1, 0]);

    let prod = tensor.clone().prod_dim(1);
    let sum = tensor.sum_dim(0);

    prod.into_data().assert_eq(
        &TensorData::from([[4i64], [10], [18]]).convert::<IntElem>(),
        false,
    );
    sum.into_data()
        .assert_eq(&TensorData::from([[6i64, 15]]).convert::<IntElem>(), false);
}

#[test]
fn should_sum_large_ints_exactly() {
    // Values past 2^24 would lose precision through an f32 accumulator.
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([16_777_217i64, 16_777_217, 1], &device);

    let output = tensor.sum();

    output.into_data().assert_eq(
        &TensorData::from([33_554_435i64]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_sum_empty_ints_to_zero() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data(TensorData::new(Vec::<i64>::new(), [0]), &device);

    tensor
        .sum()
        .into_data()
        .assert_eq(&TensorData::from([0i64]).convert::<IntElem>(), false);
}

#[test]
#[should_panic(expected = "sum_dim: dim 1 is out of range")]
fn should_panic_when_int_sum_dim_out_of_range() {
    let _ = Tensor::<1, Int>::ones([3], &device()).sum_dim(1);
}
