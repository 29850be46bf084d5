use crate::common::*;

#[test]
fn should_relu() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.0, 0.0, 2.5], [3.0, -0.5, -7.0]], &device);

    let output = activation::relu(tensor);

    let expected = TensorData::from([[0.0, 0.0, 2.5], [3.0, 0.0, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_relu_transposed_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-1.0, 0.0, 2.5], [3.0, -0.5, -7.0]], &device).transpose();

    let output = activation::relu(tensor);

    let expected = TensorData::from([[0.0, 3.0], [0.0, 0.0], [2.5, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_leaky_relu() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-10.0, -1.0, 0.0, 4.0], &device);

    let output = activation::leaky_relu(tensor, 0.1);

    let expected = TensorData::from([-1.0, -0.1, 0.0, 4.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_hard_sigmoid() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-4.0, -1.5, 0.0, 1.5, 4.0], &device);

    let output = activation::hard_sigmoid(tensor, 1.0 / 6.0, 0.5);

    let expected = TensorData::from([0.0, 0.25, 0.5, 0.75, 1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_prelu_per_channel() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-2.0, -2.0], [3.0, -4.0]], &device);
    let alpha = Tensor::<1>::from_data([0.5, 0.25], &device);

    let output = activation::prelu(tensor, alpha);

    let expected = TensorData::from([[-1.0, -0.5], [3.0, -1.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "prelu: alpha")]
fn should_panic_when_prelu_alpha_does_not_match_channels() {
    let device = device();
    let _ = activation::prelu(
        Tensor::<2>::ones([2, 3], &device),
        Tensor::<1>::ones([2], &device),
    );
}
