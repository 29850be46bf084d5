//! Gated activations: the input (or a projection of it) gates itself.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, activation};

use crate::{Initializer, Linear, LinearConfig, LinearLayout};

/// Gated linear unit: splits the input in halves `a`, `b` along `dim` and
/// returns `a·sigmoid(b)`, so `dim` shrinks by half.
#[derive(Module, Debug)]
pub struct Glu {
    /// The dim that is split (negative counts from the end).
    pub dim: isize,
}

impl Glu {
    /// The layer splitting `dim` (`-1`: the last one, PyTorch's default).
    pub fn new(dim: isize) -> Self {
        Self { dim }
    }

    /// `a·sigmoid(b)` for the halves `a`, `b` of `input` along `dim`.
    ///
    /// # Panics
    /// If `dim` is out of range or its size is odd.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let dim = if self.dim < 0 {
            (D as isize + self.dim) as usize
        } else {
            self.dim as usize
        };
        assert!(
            dim < D,
            "Glu::forward: dim {} is out of range for rank {D}",
            self.dim
        );
        let size = input.dims()[dim];
        assert!(
            size.is_multiple_of(2),
            "Glu::forward: dim {dim} of the input {} has odd size {size}",
            input.shape()
        );
        let a = input.clone().narrow(dim, 0, size / 2);
        let b = input.narrow(dim, size / 2, size / 2);
        a * activation::sigmoid(b)
    }
}

/// Configuration of a [`SwiGlu`].
#[derive(Config, Debug)]
pub struct SwiGluConfig {
    /// Size of each input sample.
    pub d_input: usize,
    /// Size of each output sample.
    pub d_output: usize,
    /// Whether the two projections have a bias (usually not).
    #[config(default = false)]
    pub bias: bool,
    /// How the projections are drawn (as [`LinearConfig`]'s default).
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
    /// How the projection weights are stored.
    #[config(default = "LinearLayout::Row")]
    pub layout: LinearLayout,
}

/// Swish-gated linear unit (Shazeer, 2020): `silu(x·W_inner + b) ⊙ (x·W_outer + c)`.
///
/// Parameters: `linear_inner` and `linear_outer`, each a [`Linear`]
/// `d_input → d_output`.
#[derive(Module, Debug)]
pub struct SwiGlu {
    /// The projection passed through SiLU.
    pub linear_inner: Linear,
    /// The projection it gates.
    pub linear_outer: Linear,
}

impl SwiGluConfig {
    /// Builds the layer on `device`.
    pub fn init(&self, device: &Device) -> SwiGlu {
        let linear = LinearConfig::new(self.d_input, self.d_output)
            .with_bias(self.bias)
            .with_initializer(self.initializer.clone())
            .with_layout(self.layout);
        SwiGlu {
            linear_inner: linear.init(device),
            linear_outer: linear.init(device),
        }
    }
}

impl SwiGlu {
    /// `[..., d_input]` → `[..., d_output]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let gate = activation::silu(self.linear_inner.forward(input.clone()));
        gate * self.linear_outer.forward(input)
    }
}
