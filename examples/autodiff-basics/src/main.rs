//! Gradients of a small expression on the Flex CPU backend.

use burn::tensor::{Checkpointing, Device, Distribution, Tensor};

// ANCHOR: gradient
/// `exp((x + y) · x)`, differentiated with respect to `y`.
fn y_gradient(device: &Device) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
    let x = Tensor::<2>::random([32, 32], Distribution::Default, device);
    let y = Tensor::<2>::random([32, 32], Distribution::Default, device).require_grad();

    let tmp = x.clone() + y.clone();
    let tmp = tmp.matmul(x.clone());
    let tmp = tmp.exp();

    let grads = tmp.backward();
    let y_grad = y.grad(&grads).expect("y requires a gradient");
    (x, y, y_grad)
}
// ANCHOR_END: gradient

fn main() {
    let device = Device::flex().autodiff();
    device.seed(7);
    let (x, y, y_grad) = y_gradient(&device);
    println!("{y_grad}");

    // The chain rule by hand: with T = exp((x + y) x), dL/dy = T · xᵀ for L = sum(T).
    let t = ((x.clone() + y.clone()).matmul(x.clone()))
        .exp()
        .without_autodiff();
    let expected = t.matmul(x.clone().without_autodiff().transpose());
    y_grad.to_data().assert_approx_eq::<f32>(
        &expected.into_data(),
        burn::tensor::Tolerance::relative(1e-4),
    );
    println!("dL/dy matches exp((x + y) x) · xᵀ");

    // Balanced checkpointing recomputes the cheap ops during backward: same gradient.
    let balanced = Device::flex().autodiff_with_checkpointing(Checkpointing::Balanced);
    balanced.seed(7);
    let (_, _, again) = y_gradient(&balanced);
    again
        .into_data()
        .assert_approx_eq::<f32>(&y_grad.into_data(), burn::tensor::Tolerance::relative(1e-6));
    println!("balanced checkpointing: same gradient");
    println!("ok");
}
