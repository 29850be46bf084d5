//! [`TransformerDecoder`]: masked self-attention, cross-attention over an
//! encoded memory, and feed-forward blocks.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Bool, Device, Tensor};

use super::residual;
use crate::{
    Dropout, DropoutConfig, Initializer, LayerNorm, LayerNormConfig, MhaInput, MultiHeadAttention,
    MultiHeadAttentionConfig, PositionWiseFeedForward, PositionWiseFeedForwardConfig,
    generate_autoregressive_mask,
};

/// Configuration of a [`TransformerDecoder`].
#[derive(Config, Debug)]
pub struct TransformerDecoderConfig {
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

/// A stack of [`TransformerDecoderLayer`]s.
///
/// Parameters: `layers.N.{self_attn, cross_attn, pwff, norm_1, norm_2, norm_3}`.
#[derive(Module, Debug)]
pub struct TransformerDecoder {
    /// The layers, applied in order.
    pub layers: Vec<TransformerDecoderLayer>,
}

/// Self-attention, cross-attention and feed-forward, each in a residual block.
#[derive(Module, Debug)]
pub struct TransformerDecoderLayer {
    /// Attention over the memory.
    pub cross_attn: MultiHeadAttention,
    /// Attention over the target.
    pub self_attn: MultiHeadAttention,
    /// Feed-forward.
    pub pwff: PositionWiseFeedForward,
    /// Norm of the self-attention block.
    pub norm_1: LayerNorm,
    /// Norm of the cross-attention block.
    pub norm_2: LayerNorm,
    /// Norm of the feed-forward block.
    pub norm_3: LayerNorm,
    /// Dropout on the residual branches.
    pub dropout: Dropout,
    /// Whether norms come first.
    pub norm_first: bool,
}

/// The input of a [`TransformerDecoder`]: target tokens, the encoder's
/// memory, and optional masks of each (`true` where attention is not
/// allowed). A causal target mask is usually wanted: see
/// [`TransformerDecoderInput::causal`].
#[derive(Debug, Clone)]
pub struct TransformerDecoderInput {
    /// `[batch, seq_t, d_model]`.
    pub target: Tensor<3>,
    /// Padded target positions, `[batch, seq_t]`.
    pub target_mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden target pairs, `[batch, seq_t, seq_t]`.
    pub target_mask_attn: Option<Tensor<3, Bool>>,
    /// `[batch, seq_m, d_model]`.
    pub memory: Tensor<3>,
    /// Padded memory positions, `[batch, seq_m]`.
    pub memory_mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden target–memory pairs, `[batch, seq_t, seq_m]`.
    pub memory_mask_attn: Option<Tensor<3, Bool>>,
}

impl TransformerDecoderInput {
    /// Target and memory without masks.
    pub fn new(target: Tensor<3>, memory: Tensor<3>) -> Self {
        Self {
            target,
            target_mask_pad: None,
            target_mask_attn: None,
            memory,
            memory_mask_pad: None,
            memory_mask_attn: None,
        }
    }

    /// With a causal target mask: position `i` attends to positions `≤ i`.
    pub fn causal(mut self) -> Self {
        let [batch, seq, _] = self.target.dims();
        let mask = generate_autoregressive_mask(batch, seq, &self.target.device());
        self.target_mask_attn = Some(mask);
        self
    }

    /// With padded target positions masked.
    pub fn target_mask_pad(mut self, mask: Tensor<2, Bool>) -> Self {
        self.target_mask_pad = Some(mask);
        self
    }

    /// With forbidden target pairs masked.
    pub fn target_mask_attn(mut self, mask: Tensor<3, Bool>) -> Self {
        self.target_mask_attn = Some(mask);
        self
    }

    /// With padded memory positions masked.
    pub fn memory_mask_pad(mut self, mask: Tensor<2, Bool>) -> Self {
        self.memory_mask_pad = Some(mask);
        self
    }

    /// With forbidden target–memory pairs masked.
    pub fn memory_mask_attn(mut self, mask: Tensor<3, Bool>) -> Self {
        self.memory_mask_attn = Some(mask);
        self
    }
}

impl TransformerDecoderConfig {
    /// Builds the stack on `device`.
    pub fn init(&self, device: &Device) -> TransformerDecoder {
        let layers = (0..self.n_layers).map(|_| self.layer(device)).collect();
        TransformerDecoder { layers }
    }

    fn layer(&self, device: &Device) -> TransformerDecoderLayer {
        let attention = || {
            MultiHeadAttentionConfig::new(self.d_model, self.n_heads)
                .with_dropout(self.dropout)
                .with_quiet_softmax(self.quiet_softmax)
                .with_initializer(self.initializer.clone())
                .init(device)
        };
        let norm = || LayerNormConfig::new(self.d_model).init(device);
        TransformerDecoderLayer {
            cross_attn: attention(),
            self_attn: attention(),
            pwff: PositionWiseFeedForwardConfig::new(self.d_model, self.d_ff)
                .with_dropout(self.dropout)
                .with_initializer(self.initializer.clone())
                .init(device),
            norm_1: norm(),
            norm_2: norm(),
            norm_3: norm(),
            dropout: DropoutConfig::new(self.dropout).init(),
            norm_first: self.norm_first,
        }
    }
}

impl TransformerDecoder {
    /// `[batch, seq_t, d_model]` → `[batch, seq_t, d_model]`.
    pub fn forward(&self, input: TransformerDecoderInput) -> Tensor<3> {
        let mut x = input.target.clone();
        for layer in &self.layers {
            x = layer.forward(x, &input);
        }
        x
    }
}

impl TransformerDecoderLayer {
    /// One layer on the target `x`, with the memory and masks of `input`.
    pub fn forward(&self, x: Tensor<3>, input: &TransformerDecoderInput) -> Tensor<3> {
        let x = residual(x, &self.norm_1, &self.dropout, self.norm_first, |h| {
            let mut attn = MhaInput::self_attn(h);
            attn.mask_pad = input.target_mask_pad.clone();
            attn.mask_attn = input.target_mask_attn.clone();
            self.self_attn.forward(attn).context
        });
        let x = residual(x, &self.norm_2, &self.dropout, self.norm_first, |h| {
            let mut attn = MhaInput::new(h, input.memory.clone(), input.memory.clone());
            attn.mask_pad = input.memory_mask_pad.clone();
            attn.mask_attn = input.memory_mask_attn.clone();
            self.cross_attn.forward(attn).context
        });
        residual(x, &self.norm_3, &self.dropout, self.norm_first, |h| {
            self.pwff.forward(h)
        })
    }
}
