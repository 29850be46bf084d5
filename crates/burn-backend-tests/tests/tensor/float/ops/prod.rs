use crate::common::*;

#[test]
fn should_prod_all() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, -3.0], [0.5, 4.0, 2.0]], &device);

    let output = tensor.prod();

    let expected = TensorData::from([-24.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_prod_dim() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, -3.0], [0.5, 4.0, 2.0]], &device);

    let rows = tensor.clone().prod_dim(1);
    let cols = tensor.prod_dim(0);

    let expected = TensorData::from([[-6.0], [4.0]]).convert::<FloatElem>();
    rows.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[0.5, 8.0, -6.0]]).convert::<FloatElem>();
    cols.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_prod_dim_with_zero_on_strided_input() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[2.0, 9.0, 3.0, 9.0], [0.0, 9.0, 5.0, 9.0]], &device)
        .slice(s![.., ..;2]);

    let output = tensor.prod_dim(1);

    let expected = TensorData::from([[6.0], [0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_prod_empty_to_one() {
    let output = empty_floats([0]).prod();

    let expected = TensorData::from([1.0]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "prod_dim: dim 1 is out of range")]
fn should_panic_when_prod_dim_out_of_range() {
    let _ = Tensor::<1>::ones([3], &device()).prod_dim(1);
}
