//! Shared helpers: the NumPy reference file and host-side comparisons.

#![allow(dead_code)]

use burn_tensor::{DType, Device, Tensor, TensorData};
use serde_json::Value;

/// The device under test: WGPU's default adapter with this crate's `wgpu`
/// feature, Flex otherwise. The transforms run on the host either way; the
/// device decides how tensors are built and read back.
pub fn device() -> Device {
    #[cfg(feature = "wgpu")]
    return Device::wgpu(Default::default());
    #[cfg(not(feature = "wgpu"))]
    Device::flex()
}

/// Whether the device under test has `dtype` (WGPU has no f64); prints a
/// notice naming `test` when it has not, for a test that then skips.
pub fn supports(dtype: DType, test: &str) -> bool {
    let supported = device().supports_dtype(dtype);
    if !supported {
        eprintln!("{test}: {dtype:?} skipped, the device under test has none");
    }
    supported
}

/// `dtype` where the device has it, f32 elsewhere: a recorded f64 case
/// then runs in f32 and is checked at f32's bound.
pub fn on_device(dtype: DType) -> DType {
    if device().supports_dtype(dtype) {
        dtype
    } else {
        DType::F32
    }
}

/// The references written by `tests/reference/generate.py`.
pub fn reference() -> Value {
    serde_json::from_str(include_str!("../reference/fft.json")).expect("fft.json parses")
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

pub fn dims(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("dim") as usize)
        .collect()
}

pub fn dtype_of(name: &str) -> DType {
    match name {
        "f64" => DType::F64,
        "f32" => DType::F32,
        other => panic!("unknown dtype {other}"),
    }
}

pub fn tensor<const D: usize>(values: Vec<f64>, shape: &[usize], dtype: DType) -> Tensor<D> {
    Tensor::from_data(TensorData::new(values, shape.to_vec()), (&device(), dtype))
}

/// The values as f64, after checking the tensor kept `dtype`.
pub fn host<const D: usize>(t: Tensor<D>, dtype: DType) -> (Vec<usize>, Vec<f64>) {
    assert_eq!(t.dtype(), dtype, "output dtype");
    let data = t.into_data();
    (
        data.shape.dims.clone(),
        data.convert::<f64>().into_vec::<f64>().unwrap(),
    )
}

/// Largest absolute difference.
pub fn abs_err(got: &[f64], expected: &[f64]) -> f64 {
    assert_eq!(got.len(), expected.len(), "lengths differ");
    got.iter()
        .zip(expected)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
}

/// Largest absolute difference, relative to the reference's largest
/// magnitude: the scale an FFT's rounding error is proportional to.
pub fn rel_err(got: &[f64], expected: &[f64]) -> f64 {
    let scale = expected
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    abs_err(got, expected) / scale
}

/// The error bound of a dtype: a few ulps of the signal's scale.
pub fn bound(dtype: DType) -> f64 {
    match dtype {
        DType::F64 => 1e-13,
        _ => 5e-6,
    }
}
