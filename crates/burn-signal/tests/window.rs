//! hann_window, hamming_window and blackman_window against NumPy (periodic
//! windows as PyTorch defines them), in f64 and in the default dtype.

mod common;

use burn_signal::{blackman_window, hamming_window, hann_window};
use burn_tensor::{DType, Tensor, TensorCreationOptions};
use common::*;

fn window(name: &str, size: usize, periodic: bool, dtype: Option<DType>) -> Tensor<1> {
    let device = device();
    let f: fn(usize, bool, TensorCreationOptions) -> Tensor<1> = match name {
        "hann" => hann_window,
        "hamming" => hamming_window,
        "blackman" => blackman_window,
        other => panic!("unknown window {other}"),
    };
    match dtype {
        Some(dtype) => f(size, periodic, (&device, dtype).into()),
        None => f(size, periodic, (&device).into()),
    }
}

#[test]
fn windows_match_numpy() {
    let reference = reference();
    let windows = reference["windows"].as_array().unwrap();
    assert_eq!(windows.len(), 36);
    for w in windows {
        let name = w["name"].as_str().unwrap();
        let size = w["size"].as_u64().unwrap() as usize;
        let periodic = w["periodic"].as_bool().unwrap();
        let expected = floats(&w["values"]);
        for (dtype, tol) in [(DType::F64, 1e-15), (DType::F32, 1e-7)] {
            if !supports(dtype, "windows_match_numpy") {
                continue;
            }
            let (shape, got) = host(window(name, size, periodic, Some(dtype)), dtype);
            assert_eq!(shape, [size], "{name} {size} periodic {periodic}");
            for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    (a - b).abs() <= tol,
                    "{name}({size}, periodic {periodic}) {dtype:?} [{i}]: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn windows_take_the_device_default_dtype() {
    let w = window("hann", 8, true, None);
    assert_eq!(w.dtype(), DType::F32);
    assert_eq!(w.dims(), [8]);
}

#[test]
fn periodic_hann_overlap_adds_to_a_constant_at_half_hop() {
    if !supports(
        DType::F64,
        "periodic_hann_overlap_adds_to_a_constant_at_half_hop",
    ) {
        return;
    }
    // The property the periodic flag exists for: w[k] + w[k + N/2] = 1.
    let (_, w) = host(window("hann", 16, true, Some(DType::F64)), DType::F64);
    for k in 0..8 {
        assert!((w[k] + w[k + 8] - 1.0).abs() < 1e-15, "k = {k}");
    }
}
