//! `cargo run --release -p burn-signal --example fft_bench`: `rfft` of
//! 2^20 and of 1,000,003 (a prime: Bluestein) f32 points on Flex, median of
//! 11 runs after a warm-up, each including the device round trip (the
//! transform runs on the host). `benches/fft_bench.py` times NumPy's and
//! PyTorch's `rfft` on the same lengths; run both in the same minutes.

use std::time::Instant;

use burn_signal::rfft;
use burn_tensor::{DType, Device, Tensor, TensorData};

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..11)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let device = Device::flex();
    for n in [1usize << 20, 1_000_003] {
        let samples: Vec<f32> = (0..n).map(|i| ((i as f32) * 0.013).sin()).collect();
        let x = Tensor::<1>::from_data(TensorData::new(samples, [n]), (&device, DType::F32));
        let ms = median_ms(|| {
            let (re, im) = rfft(x.clone(), 0, None);
            // Reading the results back finishes the op on every backend.
            let _ = (re.into_data(), im.into_data());
        });
        println!("burn-signal rfft f32 n = {n}: {ms:.2} ms");
    }
}
