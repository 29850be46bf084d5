// TEMPORARY tuning harness (to delete): single-thread CPU time of the main thread.
use burn_backend::{FloatTensorOps, TensorData};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::DType;
use std::time::Instant;

fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}
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
    Flex::float_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &FlexDevice,
    )
}
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (batch, m, k, n) = (args[0], args[1], args[2], args[3]);
    let dtype = match std::env::args().nth(5).as_deref() {
        Some("f64") => DType::F64,
        Some("f16") => DType::F16,
        _ => DType::F32,
    };
    let (a, b) = if batch == 1 {
        (input(&[m, k], dtype, 1), input(&[k, n], dtype, 2))
    } else {
        (
            input(&[batch, m, k], dtype, 1),
            input(&[batch, k, n], dtype, 2),
        )
    };
    let flops = 2.0 * (batch * m * n * k) as f64;
    let reps = ((2e9 / flops) as usize).clamp(1, 1000);
    let mut cpu = Vec::new();
    let mut wall = Vec::new();
    for _ in 0..9 {
        let (c0, w0) = (cpu_ns(), Instant::now());
        for _ in 0..reps {
            std::hint::black_box(Flex::float_matmul(a.clone(), b.clone()));
        }
        cpu.push((cpu_ns() - c0) as f64 * 1e-9 / reps as f64);
        wall.push(w0.elapsed().as_secs_f64() / reps as f64);
    }
    cpu.sort_by(f64::total_cmp);
    wall.sort_by(f64::total_cmp);
    println!(
        "{batch}x{m}x{k}x{n} {dtype}: cpu-min {:.1} cpu-med {:.1} wall-med {:.1} GFLOP/s",
        flops / cpu[0] / 1e9,
        flops / cpu[4] / 1e9,
        flops / wall[4] / 1e9
    );
}
