use crate::common::*;

#[test]
fn should_build_triangle_masks() {
    let device = device();

    let tril = Tensor::<2, Bool>::tril_mask([3, 3], 0, &device);
    let triu = Tensor::<2, Bool>::triu_mask([2, 3], 1, &device);
    let diag = Tensor::<2, Bool>::diag_mask([2, 3], -1, &device);

    // true where col - row > 0
    tril.into_data().assert_eq(
        &TensorData::from([
            [false, true, true],
            [false, false, true],
            [false, false, false],
        ]),
        false,
    );
    // true where col - row < 1
    triu.into_data().assert_eq(
        &TensorData::from([[true, false, false], [true, true, false]]),
        false,
    );
    // false only where col - row == -1
    diag.into_data().assert_eq(
        &TensorData::from([[true, true, true], [false, true, true]]),
        false,
    );
}

#[test]
fn should_build_batched_mask_and_use_it() {
    let device = device();
    let mask = Tensor::<3, Bool>::tril_mask([2, 2, 2], 0, &device);
    let scores = Tensor::<1, Int>::arange(1..9, &device)
        .float()
        .reshape([2, 2, 2]);

    let output = scores.mask_fill(mask, 0.0);

    let expected = TensorData::from([[[1.0, 0.0], [3.0, 4.0]], [[5.0, 0.0], [7.0, 8.0]]])
        .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mask_where_bool_values() {
    let device = device();
    let tensor = Tensor::<1, Bool>::from_data([true, false, true], &device);
    let mask = Tensor::<1, Bool>::from_data([false, true, true], &device);
    let value = Tensor::<1, Bool>::from_data([false, true, false], &device);

    let output = tensor.clone().mask_where(mask.clone(), value);
    let filled = tensor.mask_fill(mask, true);

    output
        .into_data()
        .assert_eq(&TensorData::from([true, true, false]), false);
    filled
        .into_data()
        .assert_eq(&TensorData::from([true, true, true]), false);
}

#[test]
fn should_mask_fill_ints_with_derived_mask() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, -2], [-3, 4]], &device);
    let mask = tensor.clone().lower_elem(0);

    let output = tensor.mask_fill(mask, 0);

    output.into_data().assert_eq(
        &TensorData::from([[1i64, 0], [0, 4]]).convert::<IntElem>(),
        false,
    );
}

#[test]
#[should_panic(expected = "tril_mask: needs at least 2 dims")]
fn should_panic_when_mask_rank_is_one() {
    let _ = Tensor::<1, Bool>::tril_mask([3], 0, &device());
}
