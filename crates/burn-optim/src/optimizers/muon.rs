//! Muon (Jordan et al. 2024, "Muon: An optimizer for hidden layers in
//! neural networks"): SGD momentum orthogonalised by a Newton–Schulz
//! iteration, for matrix parameters. PyTorch has no Muon; the tests'
//! reference is written from the published algorithm.
//!
//! Muon is meant for the 2-D weights of hidden layers; give embeddings,
//! heads, biases and norms another optimizer through a parameter group
//! ([`ModuleOptimizer::with_group`]).

use burn_core::config::Config;
use burn_tensor::Tensor;

use crate::decay::{self, WeightDecayConfig};
use crate::grad_clipping::{self, GradientClippingConfig};
use crate::momentum::{Momentum, MomentumConfig, MomentumState};
use crate::{LearningRate, ModuleOptimizer, Optimizer, record_state};

/// The quintic Newton–Schulz coefficients of the published Muon.
const NS_COEFFICIENTS: (f64, f64, f64) = (3.4445, -4.7750, 2.0315);
/// Added to the Frobenius norm before normalising.
const NS_EPSILON: f64 = 1e-7;

/// The configuration of [`Muon`].
#[derive(Config, Debug)]
pub struct MuonConfig {
    /// Decoupled weight decay `λ`: `θ ← θ·(1 - lr·λ)`.
    pub weight_decay: Option<WeightDecayConfig>,
    /// The momentum of the gradient before orthogonalisation: Burn's
    /// default `μ = 0.95`, no dampening, Nesterov (orthogonalise
    /// `g + μ·b` instead of `b`).
    #[config(default = "MomentumConfig { momentum: 0.95, dampening: 0.0, nesterov: true }")]
    pub momentum: MomentumConfig,
    /// Newton–Schulz iterations.
    #[config(default = 5)]
    pub ns_steps: usize,
    /// Gradient clipping applied before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl MuonConfig {
    /// The optimizer.
    pub fn build(&self) -> Muon {
        Muon {
            config: self.clone(),
        }
    }

    /// A module optimizer updating every parameter with [`Muon`] (every
    /// trainable parameter must then be a matrix; see the module docs).
    pub fn init(&self) -> ModuleOptimizer {
        ModuleOptimizer::new(self.build())
            .with_grad_clipping(grad_clipping::init(&self.grad_clipping))
    }
}

/// Muon: `b ← μ·b + (1 - τ)·g` (`b = g` on the first step, `τ` the
/// dampening, 0 by default), `d = g + μ·b` (Nesterov) or `b`,
/// `O = NewtonSchulz(d)`, `θ ← θ·(1 - lr·λ) - lr·√max(1, rows/cols)·O`.
#[derive(Clone, Debug)]
pub struct Muon {
    config: MuonConfig,
}

/// The momentum buffer of one parameter.
#[derive(Clone, Debug)]
pub struct MuonState<const D: usize> {
    /// `b`.
    pub momentum: Tensor<D>,
}

record_state!(MuonState<const D: usize> { momentum });

/// An approximately orthogonal matrix with the singular vectors of `g`:
/// `X ← a·X + (b·S + c·S²)·X` with `S = X·Xᵀ`, from `X = g/‖g‖`, on the
/// wide orientation (`rows <= cols`) so `S` is the smaller Gram matrix.
fn newton_schulz(g: Tensor<2>, steps: usize) -> Tensor<2> {
    let (a, b, c) = NS_COEFFICIENTS;
    let [rows, cols] = g.dims();
    let norm = g.clone().square().sum().sqrt().add_scalar(NS_EPSILON);
    let mut x = g / norm.reshape([1, 1]);
    let transposed = rows > cols;
    if transposed {
        x = x.transpose();
    }
    for _ in 0..steps {
        let s = x.clone().matmul(x.clone().transpose());
        let poly = s.clone().mul_scalar(b) + s.clone().matmul(s).mul_scalar(c);
        x = x.clone().mul_scalar(a) + poly.matmul(x);
    }
    if transposed { x.transpose() } else { x }
}

impl Optimizer for Muon {
    type State<const D: usize> = MuonState<D>;

    /// # Panics
    /// If the parameter is not a matrix.
    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<MuonState<D>>,
    ) -> (Tensor<D>, Option<MuonState<D>>) {
        assert!(
            D == 2,
            "Muon updates matrices only, got a parameter of rank {D}: give the others \
             another optimizer with ModuleOptimizer::with_group"
        );
        let c = &self.config;
        let shape = tensor.shape();
        let (rows, cols) = (shape[0], shape[1]);
        let velocity = state.map(|s| MomentumState {
            velocity: s.momentum,
        });
        let (direction, velocity) = Momentum::new(&c.momentum).transform(grad, velocity);
        let momentum = velocity.velocity;
        let orthogonal: Tensor<D> =
            newton_schulz(direction.reshape([rows, cols]), c.ns_steps).reshape(shape);
        let scale = (rows as f64 / cols as f64).max(1.0).sqrt();
        let penalty = decay::penalty(&c.weight_decay);
        let decayed = if penalty != 0.0 {
            tensor.mul_scalar(1.0 - lr * penalty)
        } else {
            tensor
        };
        (
            decayed - orthogonal.mul_scalar(lr * scale),
            Some(MuonState { momentum }),
        )
    }
}
