//! The MLP of the model workloads, 784-512-512-10: a `Module` of bare
//! `Param` tensors with its own forward (matmul, bias, relu), so the
//! workloads measure the tensor, autodiff and optimizer paths and not a
//! layer library's extras; and the training step of `mlp_train_step`.
//!
//! `pytorch/bench.py` builds the same network with the same layouts, loss
//! and optimizer.

use burn::module::{Module, Param};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::tensor::Gradients;
use burn::tensor::activation::{log_softmax, relu};

/// Layer widths, input first.
pub const WIDTHS: [usize; 4] = [784, 512, 512, 10];
/// Examples per step.
pub const BATCH: usize = 256;
/// The learning rate of the training step (Adam's usual default).
pub const LR: f64 = 1e-3;

/// One linear layer; the weight is `[d_input, d_output]` as in Burn's nn.
#[derive(Module, Debug)]
pub struct Linear {
    pub weight: Param<Tensor<2>>,
    pub bias: Param<Tensor<1>>,
}

/// The three layers.
#[derive(Module, Debug)]
pub struct Mlp {
    pub layers: Vec<Linear>,
}

impl Mlp {
    /// Weights and biases uniform in `±1/sqrt(d_input)` (PyTorch's
    /// `nn.Linear` default); `require_grad` leaves when `device` is an
    /// autodiff device (what `Param` makes of a trainable tensor).
    pub fn new(widths: &[usize], device: &Device) -> Self {
        let layers = widths
            .windows(2)
            .map(|w| {
                let bound = 1.0 / (w[0] as f64).sqrt();
                let dist = Distribution::Uniform(-bound, bound);
                Linear {
                    weight: Param::from_tensor(Tensor::<2>::random([w[0], w[1]], dist, device)),
                    bias: Param::from_tensor(Tensor::<1>::random([w[1]], dist, device)),
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
            let out = h.matmul(layer.weight.val()) + layer.bias.val().unsqueeze::<2>();
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
                let w = l.weight.val().grad(grads).expect("weight gradient");
                let b = l.bias.val().grad(grads).expect("bias gradient");
                [w.into_data(), b.into_data()]
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

/// One training step on `x: [batch, d_input]` and `targets: [batch, 1]`:
/// forward, cross-entropy, backward, the gradients keyed by parameter, and
/// `optimizer`'s update at learning rate [`LR`]. Returns the updated model
/// and the loss of the step (computed before the update) in host memory.
///
/// Flex runs every op eagerly, so the update is done when the optimizer
/// returns; the loss is read after it so the step ends, like the other MLP
/// workloads, with its result in host memory.
pub fn train_step(
    model: Mlp,
    optimizer: &mut ModuleOptimizer,
    x: Tensor<2>,
    targets: Tensor<2, Int>,
) -> (Mlp, TensorData) {
    let loss = cross_entropy(model.forward(x), targets);
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    let model = optimizer.step(LR, model, grads);
    (model, loss.into_data())
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
    use burn::optim::AdamConfig;

    use super::*;

    fn zero_mlp(device: &Device) -> Mlp {
        // Zero weights and biases: every logit is 0, the softmax is uniform.
        let layers = WIDTHS_SMALL
            .windows(2)
            .map(|w| Linear {
                weight: Param::from_tensor(Tensor::<2>::zeros([w[0], w[1]], device)),
                bias: Param::from_tensor(Tensor::<1>::zeros([w[1]], device)),
            })
            .collect();
        Mlp { layers }
    }

    const WIDTHS_SMALL: [usize; 4] = [3, 4, 4, 5];

    /// A tensor of `shape` whose element at flat index `k` is `f(k)`.
    fn from_fn<const D: usize>(
        shape: [usize; D],
        device: &Device,
        f: impl Fn(usize) -> f64,
    ) -> Tensor<D> {
        let count = shape.iter().product();
        let values: Vec<f32> = (0..count).map(|k| f(k) as f32).collect();
        Tensor::<D>::from_data(TensorData::new(values, shape), device)
    }

    /// The small network of the training-step tests, every ReLU alive on
    /// [`fixed_batch`]: `w[l][i][j] = 0.5·sin(1 + 7l + 3i + j)`,
    /// `b[l][j] = 0.2 + 0.1·cos(l + j)`.
    fn fixed_mlp(device: &Device) -> Mlp {
        let layers = WIDTHS_SMALL
            .windows(2)
            .enumerate()
            .map(|(l, w)| {
                let (d_in, d_out) = (w[0], w[1]);
                let weight = from_fn([d_in, d_out], device, |k| {
                    let (i, j) = (k / d_out, k % d_out);
                    0.5 * ((1 + 7 * l + 3 * i + j) as f64).sin()
                });
                let bias = from_fn([d_out], device, |j| 0.2 + 0.1 * ((l + j) as f64).cos());
                Linear {
                    weight: Param::from_tensor(weight),
                    bias: Param::from_tensor(bias),
                }
            })
            .collect();
        Mlp { layers }
    }

    /// `x[b][k] = cos(3b + k)` for 6 examples, classes 0, 1, 2, 3, 4, 0.
    fn fixed_batch(device: &Device) -> (Tensor<2>, Tensor<2, Int>) {
        let x = from_fn([6, 3], device, |k| (k as f64).cos());
        let t = Tensor::<2, Int>::from_data([[0], [1], [2], [3], [4], [0]], device);
        (x, t)
    }

    /// Every parameter's value, weight then bias per layer, flattened.
    fn params_to_host(model: &Mlp) -> Vec<f32> {
        model
            .layers
            .iter()
            .flat_map(|l| {
                let w = l.weight.val().into_data().to_vec::<f32>().unwrap();
                let b = l.bias.val().into_data().to_vec::<f32>().unwrap();
                w.into_iter().chain(b)
            })
            .collect()
    }

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
        let db3 = mlp.layers[2].bias.val().grad(&grads).unwrap().into_data();
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
    fn first_adam_step_moves_each_parameter_by_lr_against_its_gradient() {
        let device = Device::flex().autodiff();
        let model = fixed_mlp(&device);
        let (x, t) = fixed_batch(&device);
        let grads = cross_entropy(model.forward(x.clone()), t.clone()).backward();
        let grads: Vec<f32> = model
            .grads_to_host(&grads)
            .into_iter()
            .flat_map(|d| d.to_vec::<f32>().unwrap())
            .collect();
        let before = params_to_host(&model);

        let mut optimizer = AdamConfig::new().init();
        let (model, _) = train_step(model, &mut optimizer, x, t);
        let after = params_to_host(&model);

        // Step 1 from zero moments: m̂ = g and v̂ = g², so θ moves by
        // -lr·g/(|g| + ε) = -lr·sign(g). Every |g| here is above 1e-4, where
        // ε = 1e-8 changes that by under 1e-7.
        assert_eq!(grads.len(), 61);
        for (k, ((b, a), g)) in before.iter().zip(&after).zip(&grads).enumerate() {
            assert!(
                g.abs() > 1e-4,
                "parameter {k}: gradient {g} too small to test"
            );
            let want = -(LR as f32) * g.signum();
            assert!(
                ((a - b) - want).abs() < 1e-6,
                "parameter {k}: moved {} (want {want})",
                a - b
            );
        }
    }

    #[test]
    fn train_steps_lower_the_loss_as_pytorch_does() {
        // The loss of each of three steps (before its update): PyTorch 2.15,
        // torch.optim.Adam(lr=1e-3, defaults) on the same weights, batch and
        // loss (-log_softmax(...).gather(1, t).mean()), float32; generated
        // by pytorch/adam_reference.py.
        const TORCH_LOSSES: [f32; 3] = [1.610_396_5, 1.609_105_1, 1.607_825_4];
        let device = Device::flex().autodiff();
        let mut model = fixed_mlp(&device);
        let (x, t) = fixed_batch(&device);
        let mut optimizer = AdamConfig::new().init();
        let mut losses = Vec::new();
        for _ in 0..3 {
            let (next, loss) = train_step(model, &mut optimizer, x.clone(), t.clone());
            model = next;
            losses.push(loss.to_vec::<f32>().unwrap()[0]);
        }
        for (got, want) in losses.iter().zip(TORCH_LOSSES) {
            assert!((got - want).abs() < 2e-6, "{losses:?} vs {TORCH_LOSSES:?}");
        }
        // The reference itself falls by ~1.3e-3 a step, far above the tolerance.
        assert!(losses.windows(2).all(|w| w[1] < w[0]), "{losses:?}");
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
