use crate::common::*;

#[test]
fn should_create_zeros_ones_and_full() {
    let device = device();

    let zeros = Tensor::<2>::zeros([2, 3], &device);
    let ones = Tensor::<2>::ones([2, 3], &device);
    let full = Tensor::<2>::full([2, 3], -1.25, &device);

    assert_eq!(zeros.dtype(), <FloatElem as Element>::DTYPE);
    zeros.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    ones.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    full.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[-1.25, -1.25, -1.25], [-1.25, -1.25, -1.25]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
}

#[test]
fn should_create_like_tensors_with_shape_of_source() {
    let device = device();
    let source = Tensor::<2>::from_data([[5.0, 6.0, 7.0]], &device).transpose();

    let zeros = source.zeros_like();
    let ones = source.ones_like();
    let full = source.full_like(2.5);

    assert_eq!(zeros.dims(), [3, 1]);
    zeros.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[0.0], [0.0], [0.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    ones.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[1.0], [1.0], [1.0]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
    full.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[2.5], [2.5], [2.5]]).convert::<FloatElem>(),
        Tolerance::default(),
    );
}

#[test]
fn should_create_with_explicit_dtype() {
    let device = device();
    if !device.supports_dtype(DType::F64) {
        return;
    }

    let tensor = Tensor::<1>::full([2], 0.1, (&device, DType::F64));

    assert_eq!(tensor.dtype(), DType::F64);
    tensor
        .into_data()
        .assert_eq(&TensorData::from([0.1f64, 0.1]), true);
}

#[test]
fn should_create_int_and_bool_fills() {
    let device = device();

    let ints = Tensor::<1, Int>::full([3], 7, &device);
    let bools = Tensor::<2, Bool>::ones([1, 2], &device);
    let falses = Tensor::<1, Bool>::zeros([2], &device);

    ints.into_data()
        .assert_eq(&TensorData::from([7i64, 7, 7]).convert::<IntElem>(), false);
    bools
        .into_data()
        .assert_eq(&TensorData::from([[true, true]]), false);
    falses
        .into_data()
        .assert_eq(&TensorData::from([false, false]), false);
}

#[test]
fn should_create_empty_shapes() {
    let device = device();

    let zeros = Tensor::<2>::zeros([0, 5], &device);
    let empty = Tensor::<3>::empty([2, 0, 1], &device);

    assert_eq!(zeros.dims(), [0, 5]);
    assert_eq!(zeros.into_data().num_elements(), 0);
    assert_eq!(empty.dims(), [2, 0, 1]);
    assert_eq!(empty.num_elements(), 0);
}

#[test]
fn should_read_scalar() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[4.5]], &device);

    assert_eq!(tensor.into_scalar::<f64>(), 4.5);
}

#[test]
#[should_panic(expected = "zeros: dtype")]
fn should_panic_when_creation_dtype_is_of_another_kind() {
    let device = device();
    let _ = Tensor::<1>::zeros([2], (&device, DType::I32));
}

#[test]
#[should_panic(expected = "full: expected a shape of rank 2")]
fn should_panic_when_creation_shape_has_wrong_rank() {
    let _ = Tensor::<2>::full([2, 2, 2], 1.0, &device());
}

#[test]
#[should_panic(expected = "into_scalar: expected a tensor of exactly one element")]
fn should_panic_when_into_scalar_has_many_elements() {
    let _ = Tensor::<1>::ones([2], &device()).into_scalar::<f32>();
}
