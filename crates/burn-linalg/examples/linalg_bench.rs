//! Times solve, QR and Cholesky on Flex in f64: one 512 × 512 matrix and a
//! batch of 64 matrices of 64 × 64; medians of 11 runs, including the
//! tensor → host → tensor round trip. Compare with
//! `benches/linalg_bench.py` (NumPy/OpenBLAS on the same sizes and threads).
//!
//! Run: cargo run --release -p burn-linalg --features flex --example linalg_bench

use burn_tensor::{DType, Device, Tensor, TensorData};
use std::time::Instant;

fn random(len: usize, seed: &mut u64) -> Vec<f64> {
    (0..len)
        .map(|_| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        })
        .collect()
}

/// `X·Xᵀ + n·I` per matrix: symmetric positive definite.
fn spd(x: &[f64], batch: usize, n: usize) -> Vec<f64> {
    let mut out = vec![0.0; batch * n * n];
    for b in 0..batch {
        let m = &x[b * n * n..(b + 1) * n * n];
        for i in 0..n {
            for j in 0..n {
                let s: f64 = (0..n).map(|k| m[i * n + k] * m[j * n + k]).sum();
                out[b * n * n + i * n + j] = s + if i == j { n as f64 } else { 0.0 };
            }
        }
    }
    out
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    f(); // warm-up
    let mut t: Vec<f64> = (0..11)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let device = Device::flex();
    let mut seed = 42;
    for (batch, n) in [(1usize, 512usize), (64, 64)] {
        let a = random(batch * n * n, &mut seed);
        let b = random(batch * n, &mut seed);
        let s = spd(&a, batch, n);
        let at: Tensor<3> =
            Tensor::from_data(TensorData::new(a, [batch, n, n]), (&device, DType::F64));
        let bt: Tensor<2> =
            Tensor::from_data(TensorData::new(b, [batch, n]), (&device, DType::F64));
        let st: Tensor<3> =
            Tensor::from_data(TensorData::new(s, [batch, n, n]), (&device, DType::F64));
        let solve = median_ms(|| {
            let x: Tensor<2> = burn_linalg::solve(at.clone(), bt.clone());
            let _ = x.into_data();
        });
        let qr = median_ms(|| {
            let (q, r) = burn_linalg::qr(at.clone(), true);
            let _ = (q.into_data(), r.into_data());
        });
        let chol = median_ms(|| {
            let _ = burn_linalg::cholesky(st.clone(), false).into_data();
        });
        println!(
            "{batch} x {n}x{n} f64: solve {solve:.3} ms, qr {qr:.3} ms, cholesky {chol:.3} ms"
        );
    }
}
