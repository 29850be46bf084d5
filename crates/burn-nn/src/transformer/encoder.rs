//! [`TransformerEncoder`]: self-attention and feed-forward blocks.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Bool, Device, Tensor};

use super::residual;
use crate::{
    Dropout, DropoutConfig, Initializer, LayerNorm, LayerNormConfig, MhaInput, MultiHeadAttention,
    MultiHeadAttentionConfig, PositionWiseFeedForward, PositionWiseFeedForwardConfig,
};

/// Configuration of a [`TransformerEncoder`].
#[derive(Config, Debug)]
pub struct TransformerEncoderConfig {
    /// Size of the token features.
    pub d_model: usize,
    /// Size of the feed-forward hidden layer.
    pub d_ff: usize,
    /// Number of attention heads.
    pub n_heads: usize,
    /// Number of layers.
    pub n_layers: usize,
    /// Dropout on each residual branch, the attention weights and the
    /// feed-forward hidden layer.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// Normalize before each sub-block (pre-norm) instead of after.
    #[config(default = false)]
    pub norm_first: bool,
    /// Use the quiet softmax in attention.
    #[config(default = false)]
    pub quiet_softmax: bool,
    /// How every linear layer is drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A stack of [`TransformerEncoderLayer`]s.
///
/// Parameters: `layers.N.{mha, pwff, norm_1, norm_2}`.
#[derive(Module, Debug)]
pub struct TransformerEncoder {
    /// The layers, applied in order.
    pub layers: Vec<TransformerEncoderLayer>,
}

/// Self-attention then feed-forward, each in a residual block.
#[derive(Module, Debug)]
pub struct TransformerEncoderLayer {
    /// Self-attention.
    pub mha: MultiHeadAttention,
    /// Feed-forward.
    pub pwff: PositionWiseFeedForward,
    /// Norm of the attention block.
    pub norm_1: LayerNorm,
    /// Norm of the feed-forward block.
    pub norm_2: LayerNorm,
    /// Dropout on the residual branches.
    pub dropout: Dropout,
    /// Whether norms come first.
    pub norm_first: bool,
}

/// The input of a [`TransformerEncoder`]: tokens and optional masks (`true`
/// where attention is not allowed, as [`MhaInput`]).
#[derive(Debug, Clone)]
pub struct TransformerEncoderInput {
    /// `[batch, seq, d_model]`.
    pub tensor: Tensor<3>,
    /// Padded positions, `[batch, seq]`.
    pub mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden pairs, `[batch, seq, seq]`.
    pub mask_attn: Option<Tensor<3, Bool>>,
}

impl TransformerEncoderInput {
    /// Tokens without masks.
    pub fn new(tensor: Tensor<3>) -> Self {
        Self {
            tensor,
            mask_pad: None,
            mask_attn: None,
        }
    }

    /// With padded positions masked.
    pub fn mask_pad(mut self, mask_pad: Tensor<2, Bool>) -> Self {
        self.mask_pad = Some(mask_pad);
        self
    }

    /// With forbidden pairs masked.
    pub fn mask_attn(mut self, mask_attn: Tensor<3, Bool>) -> Self {
        self.mask_attn = Some(mask_attn);
        self
    }
}

impl TransformerEncoderConfig {
    /// Builds the stack on `device`.
    pub fn init(&self, device: &Device) -> TransformerEncoder {
        let layers = (0..self.n_layers).map(|_| self.layer(device)).collect();
        TransformerEncoder { layers }
    }

    fn layer(&self, device: &Device) -> TransformerEncoderLayer {
        TransformerEncoderLayer {
            mha: MultiHeadAttentionConfig::new(self.d_model, self.n_heads)
                .with_dropout(self.dropout)
                .with_quiet_softmax(self.quiet_softmax)
                .with_initializer(self.initializer.clone())
                .init(device),
            pwff: PositionWiseFeedForwardConfig::new(self.d_model, self.d_ff)
                .with_dropout(self.dropout)
                .with_initializer(self.initializer.clone())
                .init(device),
            norm_1: LayerNormConfig::new(self.d_model).init(device),
            norm_2: LayerNormConfig::new(self.d_model).init(device),
            dropout: DropoutConfig::new(self.dropout).init(),
            norm_first: self.norm_first,
        }
    }
}

impl TransformerEncoder {
    /// `[batch, seq, d_model]` → `[batch, seq, d_model]`.
    pub fn forward(&self, input: TransformerEncoderInput) -> Tensor<3> {
        let mut x = input.tensor;
        for layer in &self.layers {
            x = layer.forward(x, input.mask_pad.clone(), input.mask_attn.clone());
        }
        x
    }
}

impl TransformerEncoderLayer {
    /// One layer.
    pub fn forward(
        &self,
        x: Tensor<3>,
        mask_pad: Option<Tensor<2, Bool>>,
        mask_attn: Option<Tensor<3, Bool>>,
    ) -> Tensor<3> {
        let x = residual(x, &self.norm_1, &self.dropout, self.norm_first, |h| {
            let mut input = MhaInput::self_attn(h);
            input.mask_pad = mask_pad;
            input.mask_attn = mask_attn;
            self.mha.forward(input).context
        });
        residual(x, &self.norm_2, &self.dropout, self.norm_first, |h| {
            self.pwff.forward(h)
        })
    }
}
