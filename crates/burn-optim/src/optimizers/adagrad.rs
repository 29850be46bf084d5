//! AdaGrad (Duchi et al. 2011), with PyTorch's `torch.optim.Adagrad`
//! semantics: learning rate decay, L2 weight decay, initial accumulator.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::decay::{self, WeightDecayConfig};
use crate::grad_clipping::{self, GradientClippingConfig};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`AdaGrad`].
#[derive(Config, Debug)]
pub struct AdaGradConfig {
    /// Decay `η` of the learning rate: step `t` uses `lr / (1 + (t-1)·η)`.
    #[config(default = 0.0)]
    pub lr_decay: f64,
    /// L2 penalty `λ`, added to the gradient as `λ·θ`.
    pub weight_decay: Option<WeightDecayConfig>,
    /// The value the sum of squares starts from.
    #[config(default = 0.0)]
    pub initial_accumulator_value: f64,
    /// `ε`, added to the square root of the sum.
    #[config(default = 1e-10)]
    pub epsilon: f64,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdaGradConfig {
    /// The optimizer.
    pub fn build(&self) -> AdaGrad {
        AdaGrad {
            config: self.clone(),
        }
    }

    /// A module optimizer updating every parameter with [`AdaGrad`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// AdaGrad: with `g = ∇ + λ·θ`, `s ← s + g²` and at step `t`
/// `θ ← θ - lr/(1 + (t-1)·η) · g / (√s + ε)`.
#[derive(Clone, Debug)]
pub struct AdaGrad {
    config: AdaGradConfig,
}

/// The sum of squared gradients of one parameter.
#[derive(Clone, Debug)]
pub struct AdaGradState<const D: usize> {
    /// The number of steps taken.
    pub time: usize,
    /// `s`, the running sum of squared gradients.
    pub sum: Tensor<D>,
}

record_state!(AdaGradState<const D: usize> { time, sum });

impl Optimizer for AdaGrad {
    type State<const D: usize> = AdaGradState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<AdaGradState<D>>,
    ) -> (Tensor<D>, Option<AdaGradState<D>>) {
        let c = &self.config;
        let penalty = decay::penalty(&c.weight_decay);
        let grad = if penalty != 0.0 {
            grad + tensor.clone().mul_scalar(penalty)
        } else {
            grad
        };
        let (time, sum) = match state {
            Some(state) => (state.time + 1, state.sum + grad.clone().square()),
            None => (
                1,
                grad.clone()
                    .square()
                    .add_scalar(c.initial_accumulator_value),
            ),
        };
        let step_lr = lr / (1.0 + (time - 1) as f64 * c.lr_decay);
        let delta = (grad / sum.clone().sqrt().add_scalar(c.epsilon)).mul_scalar(step_lr);
        (tensor - delta, Some(AdaGradState { time, sum }))
    }
}
