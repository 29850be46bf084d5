//! Runs the Swish extension beside the same function composed of the tensor
//! API's primitives, on WGPU: values, gradients, the check, and the time of
//! each on a 4M-element tensor, forward and forward + backward (medians).

use std::time::Instant;

use burn::tensor::{Device, Distribution, Tensor};
use custom_cubecl_kernel::{check, swish, swish_composed};

/// The median of 10 timed runs, after one untimed (kernel compilation).
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

fn to_vec<const D: usize>(x: Tensor<D>) -> Vec<f32> {
    x.try_into_vec_as::<f32>().expect("read back")
}

fn main() {
    let device = Device::wgpu(Default::default());
    let beta = 1.0;
    let x = Tensor::<1>::from_floats([-4.0, -1.0, 0.0, 0.5, 2.0], &device);
    println!("x                 {:?}", to_vec(x.clone()));
    println!("swish (kernel)    {:?}", to_vec(swish(x.clone(), beta)));
    println!(
        "swish (composed)  {:?}",
        to_vec(swish_composed(x.clone(), beta))
    );

    let autodiff = device.clone().autodiff();
    let leaf = Tensor::<1>::from_data(x.into_data(), &autodiff).require_grad();
    let grads = swish(leaf.clone(), beta).sum().backward();
    let ours = to_vec(leaf.grad(&grads).unwrap());
    let grads = swish_composed(leaf.clone(), beta).sum().backward();
    let composed = to_vec(leaf.grad(&grads).unwrap());
    println!("d swish / dx      {ours:?} (the derivative kernel)");
    println!("d swish / dx      {composed:?} (composed, autodiff)");

    match check(&device) {
        Ok(c) => println!(
            "check: largest difference from the composition {:.1e} (forward), {:.1e} (gradient)",
            c.forward, c.gradient
        ),
        Err(err) => {
            eprintln!("check failed: {err}");
            std::process::exit(1);
        }
    }

    // Each run ends with a sum read back: the device runs the queued work
    // before the read returns.
    let n = 1 << 22;
    let big = Tensor::<1>::random([n], Distribution::Uniform(-4.0, 4.0), &device);
    let forward = |f: fn(Tensor<1>, f32) -> Tensor<1>| {
        median_ms(|| {
            let _: f32 = f(big.clone(), beta).sum().into_scalar();
        })
    };
    let values = big.to_data();
    let backward = |f: fn(Tensor<1>, f32) -> Tensor<1>| {
        median_ms(|| {
            let x = Tensor::<1>::from_data(values.clone(), &autodiff).require_grad();
            let grads = f(x.clone(), beta).sum().backward();
            let _: f32 = x.grad(&grads).unwrap().sum().into_scalar();
        })
    };
    let (kernel_fw, composed_fw) = (forward(swish), forward(swish_composed));
    let (kernel_bw, composed_bw) = (backward(swish), backward(swish_composed));
    println!("4M f32, median of 10 (ms):   kernel   composed");
    println!(
        "  forward                   {kernel_fw:>7.2}  {composed_fw:>8.2}  ({:.2}x)",
        composed_fw / kernel_fw
    );
    println!(
        "  forward + backward        {kernel_bw:>7.2}  {composed_bw:>8.2}  ({:.2}x)",
        composed_bw / kernel_bw
    );
}
