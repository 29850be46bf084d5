//! Shared helpers: the test device, the reference files, host comparisons.

#![allow(dead_code)]

use burn_tensor::{Bool, Device, Int, Tensor, TensorData};
use serde_json::Value;

/// WGPU when the crate's `wgpu` feature is on, Flex otherwise.
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

pub fn reference(name: &str) -> Value {
    let text = match name {
        "labels" => include_str!("../reference/labels.json"),
        "nms" => include_str!("../reference/nms.json"),
        "morphology" => include_str!("../reference/morphology.json"),
        "filters" => include_str!("../reference/filters.json"),
        other => panic!("no reference {other}"),
    };
    serde_json::from_str(text).expect("reference parses")
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

pub fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_i64().expect("int"))
        .collect()
}

pub fn dims(v: &Value) -> Vec<usize> {
    ints(v).into_iter().map(|d| d as usize).collect()
}

pub fn float_tensor<const D: usize>(values: Vec<f64>, shape: &[usize]) -> Tensor<D> {
    let data = TensorData::new(
        values.into_iter().map(|v| v as f32).collect(),
        shape.to_vec(),
    );
    Tensor::from_data(data, &device())
}

pub fn int_tensor<const D: usize>(values: Vec<i64>, shape: &[usize]) -> Tensor<D, Int> {
    Tensor::from_data(TensorData::new(values, shape.to_vec()), &device())
}

pub fn bool_tensor<const D: usize>(values: Vec<i64>, shape: &[usize]) -> Tensor<D, Bool> {
    let data = TensorData::new(values.into_iter().map(|v| v != 0).collect(), shape.to_vec());
    Tensor::from_data(data, &device())
}

pub fn host_floats<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f64>().into_vec::<f64>().unwrap()
}

pub fn host_ints<const D: usize>(t: Tensor<D, Int>) -> Vec<i64> {
    t.into_data().convert::<i64>().into_vec::<i64>().unwrap()
}

pub fn host_bools<const D: usize>(t: Tensor<D, Bool>) -> Vec<i64> {
    t.into_data().iter::<bool>().map(i64::from).collect()
}

/// Largest absolute difference.
pub fn abs_err(got: &[f64], expected: &[f64]) -> f64 {
    assert_eq!(got.len(), expected.len(), "lengths differ");
    got.iter()
        .zip(expected)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
}

/// Runs `f` and returns its panic message.
pub fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(f).expect_err("expected a panic");
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
