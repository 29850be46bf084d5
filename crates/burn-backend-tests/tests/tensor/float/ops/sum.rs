use crate::common::*;

#[test]
fn should_sum_all() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, -6.5]], &device);

    let output = tensor.sum();

    assert_eq!(output.dims(), [1]);
    let expected = TensorData::from([8.5]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sum_dim_keeping_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);

    let rows = tensor.clone().sum_dim(1);
    let cols = tensor.sum_dim(0);

    let expected = TensorData::from([[6.0], [15.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[5.0, 7.0, 9.0]]).convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sum_dim_of_permuted_rank3() {
    let device = device();
    let tensor = Tensor::<1, Int>::arange(0..24, &device)
        .float()
        .reshape([2, 3, 4])
        .permute([2, 0, 1]);

    // shape [4, 2, 3]; summing dim 2 sums the original dim 1 (values j*4 apart).
    let output = tensor.sum_dim(2);

    // out[k][i] = sum_j (12 i + 4 j + k) = 36 i + 12 + 3 k
    let expected = TensorData::from([
        [[12.0], [48.0]],
        [[15.0], [51.0]],
        [[18.0], [54.0]],
        [[21.0], [57.0]],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sum_many_elements() {
    // 1 + 2 + ... + 10000: enough elements to cross any block or thread
    // split of the reduction; the rounding of f32 partial sums stays far
    // inside the relative tolerance.
    let device = device();
    let tensor = Tensor::<1, Int>::arange(1..10001, &device).float();

    let output = tensor.sum();

    let expected = TensorData::from([50005000.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_sum_empty_to_zero() {
    let tensor = empty_floats([0, 3]);

    let all = tensor.clone().sum();
    let dim = tensor.sum_dim(0);

    let expected = TensorData::from([0.0]).convert::<FloatElem>();
    all.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[0.0, 0.0, 0.0]]).convert::<FloatElem>();
    dim.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "sum_dim: dim 2 is out of range")]
fn should_panic_when_sum_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 3], &device()).sum_dim(2);
}
