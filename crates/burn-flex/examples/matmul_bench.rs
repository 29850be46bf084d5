//! Matmul throughput: `cargo run -p burn-flex --release --example matmul_bench`.
//!
//! Prints GFLOP/s (median of 7 runs after a warm-up) for square f32 GEMMs,
//! a batch of small matrices and half precision, on all of Flex's threads
//! (`BURN_FLEX_THREADS` picks the count); an argument filters by name.

use std::time::Instant;

use burn_backend::{FloatTensorOps, TensorData};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::DType;

fn input(shape: &[usize], dtype: DType, seed: u64) -> FlexTensor {
    let n: usize = shape.iter().product();
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let values: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect();
    let data = TensorData::new(values, shape.to_vec()).convert_dtype(dtype);
    Flex::float_from_data(data, &FlexDevice)
}

fn bench(filter: &str, name: &str, batch: usize, m: usize, k: usize, n: usize, dtype: DType) {
    if !name.contains(filter) {
        return;
    }
    let (a_shape, b_shape) = if batch == 1 {
        (vec![m, k], vec![k, n])
    } else {
        (vec![batch, m, k], vec![batch, k, n])
    };
    let (a, b) = (input(&a_shape, dtype, 1), input(&b_shape, dtype, 2));
    let flops = 2.0 * (batch * m * n * k) as f64;
    let reps = if flops < 1e9 { 20 } else { 1 };
    let mut times = Vec::new();
    for run in 0..8 {
        let start = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(Flex::float_matmul(a.clone(), b.clone()));
        }
        if run > 0 {
            times.push(start.elapsed().as_secs_f64() / reps as f64);
        }
    }
    times.sort_by(f64::total_cmp);
    let t = times[times.len() / 2];
    println!(
        "{name:<28} {:>8.3} ms  {:>7.1} GFLOP/s",
        t * 1e3,
        flops / t / 1e9
    );
}

fn main() {
    // An optional argument runs only the benchmarks whose name contains it.
    let filter = std::env::args().nth(1).unwrap_or_default();
    println!("threads: {}", burn_flex::threads::threads());
    bench(&filter, "f32 256^3", 1, 256, 256, 256, DType::F32);
    bench(&filter, "f32 1024^3", 1, 1024, 1024, 1024, DType::F32);
    bench(&filter, "f32 2048^3", 1, 2048, 2048, 2048, DType::F32);
    bench(
        &filter,
        "f32 64x(128^3) batched",
        64,
        128,
        128,
        128,
        DType::F32,
    );
    bench(&filter, "f16 1024^3", 1, 1024, 1024, 1024, DType::F16);
    bench(&filter, "f64 1024^3", 1, 1024, 1024, 1024, DType::F64);
    bench(&filter, "bf16 1024^3", 1, 1024, 1024, 1024, DType::BF16);
}
