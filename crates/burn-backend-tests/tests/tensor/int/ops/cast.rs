use crate::common::*;

#[test]
fn should_convert_int_to_float() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, -2], [300, 0]], &device);

    let output = tensor.float();

    assert_eq!(output.dtype(), <FloatElem as Element>::DTYPE);
    let expected = TensorData::from([[1.0, -2.0], [300.0, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_cast_between_int_dtypes() {
    let device = device();
    let tensor = Tensor::<1, Int>::from_data([-3, 0, 100], &device);

    for dtype in [DType::I64, DType::I32, DType::I16, DType::I8] {
        if !device.supports_dtype(dtype) {
            continue;
        }
        let cast = tensor.clone().cast(dtype);
        assert_eq!(cast.dtype(), dtype);
        cast.into_data()
            .assert_eq(&TensorData::from([-3i64, 0, 100]), false);
    }
}

#[test]
fn should_compute_in_narrow_int_dtype() {
    let device = device();
    if !device.supports_dtype(DType::I32) {
        return;
    }
    let lhs = Tensor::<1, Int>::from_data([7, -7], (&device, DType::I32));
    let rhs = Tensor::<1, Int>::from_data([2, 2], (&device, DType::I32));

    let output = lhs / rhs;

    assert_eq!(output.dtype(), DType::I32);
    output
        .into_data()
        .assert_eq(&TensorData::from([3i32, -4]), true);
}

#[test]
fn should_convert_transposed_int_to_float() {
    let device = device();
    let tensor = Tensor::<2, Int>::from_data([[1, 2], [3, 4]], &device).transpose();

    let output = tensor.float();

    let expected = TensorData::from([[1.0, 3.0], [2.0, 4.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "cast: expected an integer dtype")]
fn should_panic_when_casting_int_to_float_dtype() {
    let _ = Tensor::<1, Int>::ones([2], &device()).cast(DType::F32);
}
