use crate::common::*;

#[test]
fn should_topk_values_descending() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, 9.0, 1.0, 7.0], [-1.0, -5.0, 0.0, 2.0]], &device);

    let output = tensor.topk(2, 1);

    let expected = TensorData::from([[9.0, 7.0], [2.0, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_topk_with_indices_along_dim0() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, 9.0], [1.0, 7.0], [5.0, 8.0]], &device);

    let (values, indices) = tensor.topk_with_indices(2, 0);

    let expected = TensorData::from([[5.0, 9.0], [3.0, 8.0]]).convert::<FloatElem>();
    values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    indices.into_data().assert_eq(
        &TensorData::from([[2i64, 0], [0, 2]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_topk_of_permuted_input() {
    let device = device();
    let tensor =
        Tensor::<2>::from_data([[3.0, -1.0], [9.0, -5.0], [1.0, 0.0], [7.0, 2.0]], &device)
            .permute([1, 0]);

    let (values, indices) = tensor.topk_with_indices(3, 1);

    let expected = TensorData::from([[9.0, 7.0, 3.0], [2.0, 0.0, -1.0]]).convert::<FloatElem>();
    values
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    indices.into_data().assert_eq(
        &TensorData::from([[1i64, 3, 0], [3, 2, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_topk_zero_elements() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[3.0, 9.0, 1.0]], &device);

    let output = tensor.topk(0, 1);

    assert_eq!(output.dims(), [1, 0]);
}

#[test]
#[should_panic(expected = "topk: k = 4 is larger than dim 1")]
fn should_panic_when_k_exceeds_dim() {
    let _ = Tensor::<2>::ones([2, 3], &device()).topk(4, 1);
}
