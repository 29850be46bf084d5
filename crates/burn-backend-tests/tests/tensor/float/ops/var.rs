use crate::common::*;

#[test]
fn should_var_unbiased_and_biased() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]], &device);

    let unbiased = tensor.clone().var(1);
    let biased = tensor.var_bias(1);

    // mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5
    let expected = TensorData::from([[5.0 / 3.0], [0.0]]).convert::<FloatElem>();
    unbiased
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.25], [0.0]]).convert::<FloatElem>();
    biased
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_var_mean_along_dim0() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 3.0], [5.0, 7.0], [9.0, 2.0]], &device);

    let (var, mean) = tensor.clone().var_mean(0);
    let (var_bias, mean_bias) = tensor.var_mean_bias(0);

    // col 0: 1 5 9, mean 5, deviations 16 + 0 + 16 = 32; col 1: 3 7 2, mean 4, 1 + 9 + 4 = 14
    let expected_mean = TensorData::from([[5.0, 4.0]]).convert::<FloatElem>();
    var.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[16.0, 7.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    mean.into_data()
        .assert_approx_eq::<FloatElem>(&expected_mean, Tolerance::default());
    var_bias.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[32.0 / 3.0, 14.0 / 3.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    mean_bias
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected_mean, Tolerance::default());
}

#[test]
fn should_var_of_shifted_transposed_input() {
    // A large offset makes the naive E[x^2] - E[x]^2 formula lose everything in f32.
    // f16 and bf16 keep 11 and 8 significant bits: their offsets are large
    // values for which the elements and the sum of each row (the mean is
    // the sum, rounded to the dtype, divided by 3) are all exact.
    let o = match <FloatElem as Element>::DTYPE {
        DType::F16 => 680.0,
        DType::BF16 => 80.0,
        _ => 10000.0,
    };
    let device = device();
    let tensor = Tensor::<2>::from_data(
        [[o, o + 3.0], [o + 1.0, o + 4.0], [o + 2.0, o + 5.0]],
        &device,
    )
    .transpose();

    let output = tensor.var(1);

    let expected = TensorData::from([[1.0], [1.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "var: dim 2 is out of range")]
fn should_panic_when_var_dim_out_of_range() {
    let _ = Tensor::<2>::ones([2, 2], &device()).var(2);
}
