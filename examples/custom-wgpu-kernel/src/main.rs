//! Runs the WGSL softmax beside the built-in one on WGPU: a small example,
//! the check, and the time of each on 4M-element tensors of three shapes
//! (medians).

use std::time::Instant;

use burn::tensor::{Device, Distribution, Tensor, activation};
use custom_wgpu_kernel::{check, softmax_last_dim, workgroup_for};

/// The median of 10 timed runs, after one untimed (shader compilation).
fn median_ms(mut run: impl FnMut()) -> f64 {
    run();
    let mut times: Vec<f64> = (0..10)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[4] + times[5]) / 2.0
}

fn main() {
    let device = Device::wgpu(Default::default());
    let x = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [0.0, 0.0, 10.0]], &device);
    println!(
        "x                  {:?}",
        x.to_data().to_vec::<f32>().unwrap()
    );
    println!(
        "softmax (WGSL)     {:?}",
        softmax_last_dim(x.clone())
            .try_into_vec_as::<f32>()
            .unwrap()
    );
    println!(
        "softmax (built-in) {:?}",
        activation::softmax(x, 1).try_into_vec_as::<f32>().unwrap()
    );

    match check(&device) {
        Ok(c) => println!(
            "check: {} shapes, largest difference from the built-in {:.1e}",
            c.shapes.len(),
            c.max_diff
        ),
        Err(err) => {
            eprintln!("check failed: {err}");
            std::process::exit(1);
        }
    }

    // Each run ends with a sum read back: the device runs the queued work
    // before the read returns.
    println!("4M f32, median of 10 (ms):  workgroup   WGSL  built-in");
    for [rows, cols] in [[4096, 1024], [65_536, 64], [256, 16_384]] {
        let x = Tensor::<2>::random([rows, cols], Distribution::Uniform(-5.0, 5.0), &device);
        let ours = median_ms(|| {
            let _: f32 = softmax_last_dim(x.clone()).sum().into_scalar();
        });
        let builtin = median_ms(|| {
            let _: f32 = activation::softmax(x.clone(), 1).sum().into_scalar();
        });
        println!(
            "  [{rows:>6}, {cols:>6}]       {:>5}  {ours:>6.2}  {builtin:>8.2}  ({:.2}x)",
            workgroup_for(cols),
            builtin / ours
        );
    }
}
