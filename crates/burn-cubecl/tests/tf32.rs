//! `set_allow_tf32`: f32 products stay strict by default, may round to TF32
//! when allowed, and are strict again once the switch is reset. In its own
//! test binary: the switch is process-wide.
#![cfg(any(feature = "wgpu", feature = "cuda"))]

use burn_backend::FloatTensorOps;
use burn_cubecl::{CubeBackend, CubeDevice, allow_tf32, set_allow_tf32};
use burn_std::TensorData;

mod common;
use common::values;

/// The largest error against the f64 product, relative to `Σ |a|·|b|` of
/// each output (the scale rounding errors grow with).
fn worst_error(got: &[f32], a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> f64 {
    let mut worst = 0f64;
    for i in 0..m {
        for j in 0..n {
            let (mut exact, mut scale) = (0f64, 0f64);
            for p in 0..k {
                let t = a[i * k + p] as f64 * b[p * n + j] as f64;
                exact += t;
                scale += t.abs();
            }
            worst = worst.max((got[i * n + j] as f64 - exact).abs() / scale);
        }
    }
    worst
}

#[test]
fn tf32_is_opt_in_and_resets() {
    let (m, k, n) = (64, 96, 80);
    let a = values(m * k, 3);
    let b = values(k * n, 5);
    let device = CubeDevice::default();
    let product = || {
        let lhs = CubeBackend::float_from_data(TensorData::new(a.clone(), [m, k]), &device);
        let rhs = CubeBackend::float_from_data(TensorData::new(b.clone(), [k, n]), &device);
        let out = CubeBackend::float_matmul(lhs, rhs);
        CubeBackend::float_into_data(out)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    };
    assert!(!allow_tf32(), "strict f32 is the default");
    let strict = product();
    let strict_error = worst_error(&strict, &a, &b, m, k, n);
    assert!(strict_error < 1e-5, "strict f32 error {strict_error:e}");

    set_allow_tf32(true);
    let tf32 = product();
    set_allow_tf32(false);
    // TF32 keeps 10 mantissa bits: each product is off by at most ~2⁻¹⁰.
    let tf32_error = worst_error(&tf32, &a, &b, m, k, n);
    assert!(tf32_error < 2e-3, "tf32 error {tf32_error:e}");

    assert_eq!(product(), strict, "strict again after the reset");
}
