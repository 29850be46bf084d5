use crate::common::*;

#[test]
fn should_neg() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, -2.0], [0.0, 3.5]], &device);

    let output = -tensor;

    let expected = TensorData::from([[-1.0, 2.0], [0.0, -3.5]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_neg_expanded_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0], [-2.0]], &device).expand([2, 3]);

    let output = tensor.neg();

    let expected = TensorData::from([[-1.0, -1.0, -1.0], [2.0, 2.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
