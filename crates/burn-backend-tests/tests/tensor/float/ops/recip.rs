use crate::common::*;

#[test]
fn should_recip() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[2.0, -4.0], [0.5, 0.0]], &device);

    let output = tensor.recip();

    let expected = TensorData::from([[0.5, -0.25], [2.0, f32::INFINITY]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_recip_flipped_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([8.0, 0.1, -1.0], &device).flip([-1]);

    let output = tensor.recip();

    let expected = TensorData::from([-1.0, 10.0, 0.125]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
