//! Times memory-bound chains on Flex, unfused and fused, in one process:
//! `cargo run --release -p burn-fusion --example fused_chain [n] [rounds]`.
//! Each iteration ends with the result in host memory.

use std::time::Instant;

use burn_backend::{Backend, FloatTensor, Scalar, TensorData};
use burn_flex::{Flex, FlexDevice};
use burn_fusion::Fusion;
use burn_std::DType;

fn chain<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    let y = B::float_add_scalar(
        B::float_mul_scalar(x, Scalar::Float(2.0)),
        Scalar::Float(1.0),
    );
    B::float_tanh(B::float_exp(y))
}

fn gelu<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    B::gelu(x)
}

fn one_pass<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    B::float_mul_scalar(x, Scalar::Float(2.0))
}

fn median_ms<B: Backend<Device = FlexDevice>>(
    n: usize,
    rounds: usize,
    op: fn(FloatTensor<B>) -> FloatTensor<B>,
) -> f64 {
    let values: Vec<f32> = (0..n * n).map(|i| (i % 997) as f32 / 997.0 - 0.5).collect();
    let x = B::float_from_data(
        TensorData::new(values, [n, n]).convert_dtype(DType::F32),
        &FlexDevice,
    );
    let mut times = Vec::new();
    for _ in 0..rounds {
        let start = Instant::now();
        let _ = B::float_into_data(op(x.clone())).unwrap();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    times[times.len() / 2]
}

/// A workload's name, run unfused and fused.
type Workload = (
    &'static str,
    fn(FloatTensor<Flex>) -> FloatTensor<Flex>,
    fn(FloatTensor<Fusion<Flex>>) -> FloatTensor<Fusion<Flex>>,
);

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let filter = all.iter().find(|a| a.parse::<usize>().is_err()).cloned();
    let args: Vec<usize> = all.iter().filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(4096);
    let rounds = args.get(1).copied().unwrap_or(15);
    let workloads: [Workload; 3] = [
        (
            "one pass (x * 2)",
            one_pass::<Flex>,
            one_pass::<Fusion<Flex>>,
        ),
        (
            "chain (x*2+1).exp().tanh()",
            chain::<Flex>,
            chain::<Fusion<Flex>>,
        ),
        ("gelu", gelu::<Flex>, gelu::<Fusion<Flex>>),
    ];
    println!("{n}x{n} f32, median of {rounds}");
    for (name, direct, fused) in workloads {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        // `BURN_BENCH_ONLY=flex|fused` times one side (for profilers).
        let only = std::env::var("BURN_BENCH_ONLY").unwrap_or_default();
        let d = if only == "fused" {
            f64::NAN
        } else {
            median_ms::<Flex>(n, rounds, direct)
        };
        let f = if only == "flex" {
            f64::NAN
        } else {
            median_ms::<Fusion<Flex>>(n, rounds, fused)
        };
        println!(
            "{name:32} flex {d:9.4} ms   fused {f:9.4} ms   ratio {:.2}",
            f / d
        );
    }
}
