//! Times the register-cached softmax over the last dim of a 16384×16384
//! f32 tensor at several (units per cube, vectors per unit) splits of a
//! row, beside `x * 1` (one read and one write, the copy's traffic), eight
//! ops per sync as the benchmark's `_queued` rows.
//!
//! `cargo run --release -p burn-cubecl --features cuda --example softmax_blocks [ROWS COLS]`

use std::time::Instant;

use burn_backend::{Backend, FloatTensorOps};
use burn_cubecl::ops::softmax::{softmax, softmax_cached_with};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Distribution, Shape};

/// Median seconds per op of eight queued ops, over twenty syncs.
fn per_op(device: &CubeDevice, op: &dyn Fn() -> CubeTensor) -> f64 {
    let mut times = Vec::new();
    for i in 0..22 {
        let start = Instant::now();
        for _ in 0..8 {
            drop(op());
        }
        CubeBackend::sync(device).expect("sync");
        if i >= 2 {
            times.push(start.elapsed().as_secs_f64() / 8.0);
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let device = CubeDevice::default();
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (rows, cols) = match args[..] {
        [r, c] => (r, c),
        _ => (16384, 16384),
    };
    let x = CubeBackend::float_random(
        Shape::new([rows, cols]),
        Distribution::Default,
        &device,
        DType::F32,
    );
    let bytes = 2.0 * (rows * cols * 4) as f64;
    let reference = CubeBackend::float_into_data(softmax(x.clone(), 1, false))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let report = |name: &str, t: f64| {
        println!(
            "{name:<28} {:>8.1} µs/op {:>6.2} TB/s",
            t * 1e6,
            bytes / t / 1e12
        )
    };
    report(
        "x * 1",
        per_op(&device, &|| {
            CubeBackend::float_mul_scalar(x.clone(), 1.0.into())
        }),
    );
    report(
        "softmax (shipped)",
        per_op(&device, &|| softmax(x.clone(), 1, false)),
    );
    let vecs = cols / 4;
    for cache in [2, 4, 8, 16, 32] {
        let block = vecs.div_ceil(cache);
        if !block.is_power_of_two() || !(32..=1024).contains(&block) {
            continue;
        }
        let out = CubeBackend::float_into_data(softmax_cached_with(x.clone(), block, cache))
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let diff = out
            .iter()
            .zip(&reference)
            .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        let t = per_op(&device, &|| softmax_cached_with(x.clone(), block, cache));
        report(&format!("cached {block} × {cache} (diff {diff:.1e})"), t);
    }
}
