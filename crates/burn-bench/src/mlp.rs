//! The MLP of the training-step workload, 784-512-512-10, written with bare
//! tensors (modules do not exist yet) so the workload measures the tensor
//! and autodiff paths and nothing else.
//!
//! `pytorch/bench.py` builds the same network with the same layouts and loss.

use burn::prelude::*;
use burn::tensor::Gradients;
use burn::tensor::activation::{log_softmax, relu};

/// Layer widths, input first.
pub const WIDTHS: [usize; 4] = [784, 512, 512, 10];
/// Examples per step.
pub const BATCH: usize = 256;

/// One linear layer; the weight is `[d_input, d_output]` as in Burn's nn.
#[derive(Clone)]
pub struct Linear {
    pub weight: Tensor<2>,
    pub bias: Tensor<1>,
}

/// The three layers.
#[derive(Clone)]
pub struct Mlp {
    pub layers: Vec<Linear>,
}

impl Mlp {
    /// Weights and biases uniform in `±1/sqrt(d_input)` (PyTorch's
    /// `nn.Linear` default), marked `require_grad` when `device` is an
    /// autodiff device.
    pub fn new(widths: &[usize], device: &Device) -> Self {
        let layers = widths
            .windows(2)
            .map(|w| {
                let bound = 1.0 / (w[0] as f64).sqrt();
                let dist = Distribution::Uniform(-bound, bound);
                let weight = Tensor::<2>::random([w[0], w[1]], dist, device);
                let bias = Tensor::<1>::random([w[1]], dist, device);
                if device.is_autodiff() {
                    Linear {
                        weight: weight.require_grad(),
                        bias: bias.require_grad(),
                    }
                } else {
                    Linear { weight, bias }
                }
            })
            .collect();
        Self { layers }
    }

    /// The logits: `relu` between layers, none after the last.
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len() - 1;
        self.layers.iter().enumerate().fold(x, |h, (i, layer)| {
            // h: [batch, d_in] @ weight: [d_in, d_out] + bias: [1, d_out]
            let out = h.matmul(layer.weight.clone()) + layer.bias.clone().unsqueeze::<2>();
            if i < last { relu(out) } else { out }
        })
    }

    /// Every parameter's gradient, read into host memory, weight then bias
    /// per layer.
    ///
    /// # Panics
    /// If a parameter has no gradient in `grads`.
    pub fn grads_to_host(&self, grads: &Gradients) -> Vec<TensorData> {
        self.layers
            .iter()
            .flat_map(|l| {
                let w = l.weight.grad(grads).expect("weight gradient").into_data();
                let b = l.bias.grad(grads).expect("bias gradient").into_data();
                [w, b]
            })
            .collect()
    }

    /// The matmul flops of a forward pass on `batch` examples.
    pub fn forward_flops(widths: &[usize], batch: usize) -> f64 {
        widths
            .windows(2)
            .map(|w| 2.0 * (batch * w[0] * w[1]) as f64)
            .sum()
    }

    /// The matmul flops of the least backward pass: every weight gradient,
    /// and the input gradient of every layer but the first (the data needs none).
    pub fn backward_flops(widths: &[usize], batch: usize) -> f64 {
        let per_layer = |w: &[usize]| 2.0 * (batch * w[0] * w[1]) as f64;
        let weight_grads: f64 = widths.windows(2).map(per_layer).sum();
        let input_grads: f64 = widths.windows(2).skip(1).map(per_layer).sum();
        weight_grads + input_grads
    }
}

/// Cross-entropy of `logits: [batch, classes]` against class indices
/// `targets: [batch, 1]`: the mean of `-log_softmax` at each target.
pub fn cross_entropy(logits: Tensor<2>, targets: Tensor<2, Int>) -> Tensor<1> {
    -log_softmax(logits, 1).gather(1, targets).mean()
}

/// `count` class indices in `[0, classes)` as a `[count, 1]` tensor, from a
/// fixed linear congruential sequence so both frameworks can use the same
/// targets without sharing a random generator.
pub fn targets(count: usize, classes: usize, device: &Device) -> Tensor<2, Int> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let values: Vec<i64> = (0..count)
        .map(|_| {
            // Knuth's MMIX constants; the high bits are the well-mixed ones.
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % classes as u64) as i64
        })
        .collect();
    Tensor::<2, Int>::from_data(TensorData::new(values, [count, 1]), device)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero_mlp(device: &Device) -> Mlp {
        // Zero weights and biases: every logit is 0, the softmax is uniform.
        let layers = WIDTHS_SMALL
            .windows(2)
            .map(|w| Linear {
                weight: Tensor::<2>::zeros([w[0], w[1]], device).require_grad(),
                bias: Tensor::<1>::zeros([w[1]], device).require_grad(),
            })
            .collect();
        Mlp { layers }
    }

    const WIDTHS_SMALL: [usize; 4] = [3, 4, 4, 5];

    #[test]
    fn flop_counts_match_hand_sums() {
        // forward: 2·256·(784·512 + 512·512 + 512·10) = 2·256·668_672
        assert_eq!(Mlp::forward_flops(&WIDTHS, BATCH), 342_360_064.0);
        // backward: all weights (668_672) + inputs of layers 2, 3 (262_144 + 5_120)
        assert_eq!(
            Mlp::backward_flops(&WIDTHS, BATCH),
            2.0 * 256.0 * (668_672.0 + 267_264.0)
        );
    }

    #[test]
    fn zero_network_loss_is_log_of_class_count() {
        let device = Device::flex().autodiff();
        let mlp = zero_mlp(&device);
        let x = Tensor::<2>::ones([6, 3], &device);
        let t = Tensor::<2, Int>::from_data([[0], [1], [2], [3], [4], [0]], &device);
        let loss = cross_entropy(mlp.forward(x), t);
        let value = loss.clone().into_scalar::<f32>();
        assert!((value - 5f32.ln()).abs() < 1e-6, "{value}");

        // d loss / d bias3[c] = mean over the batch of (softmax[c] - onehot[c])
        // = 1/5 - (count of class c)/6: class 0 appears twice, the others once.
        let grads = loss.backward();
        let db3 = mlp.layers[2].bias.grad(&grads).unwrap().into_data();
        let expected = [
            0.2 - 2.0 / 6.0,
            0.2 - 1.0 / 6.0,
            0.2 - 1.0 / 6.0,
            0.2 - 1.0 / 6.0,
            0.2 - 1.0 / 6.0,
        ];
        for (got, want) in db3.to_vec::<f32>().unwrap().iter().zip(expected) {
            assert!((got - want as f32).abs() < 1e-6, "{got} vs {want}");
        }
        // All six gradients exist and have their parameter's size.
        let host = mlp.grads_to_host(&grads);
        let sizes: Vec<usize> = host.iter().map(|d| d.num_elements()).collect();
        assert_eq!(sizes, vec![12, 4, 16, 4, 20, 5]);
    }

    #[test]
    fn targets_are_in_range_and_not_constant() {
        let t = targets(256, 10, &Device::flex())
            .into_data()
            .to_vec::<i64>()
            .unwrap();
        assert!(t.iter().all(|&c| (0..10).contains(&c)));
        assert!(t.iter().any(|&c| c != t[0]));
    }
}
