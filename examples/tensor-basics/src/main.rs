//! A first run of the tensor API on the default device.
//!
//! Part 1 shows the ops; part 2 fits `y = 3x - 2` by gradient descent with
//! hand-written gradients (autodiff arrives later) and checks the fit, so the
//! example fails loudly if the backend computes something wrong.

// ANCHOR: imports
use burn::prelude::*;
use burn::tensor::activation::softmax;
// ANCHOR_END: imports

fn main() {
    // ANCHOR: device
    let device = Device::default();
    device.seed(42);
    println!("device: {device}\n");
    // ANCHOR_END: device

    // ANCHOR: ops
    // Part 1: the ops.
    let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let bias = Tensor::<1>::from_data([10.0, 20.0, 30.0], &device);
    println!("x = {x}\n");
    println!(
        "x + bias (broadcast over rows) = {}\n",
        x.clone() + bias.unsqueeze::<2>()
    );
    println!("x @ x^T = {}\n", x.clone().matmul(x.clone().transpose()));
    println!("sum over dim 1 = {}\n", x.clone().sum_dim(1));
    println!("softmax over dim 1 = {:.4}\n", softmax(x.clone(), 1));
    println!("argmax over dim 1 = {}\n", x.argmax(1));
    // ANCHOR_END: ops

    // ANCHOR: data
    // Part 2: fit y = 3x - 2 with gradient descent on the mean squared error.
    let n = 256;
    let inputs = Tensor::<2>::random([n, 1], Distribution::Uniform(-1.0, 1.0), &device);
    let noise = Tensor::<2>::random([n, 1], Distribution::Normal(0.0, 0.01), &device);
    let targets = inputs.clone() * 3.0 - 2.0 + noise;
    // ANCHOR_END: data

    // ANCHOR: training_loop
    let mut w = Tensor::<2>::zeros([1, 1], &device);
    let mut b = Tensor::<1>::zeros([1], &device);
    let lr = 0.5;
    for step in 0..200 {
        // pred: [n, 1] = inputs [n, 1] @ w [1, 1] + b [1]
        let pred = inputs.clone().matmul(w.clone()) + b.clone().unsqueeze::<2>();
        let err = pred - targets.clone();
        // d mean(err^2) / dw = 2/n inputs^T @ err ; d/db = 2/n sum(err)
        let scale = 2.0 / n as f64;
        let grad_w = inputs.clone().transpose().matmul(err.clone()) * scale;
        let grad_b = err.clone().sum() * scale;
        w = w - grad_w * lr;
        b = b - grad_b * lr;
        if step % 50 == 0 {
            let loss = (err.clone() * err).mean().into_scalar::<f32>();
            println!("step {step:3}: mse {loss:.6}");
        }
    }
    // ANCHOR_END: training_loop

    // ANCHOR: check
    let w = w.into_scalar::<f32>();
    let b = b.into_scalar::<f32>();
    println!("fitted y = {w:.4} x + {b:.4} (true: 3x - 2)");
    assert!(
        (w - 3.0).abs() < 0.01 && (b + 2.0).abs() < 0.01,
        "the fit did not converge"
    );
    println!("ok");
    // ANCHOR_END: check
}
