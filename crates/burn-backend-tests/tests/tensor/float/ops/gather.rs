use crate::common::*;

#[test]
fn should_gather_along_dim1() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device);
    let indices = Tensor::<2, Int>::from_data([[2, 2, 0, 1], [1, 0, 0, 2]], &device);

    let output = tensor.gather(1, indices);

    let expected =
        TensorData::from([[2.0, 2.0, 0.0, 1.0], [4.0, 3.0, 3.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_gather_along_dim0_with_smaller_indices() {
    let device = device();
    let tensor =
        Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], &device);
    let indices = Tensor::<2, Int>::from_data([[2, 0]], &device);

    let output = tensor.gather(0, indices);

    let expected = TensorData::from([[6.0, 1.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_gather_transposed_input_with_transposed_indices() {
    let device = device();
    // transposed: [[0, 3], [1, 4], [2, 5]]
    let tensor = Tensor::<2>::from_data([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], &device).transpose();
    // transposed: [[1, 0], [0, 0], [1, 1]]
    let indices = Tensor::<2, Int>::from_data([[1, 0, 1], [0, 0, 1]], &device).transpose();

    let output = tensor.gather(1, indices);

    let expected = TensorData::from([[3.0, 0.0], [1.0, 1.0], [5.0, 5.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "gather: indices")]
fn should_panic_when_gather_indices_exceed_tensor() {
    let device = device();
    let tensor = Tensor::<2>::ones([2, 2], &device);
    let indices = Tensor::<2, Int>::zeros([3, 2], &device);
    let _ = tensor.gather(1, indices);
}
