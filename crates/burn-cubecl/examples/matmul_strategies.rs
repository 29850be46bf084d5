//! Times each of cubek's matmul routines on the default CubeCL device, so the
//! order of `ops::matmul::strategies()` is chosen from measurements.
//!
//! `cargo run --release -p burn-cubecl --features cuda --example matmul_strategies [N...]`
//!
//! For every dtype (f32, f16, bf16) and size it prints the median time and
//! TFLOP/s of each routine that accepts the problem, and the largest
//! relative difference from the reference kernel on a 256³ product (so a
//! fast but wrong routine shows).

use std::time::Instant;

use burn_backend::{Backend, FloatTensorOps, TensorMetadata};
use burn_cubecl::ops::matmul::matmul_with;
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Distribution, Shape};
use cubek::matmul::launch::Strategy;

fn routines() -> Vec<(&'static str, Strategy)> {
    vec![
        (
            "simple_cyclic_cmma",
            Strategy::SimpleCyclicCmma(Default::default()),
        ),
        (
            "simple_cyclic_mma",
            Strategy::SimpleCyclicMma(Default::default()),
        ),
        (
            "double_cyclic_cmma",
            Strategy::DoubleCyclicCmma(Default::default()),
        ),
        (
            "double_cyclic_mma",
            Strategy::DoubleCyclicMma(Default::default()),
        ),
        (
            "double_tilewise_mma",
            Strategy::DoubleTilewiseMma(Default::default()),
        ),
        (
            "double_hybrid_mma",
            Strategy::DoubleHybridMma(Default::default()),
        ),
        (
            "double_async_cyclic_mma",
            Strategy::DoubleAsyncCyclicMma(Default::default()),
        ),
        ("double_tma_mma", Strategy::DoubleTmaMma(Default::default())),
        (
            "double_tma_cmma",
            Strategy::DoubleTmaCmma(Default::default()),
        ),
        ("simple_tma_mma", Strategy::SimpleTmaMma(Default::default())),
        (
            "specialized_cyclic_mma",
            Strategy::SpecializedCyclicMma(Default::default()),
        ),
        (
            "specialized_tma_mma",
            Strategy::SpecializedTmaMma(Default::default()),
        ),
        (
            "specialized_tma_cmma",
            Strategy::SpecializedTmaCmma(Default::default()),
        ),
        (
            "ordered_double_mma",
            Strategy::OrderedDoubleMma(Default::default()),
        ),
        (
            "ordered_double_cmma",
            Strategy::OrderedDoubleCmma(Default::default()),
        ),
        ("double_unit", Strategy::DoubleUnit(Default::default())),
        ("simple_unit", Strategy::SimpleUnit(Default::default())),
    ]
}

fn random(n: usize, dtype: DType, device: &CubeDevice) -> CubeTensor {
    let t = CubeBackend::float_random(
        Shape::new([n, n]),
        Distribution::Default,
        device,
        DType::F32,
    );
    CubeBackend::float_cast(t, dtype)
}

fn to_f32(t: CubeTensor) -> Vec<f32> {
    let t = CubeBackend::float_cast(t, DType::F32);
    CubeBackend::float_into_data(t)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
}

fn max_rel_diff(a: &[f32], b: &[f32]) -> f32 {
    let scale = b.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-30);
    a.iter()
        .zip(b)
        .fold(0f32, |m, (x, y)| m.max((x - y).abs() / scale))
}

fn main() {
    let device = CubeDevice::default();
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![4096, 8192]
    } else {
        sizes
    };
    println!("device {:?}: {}", device, CubeBackend::name(&device));
    for dtype in [DType::F32, DType::F16, DType::BF16] {
        if !CubeBackend::supports_dtype(&device, dtype) {
            println!("{dtype}: not supported on this device");
            continue;
        }
        // Accuracy on 256³ against the strided reference kernel (ints path
        // is not used for floats, so compute the reference in f32 on the
        // unit routine with f32 operands).
        let (a, b) = (random(256, dtype, &device), random(256, dtype, &device));
        let a32 = CubeBackend::float_cast(a.clone(), DType::F32);
        let b32 = CubeBackend::float_cast(b.clone(), DType::F32);
        let reference_out = a32.empty_like(Shape::new([256, 256]), DType::F32);
        matmul_with(
            &Strategy::SimpleUnit(Default::default()),
            &a32,
            &b32,
            &reference_out,
        )
        .expect("the unit routine runs everywhere");
        let reference = to_f32(reference_out);
        for &n in &sizes {
            let (lhs, rhs) = (random(n, dtype, &device), random(n, dtype, &device));
            let flops = 2.0 * (n as f64).powi(3);
            for (name, strategy) in routines() {
                let small = a.empty_like(Shape::new([256, 256]), dtype);
                if let Err(err) = matmul_with(&strategy, &a, &b, &small) {
                    let first = err
                        .lines()
                        .next()
                        .unwrap_or("")
                        .chars()
                        .take(90)
                        .collect::<String>();
                    println!("{dtype} {n:>5} {name:<26} unavailable: {first}");
                    continue;
                }
                if CubeBackend::sync(&device).is_err() {
                    println!("{dtype} {n:>5} {name:<26} failed at launch");
                    continue;
                }
                let diff = max_rel_diff(&to_f32(small), &reference);
                let out = lhs.empty_like(Shape::new([n, n]), dtype);
                let mut times = Vec::new();
                let mut failed = false;
                for i in 0..8 {
                    let start = Instant::now();
                    if matmul_with(&strategy, &lhs, &rhs, &out).is_err()
                        || CubeBackend::sync(&device).is_err()
                    {
                        failed = true;
                        break;
                    }
                    if i >= 2 {
                        times.push(start.elapsed().as_secs_f64());
                    }
                }
                if failed {
                    println!("{dtype} {n:>5} {name:<26} failed");
                    continue;
                }
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                println!(
                    "{dtype} {n:>5} {name:<26} {:>9.3} ms {:>8.1} TFLOP/s  max rel diff {diff:.1e}",
                    median * 1e3,
                    flops / median / 1e12
                );
                let _ = out.shape();
            }
        }
    }
}
