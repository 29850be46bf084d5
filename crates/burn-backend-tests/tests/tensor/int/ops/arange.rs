use crate::common::*;

#[test]
fn should_arange() {
    let output = Tensor::<1, Int>::arange(-2..3, &device());

    assert_eq!(output.dtype(), <IntElem as Element>::DTYPE);
    output.into_data().assert_eq(
        &TensorData::from([-2i64, -1, 0, 1, 2]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_arange_step() {
    let device = device();

    let exact = Tensor::<1, Int>::arange_step(0..9, 3, &device);
    let partial = Tensor::<1, Int>::arange_step(-5..6, 4, &device);

    exact
        .into_data()
        .assert_eq(&TensorData::from([0i64, 3, 6]).convert::<IntElem>(), false);
    partial.into_data().assert_eq(
        &TensorData::from([-5i64, -1, 3]).convert::<IntElem>(),
        false,
    );
}

#[test]
fn should_arange_empty_range() {
    let output = Tensor::<1, Int>::arange(4..4, &device());

    assert_eq!(output.dims(), [0]);
}

#[test]
fn should_arange_with_explicit_dtype() {
    let device = device();
    if !device.supports_dtype(DType::I32) {
        return;
    }

    let output = Tensor::<1, Int>::arange(0..3, (&device, DType::I32));

    assert_eq!(output.dtype(), DType::I32);
    output
        .into_data()
        .assert_eq(&TensorData::from([0i32, 1, 2]), true);
}

#[test]
#[should_panic(expected = "arange_step: step must be positive")]
fn should_panic_when_step_is_zero() {
    let _ = Tensor::<1, Int>::arange_step(0..4, 0, &device());
}
