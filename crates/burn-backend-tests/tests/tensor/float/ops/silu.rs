//! Reference values: tests/reference/float_ops.py ("silu").
use crate::common::*;

#[test]
fn should_silu() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-4.0, -1.0, 0.0], [0.5, 2.0, 10.0]], &device);

    let output = activation::silu(tensor);

    let expected = TensorData::from([
        [-0.07194483984836622, -0.2689414213699951, 0.0],
        [0.3112296656009273, 1.7615941559557646, 9.999546021312977],
    ])
    .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_silu_strided_input() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-1.0, 7.0, 2.0, 7.0, 0.5], &device).slice(s![..;2]);

    let output = activation::silu(tensor);

    let expected = TensorData::from([-0.2689414213699951, 1.7615941559557646, 0.3112296656009273])
        .convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}
