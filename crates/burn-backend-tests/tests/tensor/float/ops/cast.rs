use crate::common::*;

#[test]
fn should_cast_between_float_dtypes() {
    let device = device();
    let tensor = Tensor::<1>::from_data([1.5, -2.25, 1.0e-3], &device);

    for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
        if !device.supports_dtype(dtype) {
            continue;
        }
        let cast = tensor.clone().cast(dtype);
        assert_eq!(cast.dtype(), dtype);
        let back = cast.cast(<FloatElem as Element>::DTYPE);
        let expected = TensorData::from([1.5, -2.25, 1.0e-3]).convert::<FloatElem>();
        // bf16 keeps 8 significant bits: 1e-3 comes back within 0.4 %.
        back.into_data()
            .assert_approx_eq::<FloatElem>(&expected, Tolerance::rel_abs(4e-3, 1e-6));
    }
}

#[test]
fn should_round_when_cast_to_half() {
    let device = device();
    if !device.supports_dtype(DType::F16) {
        return;
    }
    // 1 + 2^-12 is not representable in f16 (10 mantissa bits) and rounds to 1.
    // The source is f32 whatever FloatElem is: bf16 would round 65504 (f16's
    // largest value) up to 65536 before the cast, and f16 hold both already.
    let tensor = Tensor::<1>::from_data([1.0 + 1.0 / 4096.0, 65504.0], (&device, DType::F32))
        .cast(DType::F16);

    let data = tensor.into_data();

    assert_eq!(data.dtype, DType::F16);
    data.assert_eq(&TensorData::from([1.0f32, 65504.0]), false);
}

#[test]
fn should_convert_float_to_int_truncating_toward_zero() {
    let device = device();
    let tensor = Tensor::<2>::from_data([[1.9, -1.9], [0.5, -0.5]], &device).transpose();

    let output = tensor.int();

    assert_eq!(output.dtype(), <IntElem as Element>::DTYPE);
    output.into_data().assert_eq(
        &TensorData::from([[1i64, 0], [-1, 0]]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_keep_values_when_data_dtype_differs() {
    // f64 data is converted to the device's float dtype at creation.
    let device = device();
    let tensor = Tensor::<1>::from_data(TensorData::from([0.25f64, -8.0]), &device);

    assert_eq!(tensor.dtype(), <FloatElem as Element>::DTYPE);
    let expected = TensorData::from([0.25, -8.0]).convert::<FloatElem>();
    tensor
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "cast: expected a float dtype")]
fn should_panic_when_casting_float_to_int_dtype() {
    let _ = Tensor::<1>::ones([2], &device()).cast(DType::I32);
}
