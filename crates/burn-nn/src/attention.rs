//! [`MultiHeadAttention`], with padding and attention masks and a key/value
//! cache for step-by-step decoding.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Bool, Device, Int, Tensor, TensorData, activation};

use crate::{Dropout, DropoutConfig, Initializer, Linear, LinearConfig};

/// Configuration of a [`MultiHeadAttention`].
#[derive(Config, Debug)]
pub struct MultiHeadAttentionConfig {
    /// Size of the input and output features.
    pub d_model: usize,
    /// Number of heads; divides `d_model`.
    pub n_heads: usize,
    /// Dropout on the attention weights.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// The score given to masked positions before the softmax: very
    /// negative, yet finite so a fully masked row stays a number.
    #[config(default = -1.0e4)]
    pub min_float: f64,
    /// Use the "quiet" softmax `e^x_i / (1 + Σ e^x_j)`, which lets a head
    /// attend to nothing.
    #[config(default = false)]
    pub quiet_softmax: bool,
    /// How the four projections are drawn.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// Scaled dot-product attention over `n_heads` heads (Vaswani et al.):
/// `softmax(Q·Kᵀ / √d_k)·V` per head, heads concatenated and projected.
///
/// Parameters: `query`, `key`, `value`, `output`, each a [`Linear`]
/// `d_model → d_model`.
#[derive(Module, Debug)]
pub struct MultiHeadAttention {
    /// Query projection.
    pub query: Linear,
    /// Key projection.
    pub key: Linear,
    /// Value projection.
    pub value: Linear,
    /// Output projection.
    pub output: Linear,
    /// Dropout on the attention weights.
    pub dropout: Dropout,
    /// Number of heads.
    pub n_heads: usize,
    /// Size of each head, `d_model / n_heads`.
    pub d_k: usize,
    /// Score of masked positions.
    pub min_float: f64,
    /// Whether the quiet softmax is used.
    pub quiet_softmax: bool,
}

/// The inputs of a [`MultiHeadAttention`] pass.
///
/// Masks are `true` where attention is *not* allowed: `mask_pad`
/// `[batch, seq_k]` marks padded keys, `mask_attn` `[batch, seq_q, seq_k]`
/// any other pattern (a causal mask, for instance).
#[derive(Debug, Clone)]
pub struct MhaInput {
    /// `[batch, seq_q, d_model]`.
    pub query: Tensor<3>,
    /// `[batch, seq_k, d_model]`.
    pub key: Tensor<3>,
    /// `[batch, seq_k, d_model]`.
    pub value: Tensor<3>,
    /// Padded keys, `[batch, seq_k]`.
    pub mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden query–key pairs, `[batch, seq_q, seq_k]`.
    pub mask_attn: Option<Tensor<3, Bool>>,
}

impl MhaInput {
    /// Self-attention: query, key and value are all `tensor`.
    pub fn self_attn(tensor: Tensor<3>) -> Self {
        Self::new(tensor.clone(), tensor.clone(), tensor)
    }

    /// Attention of `query` over `key` / `value`.
    pub fn new(query: Tensor<3>, key: Tensor<3>, value: Tensor<3>) -> Self {
        Self {
            query,
            key,
            value,
            mask_pad: None,
            mask_attn: None,
        }
    }

    /// With padded keys masked.
    pub fn mask_pad(mut self, mask_pad: Tensor<2, Bool>) -> Self {
        self.mask_pad = Some(mask_pad);
        self
    }

    /// With forbidden query–key pairs masked.
    pub fn mask_attn(mut self, mask_attn: Tensor<3, Bool>) -> Self {
        self.mask_attn = Some(mask_attn);
        self
    }
}

/// The result of a [`MultiHeadAttention`] pass.
#[derive(Debug, Clone)]
pub struct MhaOutput {
    /// `[batch, seq_q, d_model]`.
    pub context: Tensor<3>,
    /// The attention weights (after dropout), `[batch, n_heads, seq_q, seq_k]`.
    pub weights: Tensor<4>,
}

/// The keys and values seen so far in step-by-step decoding, already
/// projected and split into heads (`[batch, n_heads, seq, d_k]`).
#[derive(Debug, Clone, Default)]
pub struct MhaCache {
    key: Option<Tensor<4>>,
    value: Option<Tensor<4>>,
}

impl MhaCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many positions are cached.
    pub fn len(&self) -> usize {
        self.key.as_ref().map_or(0, |k| k.dims()[2])
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl MultiHeadAttentionConfig {
    /// Builds the layer on `device`.
    ///
    /// # Panics
    /// If `n_heads` does not divide `d_model`.
    pub fn init(&self, device: &Device) -> MultiHeadAttention {
        assert!(
            self.n_heads > 0 && self.d_model.is_multiple_of(self.n_heads),
            "MultiHeadAttentionConfig::init: {} heads do not divide d_model {}",
            self.n_heads,
            self.d_model
        );
        let linear = || {
            LinearConfig::new(self.d_model, self.d_model)
                .with_initializer(self.initializer.clone())
                .init(device)
        };
        MultiHeadAttention {
            query: linear(),
            key: linear(),
            value: linear(),
            output: linear(),
            dropout: DropoutConfig::new(self.dropout).init(),
            n_heads: self.n_heads,
            d_k: self.d_model / self.n_heads,
            min_float: self.min_float,
            quiet_softmax: self.quiet_softmax,
        }
    }
}

impl MultiHeadAttention {
    /// Attention of `input.query` over `input.key` / `input.value`.
    pub fn forward(&self, input: MhaInput) -> MhaOutput {
        let query = self.heads(self.query.forward(input.query));
        let key = self.heads(self.key.forward(input.key));
        let value = self.heads(self.value.forward(input.value));
        self.attend(query, key, value, input.mask_pad, input.mask_attn)
    }

    /// One decoding step: `input.key` / `input.value` hold only the new
    /// positions, which are projected, appended to `cache` and attended to
    /// along with every cached one. Masks cover all positions
    /// (`seq_k = cache.len()` after the call).
    pub fn forward_cache(&self, input: MhaInput, cache: &mut MhaCache) -> MhaOutput {
        let query = self.heads(self.query.forward(input.query));
        let append = |cached: Option<Tensor<4>>, new: Tensor<4>| match cached {
            Some(cached) => Tensor::cat(vec![cached, new], 2),
            None => new,
        };
        let key = append(cache.key.take(), self.heads(self.key.forward(input.key)));
        let value = append(
            cache.value.take(),
            self.heads(self.value.forward(input.value)),
        );
        cache.key = Some(key.clone());
        cache.value = Some(value.clone());
        self.attend(query, key, value, input.mask_pad, input.mask_attn)
    }

    // x: [batch, seq, d_model] -> [batch, n_heads, seq, d_k]
    fn heads(&self, x: Tensor<3>) -> Tensor<4> {
        let [batch, seq, _] = x.dims();
        x.reshape([batch, seq, self.n_heads, self.d_k])
            .swap_dims(1, 2)
    }

    // q: [batch, heads, seq_q, d_k]; k, v: [batch, heads, seq_k, d_k]
    fn attend(
        &self,
        query: Tensor<4>,
        key: Tensor<4>,
        value: Tensor<4>,
        mask_pad: Option<Tensor<2, Bool>>,
        mask_attn: Option<Tensor<3, Bool>>,
    ) -> MhaOutput {
        let [batch, heads, seq_q, _] = query.dims();
        let seq_k = key.dims()[2];
        let mut scores = query.matmul(key.transpose()) / (self.d_k as f64).sqrt();
        if let Some(mask) = mask_pad {
            let mask: Tensor<4, Bool> = mask.reshape([batch, 1, 1, seq_k]);
            scores = scores.mask_fill(mask.expand([batch, heads, seq_q, seq_k]), self.min_float);
        }
        if let Some(mask) = mask_attn {
            let mask: Tensor<4, Bool> = mask.reshape([batch, 1, seq_q, seq_k]);
            scores = scores.mask_fill(mask.expand([batch, heads, seq_q, seq_k]), self.min_float);
        }
        let weights = if self.quiet_softmax {
            quiet_softmax(scores)
        } else {
            activation::softmax(scores, 3)
        };
        let weights = self.dropout.forward(weights);
        // [batch, heads, seq_q, d_k] -> [batch, seq_q, d_model]
        let context =
            weights
                .clone()
                .matmul(value)
                .swap_dims(1, 2)
                .reshape([batch, seq_q, heads * self.d_k]);
        MhaOutput {
            context: self.output.forward(context),
            weights,
        }
    }
}

/// The causal mask of step-by-step generation, `[batch, seq, seq]`: `true`
/// (masked) where the key comes after the query.
pub fn generate_autoregressive_mask(batch: usize, seq: usize, device: &Device) -> Tensor<3, Bool> {
    Tensor::<2, Bool>::tril_mask([seq, seq], 0, device)
        .unsqueeze::<3>()
        .expand([batch, seq, seq])
}

/// `e^x_i / (1 + Σ_j e^x_j)` along the last dim, shifted by the row max
/// (clamped at 0, so the implicit zero logit is part of the max).
fn quiet_softmax(x: Tensor<4>) -> Tensor<4> {
    let max = x.clone().max_dim(3).clamp_min(0.0).detach();
    let exp = (x - max.clone()).exp();
    let denominator = exp.clone().sum_dim(3) + max.neg().exp();
    exp / denominator
}

/// How [`generate_padding_mask`] picks the sequence length.
#[derive(Config, Debug, Copy)]
pub enum SeqLengthOption {
    /// The length of the longest sequence.
    NoMax,
    /// The longest sequence's length, but at most this (longer ones are
    /// truncated).
    Max(usize),
    /// Exactly this: shorter sequences are padded, longer ones truncated.
    Fixed(usize),
}

impl From<Option<usize>> for SeqLengthOption {
    /// `Some(max)` is [`Max`](Self::Max), `None` is [`NoMax`](Self::NoMax).
    fn from(max: Option<usize>) -> Self {
        max.map_or(Self::NoMax, Self::Max)
    }
}

/// A batch of token sequences padded to one length, and its padding mask.
#[derive(Clone, Debug)]
pub struct GeneratePaddingMask {
    /// The tokens, `[batch, seq]`, padded with the pad token.
    pub tensor: Tensor<2, Int>,
    /// `true` where `tensor` holds the pad token, `[batch, seq]`: the
    /// `mask_pad` of [`MhaInput`].
    pub mask: Tensor<2, Bool>,
}

/// Pads (or truncates) each sequence of `tokens_list` to the length
/// `seq_length` chooses and stacks them into `[batch, seq]` (`seq` is at
/// least 1, so a batch of empty sequences is one column of padding).
///
/// As Burn's, the mask is `tokens == pad_token`: a real token equal to the
/// pad token is masked too, so pick a pad id no sequence uses.
///
/// ```
/// use burn_core::tensor::{Device, TensorData};
/// use burn_nn::attention::{SeqLengthOption, generate_padding_mask};
///
/// let device = Device::flex();
/// let padded = generate_padding_mask(0, vec![vec![5, 6, 7], vec![8]], SeqLengthOption::NoMax, &device);
/// assert_eq!(padded.tensor.to_data(), TensorData::from([[5i64, 6, 7], [8, 0, 0]]).convert_dtype(padded.tensor.dtype()));
/// assert_eq!(padded.mask.to_data(), TensorData::from([[false, false, false], [false, true, true]]));
/// ```
pub fn generate_padding_mask(
    pad_token: usize,
    tokens_list: Vec<Vec<usize>>,
    seq_length: impl Into<SeqLengthOption>,
    device: &Device,
) -> GeneratePaddingMask {
    let (values, batch, seq) = pad_tokens(pad_token, tokens_list, seq_length.into());
    let tensor = Tensor::<2, Int>::from_data(TensorData::new(values, [batch, seq]), device);
    let mask = tensor.clone().equal_elem(pad_token as i64);
    GeneratePaddingMask { tensor, mask }
}

/// The padded tokens row by row, the batch size and the sequence length.
fn pad_tokens(
    pad_token: usize,
    tokens_list: Vec<Vec<usize>>,
    seq_length: SeqLengthOption,
) -> (Vec<i64>, usize, usize) {
    let longest = || tokens_list.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let seq = match seq_length {
        SeqLengthOption::NoMax => longest(),
        SeqLengthOption::Max(max) => longest().min(max),
        SeqLengthOption::Fixed(length) => length,
    };
    let batch = tokens_list.len();
    let mut values = vec![pad_token as i64; batch * seq];
    for (row, tokens) in values.chunks_mut(seq.max(1)).zip(&tokens_list) {
        for (slot, &token) in row.iter_mut().zip(tokens) {
            *slot = token as i64;
        }
    }
    (values, batch, seq)
}
