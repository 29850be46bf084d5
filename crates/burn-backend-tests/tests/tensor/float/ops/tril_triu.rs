use crate::common::*;

fn grid() -> Tensor<2> {
    // [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    Tensor::<1, Int>::arange(1..13, &device())
        .float()
        .reshape([3, 4])
}

#[test]
fn should_tril_with_diagonals() {
    let main = grid().tril(0);
    let above = grid().tril(1);
    let below = grid().tril(-1);

    let expected = TensorData::from([
        [1.0, 0.0, 0.0, 0.0],
        [5.0, 6.0, 0.0, 0.0],
        [9.0, 10.0, 11.0, 0.0],
    ])
    .convert::<FloatElem>();
    main.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([
        [1.0, 2.0, 0.0, 0.0],
        [5.0, 6.0, 7.0, 0.0],
        [9.0, 10.0, 11.0, 12.0],
    ])
    .convert::<FloatElem>();
    above
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([
        [0.0, 0.0, 0.0, 0.0],
        [5.0, 0.0, 0.0, 0.0],
        [9.0, 10.0, 0.0, 0.0],
    ])
    .convert::<FloatElem>();
    below
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_triu_with_diagonals() {
    let main = grid().triu(0);
    let above = grid().triu(2);

    let expected = TensorData::from([
        [1.0, 2.0, 3.0, 4.0],
        [0.0, 6.0, 7.0, 8.0],
        [0.0, 0.0, 11.0, 12.0],
    ])
    .convert::<FloatElem>();
    main.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([
        [0.0, 0.0, 3.0, 4.0],
        [0.0, 0.0, 0.0, 8.0],
        [0.0, 0.0, 0.0, 0.0],
    ])
    .convert::<FloatElem>();
    above
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_triu_batched_transposed_input() {
    let device = device();
    // Each batch transposed: [[1, 3], [2, 4]] and [[5, 7], [6, 8]].
    let tensor = Tensor::<3>::from_data(
        [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]],
        &device,
    )
    .swap_dims(1, 2);

    let output = tensor.triu(0);

    let expected = TensorData::from([[[1.0, 3.0], [0.0, 4.0]], [[5.0, 7.0], [0.0, 8.0]]])
        .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "tril: needs a tensor of at least 2 dims")]
fn should_panic_when_tril_rank1() {
    let _ = Tensor::<1>::ones([3], &device()).tril(0);
}
