use crate::common::*;

#[test]
fn should_clamp_ints() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[-10, -1, 0], [3, 7, 100]], &device);

    let output = tensor.clamp(-2, 5);

    output.into_data().assert_eq(
        &TensorData::from([[-2i64, -1, 0], [3, 5, 5]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_clamp_min_max_strided_ints() {
    let device = device();
    let tensor = Tensor::<1, Int>::arange(-6..7, &device).slice(s![..;4]);

    // [-6, -2, 2, 6]
    let min = tensor.clone().clamp_min(0);
    let max = tensor.clamp_max(0);

    min.into_data().assert_eq(
        &TensorData::from([0i64, 0, 2, 6]).convert::<IntElem>(),
        false,
    );
    max.into_data().assert_eq(
        &TensorData::from([-6i64, -2, 0, 0]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_compare_ints() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([1, 5, 3], &device);
    let other = Tensor::<1, Int>::from_data([3, 5, 1], &device);

    tensor
        .clone()
        .greater_equal(other.clone())
        .into_data()
        .assert_eq(&TensorData::from([false, true, true]), false);
    tensor
        .clone()
        .equal(other)
        .into_data()
        .assert_eq(&TensorData::from([false, true, false]), false);
    tensor
        .lower_elem(3)
        .into_data()
        .assert_eq(&TensorData::from([true, false, false]), false);
}
