use crate::common::*;

#[test]
fn should_stack_along_each_dim() {
    let device = device();
    let a = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    let b = Tensor::<2>::from_data([[5.0, 6.0], [7.0, 8.0]], &device);

    let dim0 = Tensor::stack::<3>(vec![a.clone(), b.clone()], 0);
    let dim1 = Tensor::stack::<3>(vec![a.clone(), b.clone()], 1);
    let dim2 = Tensor::stack::<3>(vec![a, b], 2);

    let expected = TensorData::from([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
        .convert::<FloatElem>();
    dim0.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[[1.0, 2.0], [5.0, 6.0]], [[3.0, 4.0], [7.0, 8.0]]])
        .convert::<FloatElem>();
    dim1.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
    let expected = TensorData::from([[[1.0, 5.0], [2.0, 6.0]], [[3.0, 7.0], [4.0, 8.0]]])
        .convert::<FloatElem>();
    dim2.into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_stack_flipped_inputs() {
    let device = device();
    let a = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).flip([0]);
    let b = Tensor::<1>::from_data([4.0, 5.0, 6.0], &device);

    let output = Tensor::stack::<2>(vec![a, b], 0);

    let expected = TensorData::from([[3.0, 2.0, 1.0], [4.0, 5.0, 6.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "stack: all tensors must have the same shape")]
fn should_panic_when_stack_shapes_differ() {
    let device = device();
    let _ = Tensor::stack::<2>(
        vec![
            Tensor::<1>::ones([2], &device),
            Tensor::<1>::ones([3], &device),
        ],
        0,
    );
}
