//! Runs the Mish extension beside the tensor API's composed `mish`: values,
//! gradients, and the time of each on a 4M-element tensor (medians).

use std::time::Instant;

use burn::tensor::{Device, Distribution, Tensor, activation};
use custom_flex_kernel::mish;

fn median_ms(mut run: impl FnMut()) -> f64 {
    run();
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let device = Device::flex();
    let x = Tensor::<1>::from_floats([-2.0, -0.5, 0.0, 1.0, 3.0], &device);
    println!("x              {:?}", x.to_data().to_vec::<f32>().unwrap());
    println!(
        "mish (kernel)  {:?}",
        mish(x.clone()).into_data().to_vec::<f32>().unwrap()
    );
    println!(
        "mish (tensor)  {:?}",
        activation::mish(x.clone())
            .into_data()
            .to_vec::<f32>()
            .unwrap()
    );

    let autodiff = Device::flex().autodiff();
    let leaf = Tensor::<1>::from_data(x.into_data(), &autodiff).require_grad();
    let grads = mish(leaf.clone()).sum().backward();
    println!(
        "d mish / dx    {:?} (the handwritten backward pass)",
        leaf.grad(&grads)
            .unwrap()
            .into_data()
            .to_vec::<f32>()
            .unwrap()
    );

    let big = Tensor::<1>::random([1 << 22], Distribution::Uniform(-4.0, 4.0), &device);
    let kernel = median_ms(|| {
        let _ = mish(big.clone()).into_data();
    });
    let composed = median_ms(|| {
        let _ = activation::mish(big.clone()).into_data();
    });
    println!(
        "4M f32, median of 9: kernel {kernel:.2} ms, composed {composed:.2} ms ({:.2}x)",
        composed / kernel
    );
}
