//! Flex's f32 matmul against `gemm::gemm` on the same square inputs, the
//! two alternated round by round in one process (so both see the same
//! machine minutes), medians of the timed rounds, and the largest
//! difference between their outputs.
//!
//! Arguments: the thread count (for `gemm`'s rayon pool; Flex uses its own
//! pool, one thread a core), then the sizes `n` of the `n³` products.

use std::time::Instant;

use burn_backend::{FloatTensorOps, TensorData};
use burn_flex::{Flex, FlexDevice};

/// Uniform values in [-0.5, 0.5) from a xorshift stream.
fn values(len: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect()
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn compare(n: usize, threads: usize, pool: &rayon::ThreadPool) {
    let (a, b) = (values(n * n, 1), values(n * n, 2));
    let flex_a = Flex::float_from_data(TensorData::new(a.clone(), vec![n, n]), &FlexDevice);
    let flex_b = Flex::float_from_data(TensorData::new(b.clone(), vec![n, n]), &FlexDevice);
    let mut c = vec![0f32; n * n];
    let parallelism = if threads > 1 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    let run_gemm = |c: &mut [f32]| {
        let n_ = n as isize;
        // SAFETY: `a`, `b` and `c` are row-major n×n buffers (column stride
        // 1, row stride n), `c` does not alias the inputs, and `read_dst`
        // is false, so `c`'s previous values are not read.
        pool.install(|| unsafe {
            gemm::gemm(
                n,
                n,
                n,
                c.as_mut_ptr(),
                1,
                n_,
                false,
                a.as_ptr(),
                1,
                n_,
                b.as_ptr(),
                1,
                n_,
                0.0f32,
                1.0f32,
                false,
                false,
                false,
                parallelism,
            )
        })
    };

    let flops = 2.0 * (n as f64).powi(3);
    // About two GFLOP a round, at least one product.
    let reps = ((2e9 / flops) as usize).max(1);
    let rounds = if n >= 4096 { 4 } else { 11 };
    let (mut flex_times, mut gemm_times) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let start = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(Flex::float_matmul(flex_a.clone(), flex_b.clone()));
        }
        let flex = start.elapsed().as_secs_f64() / reps as f64;
        let start = Instant::now();
        for _ in 0..reps {
            run_gemm(&mut c);
            std::hint::black_box(&c);
        }
        let gemm = start.elapsed().as_secs_f64() / reps as f64;
        // The first round warms both up.
        if round > 0 {
            flex_times.push(flex);
            gemm_times.push(gemm);
        }
    }

    let flex_out = Flex::float_into_data(Flex::float_matmul(flex_a, flex_b))
        .expect("flex output")
        .to_vec::<f32>()
        .expect("f32 output");
    let max_diff = flex_out
        .iter()
        .zip(&c)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max);
    let (flex, gemm) = (median(&mut flex_times), median(&mut gemm_times));
    println!(
        "{:>5}³  {:>10.3} ms {:>6.1} GFLOP/s  {:>10.3} ms {:>6.1} GFLOP/s  {:>6.2}  {:.1e}",
        n,
        flex * 1e3,
        flops / flex / 1e9,
        gemm * 1e3,
        flops / gemm / 1e9,
        flex / gemm,
        max_diff
    );
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| {
        a.parse::<usize>()
            .unwrap_or_else(|_| panic!("expected a number, got {a:?}"))
    });
    let threads = args.next().unwrap_or(2);
    let sizes: Vec<usize> = args.collect();
    let sizes = if sizes.is_empty() {
        vec![256, 1024, 2048]
    } else {
        sizes
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon pool");
    println!("{threads} threads; medians; ratio = Flex / gemm; max |Flex - gemm|");
    println!("     n           Flex                        gemm 0.19 (x86-v4)        ratio  diff");
    for n in sizes {
        compare(n, threads, &pool);
    }
}
