//! Momentum, as SGD and Muon use it (Burn's `optim::momentum`).
//!
//! With `g` the gradient, the velocity is `v = g` on the first step and
//! `v ← μ·v + (1 - τ)·g` after (`μ` the momentum, `τ` the dampening); the
//! step follows `g + μ·v` (Nesterov) or `v`. This is PyTorch's
//! `torch.optim.SGD` momentum, and with `τ = 0` Muon's.

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::record_state;

/// The configuration of [`Momentum`]. Burn's defaults: `μ = 0.9`,
/// `τ = 0.1`, no Nesterov (PyTorch's dampening default is 0).
#[derive(Config, Debug)]
pub struct MomentumConfig {
    /// Momentum factor `μ`.
    #[config(default = 0.9)]
    pub momentum: f64,
    /// Dampening `τ`: from the second step on, the gradient enters the
    /// velocity scaled by `1 - τ`.
    #[config(default = 0.1)]
    pub dampening: f64,
    /// Nesterov momentum: step along `g + μ·v` instead of `v`.
    #[config(default = false)]
    pub nesterov: bool,
}

/// The momentum transform of a gradient (see the module docs).
#[derive(Clone, Debug)]
pub struct Momentum {
    momentum: f64,
    dampening: f64,
    nesterov: bool,
}

/// The velocity of one parameter.
#[derive(Clone, Debug)]
pub struct MomentumState<const D: usize> {
    /// `v`.
    pub velocity: Tensor<D>,
}

record_state!(MomentumState<const D: usize> { velocity });

impl Momentum {
    /// The transform `config` describes.
    pub fn new(config: &MomentumConfig) -> Self {
        Self {
            momentum: config.momentum,
            dampening: config.dampening,
            nesterov: config.nesterov,
        }
    }

    /// The direction to step along and the new velocity.
    pub fn transform<const D: usize>(
        &self,
        grad: Tensor<D>,
        state: Option<MomentumState<D>>,
    ) -> (Tensor<D>, MomentumState<D>) {
        let velocity = match state {
            None => grad.clone(),
            Some(state) => {
                state.velocity.mul_scalar(self.momentum)
                    + grad.clone().mul_scalar(1.0 - self.dampening)
            }
        };
        let direction = if self.nesterov {
            grad + velocity.clone().mul_scalar(self.momentum)
        } else {
            velocity.clone()
        };
        (direction, MomentumState { velocity })
    }
}
