use crate::common::*;

#[test]
fn should_mask_where() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    let mask = Tensor::<2, Bool>::from_data([[true, false], [false, true]], &device);
    let value = Tensor::<2>::from_data([[10.0, 20.0], [30.0, 40.0]], &device);

    let output = tensor.mask_where(mask, value);

    let expected = TensorData::from([[10.0, 2.0], [3.0, 40.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mask_where_broadcast_mask_and_value() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let mask = Tensor::<2, Bool>::from_data([[true, false, true]], &device);
    let value = Tensor::<2>::from_data([[-1.0], [-2.0]], &device);

    let output = tensor.mask_where(mask, value);

    let expected = TensorData::from([[-1.0, 2.0, -1.0], [-2.0, 5.0, -2.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_mask_where_transposed_operands() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).transpose();
    let mask = Tensor::<2, Bool>::from_data([[true, true], [false, false]], &device).transpose();
    let value = Tensor::<2>::zeros([2, 2], &device);

    let output = tensor.mask_where(mask, value);

    // tensor^T = [[1, 3], [2, 4]], mask^T = [[t, f], [t, f]]
    let expected = TensorData::from([[0.0, 3.0], [0.0, 4.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "mask_where: shapes")]
fn should_panic_when_mask_where_shapes_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<2>::ones([2, 2], &device).mask_where(
        Tensor::<2, Bool>::full([3, 2], true, &device),
        Tensor::<2>::zeros([2, 2], &device),
    );
}
