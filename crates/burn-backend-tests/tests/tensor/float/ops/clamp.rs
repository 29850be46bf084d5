use crate::common::*;

#[test]
fn should_clamp() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[-3.0, -1.0, 0.0], [1.0, 2.5, 10.0]], &device);

    let output = tensor.clamp(-1.5, 2.0);

    let expected = TensorData::from([[-1.5, -1.0, 0.0], [1.0, 2.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_clamp_min_and_max() {
    let device = device();
    let tensor = Tensor::<1>::from_data([-3.0, 0.5, 4.0], &device);

    let min = tensor.clone().clamp_min(0.0);
    let max = tensor.clamp_max(1.0);

    let expected = TensorData::from([0.0, 0.5, 4.0]).convert::<FloatElem>();
    min.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([-3.0, 0.5, 1.0]).convert::<FloatElem>();
    max.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_clamp_permuted_input() {
    let device = device();
    let tensor = Tensor::<3>::from_data([[[-5.0, 5.0]], [[0.5, -0.5]]], &device).permute([2, 1, 0]);

    let output = tensor.clamp(-1.0, 1.0);

    // permuted shape [2, 1, 2]: out[i][0][j] = in[j][0][i]
    let expected = TensorData::from([[[-1.0, 0.5]], [[1.0, -0.5]]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_max_min_pair_broadcast() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 5.0, -2.0], [4.0, 0.0, 3.0]], &device);
    let rhs = Tensor::<2>::from_data([[2.0, 2.0, 2.0]], &device);

    let max = lhs.clone().max_pair(rhs.clone());
    let min = lhs.min_pair(rhs);

    let expected = TensorData::from([[2.0, 5.0, 2.0], [4.0, 2.0, 3.0]]).convert::<FloatElem>();
    max.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[1.0, 2.0, -2.0], [2.0, 0.0, 2.0]]).convert::<FloatElem>();
    min.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "max_pair: shapes")]
fn should_panic_when_max_pair_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<1>::ones([2], &device).max_pair(Tensor::<1>::ones([5], &device));
}
