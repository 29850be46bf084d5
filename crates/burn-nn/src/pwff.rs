//! [`PositionWiseFeedForward`]: the transformer's per-token MLP.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use crate::{Dropout, DropoutConfig, Gelu, Initializer, Linear, LinearConfig};

/// Configuration of a [`PositionWiseFeedForward`].
#[derive(Config, Debug)]
pub struct PositionWiseFeedForwardConfig {
    /// Size of the input and output features.
    pub d_model: usize,
    /// Size of the hidden layer.
    pub d_ff: usize,
    /// Dropout after the activation.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// How both linear layers are drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// `linear_outer(dropout(gelu(linear_inner(x))))`, applied to each
/// position independently.
///
/// Parameters: `linear_inner` (`d_model → d_ff`), `linear_outer`
/// (`d_ff → d_model`).
#[derive(Module, Debug)]
pub struct PositionWiseFeedForward {
    /// The expanding projection.
    pub linear_inner: Linear,
    /// The contracting projection.
    pub linear_outer: Linear,
    /// Dropout after the activation.
    pub dropout: Dropout,
    /// The activation.
    pub gelu: Gelu,
}

impl PositionWiseFeedForwardConfig {
    /// Builds the block on `device`.
    pub fn init(&self, device: &Device) -> PositionWiseFeedForward {
        let linear = |d_input, d_output| {
            LinearConfig::new(d_input, d_output)
                .with_initializer(self.initializer.clone())
                .init(device)
        };
        PositionWiseFeedForward {
            linear_inner: linear(self.d_model, self.d_ff),
            linear_outer: linear(self.d_ff, self.d_model),
            dropout: DropoutConfig::new(self.dropout).init(),
            gelu: Gelu::new(),
        }
    }
}

impl PositionWiseFeedForward {
    /// `[..., d_model]` → `[..., d_model]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let x = self.linear_inner.forward(input);
        let x = self.gelu.forward(x);
        let x = self.dropout.forward(x);
        self.linear_outer.forward(x)
    }
}
