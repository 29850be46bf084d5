//! Activation functions on float tensors (`burn::tensor::activation`).
//!
//! Those the backend contract names (`relu`, `gelu`, `sigmoid`, `silu`,
//! `softmax`, `log_softmax`, `leaky_relu`, `hard_sigmoid`, `log_sigmoid`)
//! call the backend's `ActivationOps` method, so a backend's fused kernel is
//! used when it has one; the others are composed once, in the bridge.
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::{activation, Device, Tensor};
//!
//! let device = Device::flex();
//! let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0]], &device);
//! let p = activation::softmax(x, 1).into_data().to_vec::<f32>().unwrap();
//! assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
//! assert!(p[0] < p[1] && p[1] < p[2]);
//! # }
//! ```

use burn_backend::check;

use crate::Tensor;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::float as bridge;

/// `max(x, 0)`.
pub fn relu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::relu(tensor.primitive))
}

/// `x` for positive `x`, `negative_slope * x` otherwise.
pub fn leaky_relu<const D: usize>(tensor: Tensor<D>, negative_slope: f64) -> Tensor<D> {
    Tensor::from_bridge(bridge::leaky_relu(tensor.primitive, negative_slope))
}

/// Gaussian error linear unit, `x * Φ(x)` with the exact (erf) Gaussian CDF.
pub fn gelu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::gelu(tensor.primitive))
}

/// `1 / (1 + e^-x)`, stable for large `|x|`.
pub fn sigmoid<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::sigmoid(tensor.primitive))
}

/// `clamp(alpha * x + beta, 0, 1)` (PyTorch's `hardsigmoid` is `alpha = 1/6, beta = 0.5`).
pub fn hard_sigmoid<const D: usize>(tensor: Tensor<D>, alpha: f64, beta: f64) -> Tensor<D> {
    Tensor::from_bridge(bridge::hard_sigmoid(tensor.primitive, alpha, beta))
}

/// `log(sigmoid(x))`, stable for large `|x|`.
pub fn log_sigmoid<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::log_sigmoid(tensor.primitive))
}

/// `x * sigmoid(x)` (also called swish).
pub fn silu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::silu(tensor.primitive))
}

/// Hyperbolic tangent.
pub fn tanh<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.tanh()
}

/// `log(1 + e^(beta * x)) / beta`, as PyTorch's `softplus`: where
/// `beta * x > 20` it returns `x` itself, and it never overflows.
pub fn softplus<const D: usize>(tensor: Tensor<D>, beta: f64) -> Tensor<D> {
    Tensor::from_bridge(bridge::softplus(tensor.primitive, beta))
}

/// `x * tanh(softplus(x))`.
pub fn mish<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_bridge(bridge::mish(tensor.primitive))
}

/// `exp(x) / sum(exp(x))` along `dim`, computed with the max subtracted so it
/// never overflows.
///
/// # Panics
/// If `dim >= D`.
#[track_caller]
pub fn softmax<const D: usize>(tensor: Tensor<D>, dim: usize) -> Tensor<D> {
    Tensor::from_bridge(dim_impl("softmax", tensor.primitive, dim, bridge::softmax))
}

/// `log(softmax(x))` along `dim`, computed as `x - max - log(sum(exp(x - max)))`.
///
/// # Panics
/// If `dim >= D`.
#[track_caller]
pub fn log_softmax<const D: usize>(tensor: Tensor<D>, dim: usize) -> Tensor<D> {
    Tensor::from_bridge(dim_impl(
        "log_softmax",
        tensor.primitive,
        dim,
        bridge::log_softmax,
    ))
}

/// `softmax(-x)` along `dim`.
///
/// # Panics
/// If `dim >= D`.
#[track_caller]
pub fn softmin<const D: usize>(tensor: Tensor<D>, dim: usize) -> Tensor<D> {
    Tensor::from_bridge(dim_impl("softmin", tensor.primitive, dim, bridge::softmin))
}

/// Parametric ReLU: `x` where `x >= 0`, `alpha * x` elsewhere. `alpha` holds
/// one value for every element, or one per channel (dim 1).
///
/// # Panics
/// If `alpha` has more than one value and `D < 2` or its size differs from dim 1.
#[track_caller]
pub fn prelu<const D: usize>(tensor: Tensor<D>, alpha: Tensor<1>) -> Tensor<D> {
    Tensor::from_bridge(prelu_impl(tensor.primitive, alpha.primitive))
}

#[track_caller]
fn dim_impl(
    name: &str,
    t: BridgeTensor,
    dim: usize,
    op: fn(BridgeTensor, usize) -> BridgeTensor,
) -> BridgeTensor {
    check::dim(name, dim, &t.shape());
    op(t, dim)
}

#[track_caller]
fn prelu_impl(t: BridgeTensor, alpha: BridgeTensor) -> BridgeTensor {
    let (shape, ashape) = (t.shape(), alpha.shape());
    let n = ashape.dims[0];
    if n != 1 && (shape.num_dims() < 2 || shape.dims[1] != n) {
        panic!(
            "prelu: alpha {ashape} must hold 1 value or one per channel (dim 1) of the input {shape}"
        );
    }
    bridge::prelu(t, alpha)
}
