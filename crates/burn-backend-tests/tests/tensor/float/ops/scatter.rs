use crate::common::*;

#[test]
fn should_scatter_add_along_dim1() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], &device);
    let indices = Tensor::<2, Int>::from_data([[2, 0], [1, 1]], &device);
    let values = Tensor::<2>::from_data([[5.0, 6.0], [7.0, 8.0]], &device);

    let output = tensor.scatter(1, indices, values);

    // Repeated index 1 in row 1 accumulates 7 + 8.
    let expected = TensorData::from([[7.0, 1.0, 6.0], [0.0, 15.0, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_scatter_add_along_dim0() {
    let device = device();
    let tensor = Tensor::<2>::zeros([3, 2], &device);
    let indices = Tensor::<2, Int>::from_data([[0, 2], [0, 1]], &device);
    let values = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);

    let output = tensor.scatter(0, indices, values);

    let expected = TensorData::from([[4.0, 0.0], [0.0, 4.0], [0.0, 2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_scatter_into_transposed_tensor() {
    let device = device();
    // transposed: [[1, 3], [2, 4]]
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).transpose();
    let indices = Tensor::<2, Int>::from_data([[1], [0]], &device);
    let values = Tensor::<2>::from_data([[10.0], [20.0]], &device);

    let output = tensor.scatter(1, indices, values);

    let expected = TensorData::from([[1.0, 13.0], [22.0, 4.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "scatter: indices")]
fn should_panic_when_scatter_values_shape_differs() {
    let device = device();
    let tensor = Tensor::<2>::zeros([2, 3], &device);
    let indices = Tensor::<2, Int>::zeros([2, 2], &device);
    let values = Tensor::<2>::ones([2, 1], &device);
    let _ = tensor.scatter(1, indices, values);
}
