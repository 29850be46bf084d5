//! Fixtures shared by the integration tests, on the Flex device.

#![allow(dead_code)]

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, TensorData, Tolerance};

pub fn device() -> Device {
    Device::flex()
}

/// One matrix parameter.
#[derive(Module, Debug)]
pub struct Weights {
    pub weight: Param<Tensor<2>>,
}

impl Weights {
    pub fn new(values: [[f32; 3]; 2], device: &Device) -> Self {
        Self {
            weight: Param::from_tensor(Tensor::from_data(values, device)),
        }
    }
}

/// A small affine layer with Burn's `Linear` layout (`[d_input, d_output]`).
#[derive(Module, Debug)]
pub struct Linear {
    pub weight: Param<Tensor<2>>,
    pub bias: Param<Tensor<1>>,
}

impl Linear {
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        x.matmul(self.weight.val()) + self.bias.val().unsqueeze()
    }
}

/// The gradient of step `k` of the reference scripts:
/// `g[i] = sin(0.7·i + 1.3·k) · (1 + 0.25·k)`, in f64 rounded to f32.
pub fn reference_grad(k: usize, device: &Device) -> Tensor<2> {
    let values: Vec<f32> = (0..6)
        .map(|i| ((0.7 * i as f64 + 1.3 * k as f64).sin() * (1.0 + 0.25 * k as f64)) as f32)
        .collect();
    Tensor::from_data(TensorData::new(values, [2, 3]), device)
}

pub fn assert_close(actual: Tensor<2>, expected: [[f32; 3]; 2], tolerance: Tolerance, what: &str) {
    let actual = actual.into_data();
    let expected = TensorData::from(expected);
    if std::panic::catch_unwind(|| actual.assert_approx_eq::<f32>(&expected, tolerance)).is_err() {
        panic!("{what}: got {actual:?}, expected {expected:?}");
    }
}

pub fn values<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().to_vec::<f32>().unwrap()
}

/// PyTorch's SGD momentum `μ`: no dampening, no Nesterov (Burn's
/// `MomentumConfig` defaults to a dampening of 0.1).
#[allow(dead_code)]
pub fn momentum(momentum: f64) -> Option<burn_optim::momentum::MomentumConfig> {
    Some(burn_optim::momentum::MomentumConfig {
        momentum,
        dampening: 0.0,
        nesterov: false,
    })
}

/// An L2 weight decay of `penalty`.
#[allow(dead_code)]
pub fn decay(penalty: f32) -> Option<burn_optim::decay::WeightDecayConfig> {
    Some(burn_optim::decay::WeightDecayConfig::new(penalty))
}
