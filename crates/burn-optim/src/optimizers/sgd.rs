//! Stochastic gradient descent with momentum, dampening, Nesterov momentum
//! and weight decay, with PyTorch's `torch.optim.SGD` semantics.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::decay::{WeightDecay, WeightDecayConfig};
use crate::grad_clipping::{self, GradientClippingConfig};
use crate::momentum::{Momentum, MomentumConfig, MomentumState};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The configuration of [`Sgd`], as Burn's: plain SGD by default, with
/// optional momentum, L2 weight decay and gradient clipping.
///
/// ```
/// use burn_optim::SgdConfig;
/// use burn_optim::decay::WeightDecayConfig;
/// use burn_optim::momentum::MomentumConfig;
///
/// // PyTorch's `SGD(params, lr, momentum=0.9, nesterov=True, weight_decay=1e-4)`.
/// let config = SgdConfig::new()
///     .with_momentum(Some(MomentumConfig::new().with_dampening(0.0).with_nesterov(true)))
///     .with_weight_decay(Some(WeightDecayConfig::new(1e-4)));
/// let optimizer = config.init();
/// ```
#[derive(Config, Debug)]
pub struct SgdConfig {
    /// L2 penalty `λ`, added to the gradient as `λ·θ`.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Momentum (no state without it). Note Burn's [`MomentumConfig`]
    /// default dampening is 0.1; PyTorch's is 0.
    pub momentum: Option<MomentumConfig>,
    /// Gradient clipping applied before the update.
    pub gradient_clipping: Option<GradientClippingConfig>,
}

impl SgdConfig {
    /// The optimizer.
    pub fn build(&self) -> Sgd {
        Sgd {
            momentum: self.momentum.as_ref().map(Momentum::new),
            weight_decay: self.weight_decay.as_ref().map(WeightDecay::new),
        }
    }

    /// A module optimizer updating every parameter with [`Sgd`].
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.gradient_clipping))
    }
}

/// SGD: with `g = ∇ + λ·θ`, the step `d` is the [momentum](crate::momentum)
/// direction of `g` (or `g` without momentum); `θ ← θ - lr·d`. With
/// dampening 0 this is PyTorch's `torch.optim.SGD`.
#[derive(Clone, Debug)]
pub struct Sgd {
    momentum: Option<Momentum>,
    weight_decay: Option<WeightDecay>,
}

/// The momentum buffer of one parameter.
#[derive(Clone, Debug)]
pub struct SgdState<const D: usize> {
    /// `b`, the running momentum.
    pub momentum: Tensor<D>,
}

record_state!(SgdState<const D: usize> { momentum });

impl Optimizer for Sgd {
    type State<const D: usize> = SgdState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<SgdState<D>>,
    ) -> (Tensor<D>, Option<SgdState<D>>) {
        let grad = match &self.weight_decay {
            Some(decay) => decay.transform(grad, tensor.clone()),
            None => grad,
        };
        let Some(momentum) = &self.momentum else {
            return (tensor - grad.mul_scalar(lr), None);
        };
        let velocity = state.map(|state| MomentumState {
            velocity: state.momentum,
        });
        let (direction, velocity) = momentum.transform(grad, velocity);
        (
            tensor - direction.mul_scalar(lr),
            Some(SgdState {
                momentum: velocity.velocity,
            }),
        )
    }
}
