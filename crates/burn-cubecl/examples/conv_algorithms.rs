//! Times the two convolution algorithms of `ops::conv` on the default CubeBackend
//! device, and the matrix product of the column-matrix route in both
//! orientations, so the choices in `ops::conv` come from measurements.
//!
//! `cargo run --release -p burn-cubecl --features cuda --example conv_algorithms`
//!
//! The problem is the benchmark suite's conv2d (batch 64, 64 → 64
//! channels, 56×56, 3×3, padding 1) as a conv3d of depth 1, in f32 and f16.

use std::time::Instant;

use burn_backend::{Backend, ConvOptions, ConvTransposeOptions, FloatTensorOps, TensorMetadata};
use burn_cubecl::ops::conv::{
    ConvAlgorithm, conv_transpose3d_with, conv3d_weight_backward_with, conv3d_with,
};
use burn_cubecl::ops::matmul::{matmul_with, strategies};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Distribution, Shape};

fn random(dims: &[usize], dtype: DType, device: &CubeDevice) -> CubeTensor {
    let t = CubeBackend::float_random(
        Shape::from(dims.to_vec()),
        Distribution::Default,
        device,
        DType::F32,
    );
    CubeBackend::float_cast(t, dtype)
}

/// Median seconds of `run` over 10 timed runs after 3 warm-ups.
fn time(device: &CubeDevice, mut run: impl FnMut()) -> f64 {
    let mut times = Vec::new();
    for i in 0..13 {
        let start = Instant::now();
        run();
        CubeBackend::sync(device).expect("the device runs the kernels");
        if i >= 3 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let device = CubeDevice::default();
    println!("device {:?}: {}", device, CubeBackend::name(&device));
    let (batch, channels, size) = (64, 64, 56);
    let taps = 9;
    let positions = batch * size * size;
    let flops = 2.0 * (positions * channels * channels * taps) as f64;
    for dtype in [DType::F32, DType::F16] {
        if !CubeBackend::supports_dtype(&device, dtype) {
            println!("{dtype}: not supported on this device");
            continue;
        }
        let x = random(&[batch, channels, 1, size, size], dtype, &device);
        let w = random(&[channels, channels, 1, 3, 3], dtype, &device);
        let options = ConvOptions::new([1, 1, 1], [0, 1, 1], [1, 1, 1], 1);
        let out_shape = Shape::new([batch, channels, 1, size, size]);
        for (name, algorithm) in [
            ("direct", ConvAlgorithm::Direct),
            ("gemm", ConvAlgorithm::Gemm { batches: batch }),
        ] {
            let t = time(&device, || {
                drop(conv3d_with(
                    algorithm,
                    x.clone(),
                    w.clone(),
                    None,
                    options,
                    out_shape.clone(),
                ))
            });
            println!(
                "{dtype} conv {name:<8} {:>9.3} ms {:>7.2} TFLOP/s",
                t * 1e3,
                flops / t / 1e12
            );
        }
        // The two backward ops of training: the weight gradient and the
        // input gradient (a transposed convolution of the output gradient).
        let grad = random(&[batch, channels, 1, size, size], dtype, &device);
        let t_options = ConvTransposeOptions::new([1, 1, 1], [0, 1, 1], [0, 0, 0], [1, 1, 1], 1);
        for (name, algorithm) in [
            ("direct", ConvAlgorithm::Direct),
            ("gemm", ConvAlgorithm::Gemm { batches: batch }),
        ] {
            let tw = time(&device, || {
                drop(conv3d_weight_backward_with(
                    algorithm,
                    x.clone(),
                    grad.clone(),
                    w.shape(),
                    options,
                ))
            });
            let tx = time(&device, || {
                drop(conv_transpose3d_with(
                    algorithm,
                    grad.clone(),
                    w.clone(),
                    None,
                    t_options,
                    out_shape.clone(),
                ))
            });
            println!(
                "{dtype} weight grad {name:<8} {:>9.3} ms {:>7.2} TFLOP/s   input grad {:>9.3} ms {:>7.2} TFLOP/s",
                tw * 1e3,
                flops / tw / 1e12,
                tx * 1e3,
                flops / tx / 1e12
            );
        }
        // The product alone: weight [O, C·taps] · cols [C·taps, B·L], and its
        // transpose colsᵀ · weightᵀ, both operands column-major views.
        let k = channels * taps;
        let w2 = random(&[channels, k], dtype, &device);
        let cols = random(&[k, positions], dtype, &device);
        let transposed = |t: &CubeTensor| CubeBackend::float_permute(t.clone(), &[1, 0]);
        for (i, strategy) in strategies().into_iter().enumerate() {
            let out_a = w2.empty_like(Shape::new([channels, positions]), dtype);
            let out_b = w2.empty_like(Shape::new([positions, channels]), dtype);
            if matmul_with(&strategy, &w2, &cols, &out_a).is_err() {
                continue;
            }
            let ta = time(&device, || {
                matmul_with(&strategy, &w2, &cols, &out_a).unwrap();
            });
            let (ct, wt) = (transposed(&cols), transposed(&w2));
            let tb = if matmul_with(&strategy, &ct, &wt, &out_b).is_ok() {
                time(&device, || {
                    matmul_with(&strategy, &ct, &wt, &out_b).unwrap();
                })
            } else {
                f64::NAN
            };
            println!(
                "{dtype} matmul routine {i} of strategies(): W·cols {:>8.3} ms  colsᵀ·Wᵀ {:>8.3} ms",
                ta * 1e3,
                tb * 1e3
            );
        }
    }
}
