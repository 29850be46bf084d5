//! Shared helpers: the device under test, the reference file, host-side
//! comparisons.

#![allow(dead_code)]

use burn_tensor::{DType, Device, Int, Tensor, TensorData, TensorKind};
use serde_json::Value;

/// WGPU with the crate's `wgpu` feature, Flex (CPU) otherwise.
pub fn device() -> Device {
    #[cfg(feature = "wgpu")]
    {
        Device::wgpu(Default::default())
    }
    #[cfg(not(feature = "wgpu"))]
    {
        Device::flex()
    }
}

/// The dtypes this device runs: f32 always, f64 where supported.
pub fn dtypes() -> Vec<DType> {
    let mut d = vec![DType::F32];
    if device().supports_dtype(DType::F64) {
        d.push(DType::F64);
    }
    d
}

pub fn has_f64() -> bool {
    device().supports_dtype(DType::F64)
}

/// The references written by `tests/reference/generate.py`.
pub fn reference() -> Value {
    serde_json::from_str(include_str!("../reference/linalg.json")).expect("linalg.json parses")
}

pub fn dtype_of(name: &str) -> DType {
    match name {
        "f64" => DType::F64,
        "f32" => DType::F32,
        other => panic!("unknown dtype {other}"),
    }
}

/// `(shape, data)` of a recorded array.
pub fn array(v: &Value) -> (Vec<usize>, Vec<f64>) {
    let shape = v["shape"]
        .as_array()
        .expect("shape")
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect();
    let data = v["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    (shape, data)
}

pub fn tensor_on<const D: usize>(
    values: Vec<f64>,
    shape: &[usize],
    dtype: DType,
    device: &Device,
) -> Tensor<D> {
    Tensor::from_data(TensorData::new(values, shape.to_vec()), (device, dtype))
}

pub fn tensor<const D: usize>(values: Vec<f64>, shape: &[usize], dtype: DType) -> Tensor<D> {
    tensor_on(values, shape, dtype, &device())
}

/// A recorded array as a tensor (its rank must be `D`).
pub fn load<const D: usize>(v: &Value, dtype: DType) -> Tensor<D> {
    let (shape, data) = array(v);
    tensor(data, &shape, dtype)
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

pub fn values<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f64>().into_vec::<f64>().unwrap()
}

/// Largest absolute difference relative to the reference's largest
/// magnitude (at least 1).
pub fn rel_err(got: &[f64], expected: &[f64]) -> f64 {
    assert_eq!(got.len(), expected.len(), "lengths differ");
    let scale = expected.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    got.iter()
        .zip(expected)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        / scale
}

/// Tolerance of a dtype for well-conditioned small matrices.
pub fn tol(dtype: DType) -> f64 {
    match dtype {
        DType::F64 => 1e-10,
        _ => 1e-4,
    }
}

#[track_caller]
pub fn assert_close(got: &[f64], expected: &[f64], tol: f64, what: &str) {
    let e = rel_err(got, expected);
    assert!(
        e <= tol,
        "{what}: relative error {e:e} > {tol:e}\n got {got:?}\n want {expected:?}"
    );
}

/// `Xᵀ` of the last two dims.
pub fn t<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    x.swap_dims(D - 2, D - 1)
}

/// Checks that the columns of `q` `[.., m, k]` are orthonormal.
#[track_caller]
pub fn assert_orthonormal_columns<const D: usize>(q: Tensor<D>, tol: f64, what: &str) {
    let dims = q.dims();
    let k = dims[D - 1];
    let g = t(q.clone()).matmul(q);
    let batch: usize = dims[..D - 2].iter().product();
    let mut eye = Vec::new();
    for _ in 0..batch {
        for i in 0..k {
            for j in 0..k {
                eye.push(if i == j { 1.0 } else { 0.0 });
            }
        }
    }
    assert_close(&values(g), &eye, tol, what);
}

/// A recorded array (whole numbers) as an int tensor of the device's
/// default int dtype.
pub fn load_int<const D: usize>(v: &Value) -> Tensor<D, Int> {
    let (shape, data) = array(v);
    let ints: Vec<i64> = data.iter().map(|&x| x as i64).collect();
    Tensor::from_data(TensorData::new(ints, shape), &device())
}

/// `(shape, values as f64)` of a tensor of any kind.
pub fn host_any<const D: usize, K: TensorKind>(t: Tensor<D, K>) -> (Vec<usize>, Vec<f64>) {
    let data = t.into_data();
    (
        data.shape.dims.clone(),
        data.convert::<f64>().into_vec::<f64>().unwrap(),
    )
}
