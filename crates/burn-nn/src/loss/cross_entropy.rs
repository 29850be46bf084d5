//! [`CrossEntropyLoss`] and [`NllLoss`]: classification from scores.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Int, Tensor, TensorData, activation};

/// Configuration of a [`CrossEntropyLoss`].
#[derive(Config, Debug)]
pub struct CrossEntropyLossConfig {
    /// Target classes whose samples are ignored (PyTorch's `ignore_index`,
    /// several allowed): they add nothing to the loss or to the count it is
    /// averaged over.
    pub pad_tokens: Option<Vec<usize>>,
    /// One weight per class: a sample counts `weights[target]` times in the
    /// weighted mean.
    pub weights: Option<Vec<f32>>,
    /// Label smoothing `ε` in `[0, 1]`: the target distribution is
    /// `(1 − ε)·one_hot + ε / num_classes`.
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits (`true`, log-softmax is applied) or
    /// probabilities (`false`, only their log is taken).
    #[config(default = true)]
    pub logits: bool,
}

/// Cross entropy between predicted class scores and target classes,
/// averaged over the (weighted, non-ignored) samples, as PyTorch's
/// `F.cross_entropy` with `reduction="mean"`.
#[derive(Module, Debug)]
pub struct CrossEntropyLoss {
    /// Ignored target classes.
    pub pad_tokens: Option<Vec<usize>>,
    /// Per-class weights (a constant tensor, not a parameter).
    pub weights: Option<Tensor<1>>,
    /// Label smoothing.
    pub smoothing: Option<f32>,
    /// Whether inputs are logits.
    pub logits: bool,
}

impl CrossEntropyLossConfig {
    /// Builds the loss; class weights live on `device`.
    ///
    /// # Panics
    /// If `smoothing` is outside `[0, 1]` or a weight is negative.
    pub fn init(&self, device: &Device) -> CrossEntropyLoss {
        if let Some(alpha) = self.smoothing {
            assert!(
                (0.0..=1.0).contains(&alpha),
                "CrossEntropyLossConfig::init: smoothing must be in [0, 1], got {alpha}"
            );
        }
        CrossEntropyLoss {
            pad_tokens: self.pad_tokens.clone(),
            weights: class_weights("CrossEntropyLossConfig", &self.weights, device),
            smoothing: self.smoothing,
            logits: self.logits,
        }
    }
}

pub(crate) fn class_weights(
    name: &str,
    weights: &Option<Vec<f32>>,
    device: &Device,
) -> Option<Tensor<1>> {
    weights.as_ref().map(|w| {
        assert!(
            w.iter().all(|&v| v >= 0.0),
            "{name}::init: class weights must be non-negative, got {w:?}"
        );
        Tensor::from_data(TensorData::new(w.clone(), [w.len()]), device)
    })
}

impl CrossEntropyLoss {
    /// The loss of `input` `[batch, num_classes]` (logits or probabilities)
    /// against `targets` `[batch]` (class indices); shape `[1]`.
    ///
    /// # Panics
    /// If the batch sizes differ, or the class weights are not one per class.
    pub fn forward(&self, input: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        let log_probs = if self.logits {
            activation::log_softmax(input, 1)
        } else {
            input.log()
        };
        weighted_nll(
            "CrossEntropyLoss",
            log_probs,
            targets,
            self.weights.clone(),
            self.pad_tokens.as_deref(),
            self.smoothing.map(f64::from),
        )
    }
}

/// Configuration of an [`NllLoss`].
#[derive(Config, Debug)]
pub struct NllLossConfig {
    /// Ignored target classes (PyTorch's `ignore_index`, several allowed).
    pub pad_tokens: Option<Vec<usize>>,
    /// One weight per class.
    pub weights: Option<Vec<f32>>,
}

/// Negative log likelihood of target classes given log-probabilities,
/// averaged over the weighted, non-ignored samples (PyTorch's `F.nll_loss`).
#[derive(Module, Debug)]
pub struct NllLoss {
    /// Ignored target classes.
    pub pad_tokens: Option<Vec<usize>>,
    /// Per-class weights (a constant tensor).
    pub weights: Option<Tensor<1>>,
}

impl NllLossConfig {
    /// Builds the loss; class weights live on `device`.
    pub fn init(&self, device: &Device) -> NllLoss {
        NllLoss {
            pad_tokens: self.pad_tokens.clone(),
            weights: class_weights("NllLossConfig", &self.weights, device),
        }
    }
}

impl NllLoss {
    /// The loss of `log_probs` `[batch, num_classes]` against `targets`
    /// `[batch]`; shape `[1]`.
    pub fn forward(&self, log_probs: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        weighted_nll(
            "NllLoss",
            log_probs,
            targets,
            self.weights.clone(),
            self.pad_tokens.as_deref(),
            None,
        )
    }
}

/// The weighted mean of `-log_probs[i, targets[i]]`, with label smoothing.
///
/// With `w_i = weights[targets[i]]` (1 without weights, 0 for ignored
/// samples) and `C` classes, as PyTorch:
///
/// ```text
/// nll    = Σ_i w_i · −log p[i, t_i]            / Σ_i w_i
/// smooth = Σ_i keep_i · Σ_c weights_c · −log p[i, c] / Σ_i w_i
/// loss   = (1 − ε)·nll + (ε / C)·smooth
/// ```
fn weighted_nll(
    name: &str,
    log_probs: Tensor<2>,       // [batch, classes]
    targets: Tensor<1, Int>,    // [batch]
    weights: Option<Tensor<1>>, // [classes]
    pad_tokens: Option<&[usize]>,
    smoothing: Option<f64>,
) -> Tensor<1> {
    let [batch, classes] = log_probs.dims();
    let [n_targets] = targets.dims();
    assert_eq!(
        batch, n_targets,
        "{name}::forward: {batch} predictions but {n_targets} targets"
    );
    if let Some(w) = &weights {
        assert_eq!(
            w.dims()[0],
            classes,
            "{name}::forward: {} class weights for {classes} classes",
            w.dims()[0]
        );
    }
    let device = log_probs.device();

    // keep: [batch], 0 for ignored samples.
    let keep = pad_tokens.filter(|pads| !pads.is_empty()).map(|pads| {
        let mut ignored = targets.clone().equal_elem(pads[0] as i64);
        for &pad in &pads[1..] {
            ignored = ignored.bool_or(targets.clone().equal_elem(pad as i64));
        }
        ignored.bool_not().float()
    });
    // A pad class may lie outside the class range; its samples weigh 0,
    // so clamping their index only keeps the lookups in bounds.
    let index = targets.clamp(0, classes.saturating_sub(1) as i64);
    // w: [batch], the weight of each sample's target (0 if ignored).
    let w = match (&weights, &keep) {
        (Some(weights), Some(keep)) => weights.clone().select(0, index.clone()) * keep.clone(),
        (Some(weights), None) => weights.clone().select(0, index.clone()),
        (None, Some(keep)) => keep.clone(),
        (None, None) => Tensor::ones([batch], (&device, log_probs.dtype())),
    };
    let index = index.reshape([batch, 1]);
    let picked = log_probs.clone().gather(1, index).reshape([batch]);
    let denominator = w.clone().sum();
    let nll = (picked * w).sum().neg() / denominator.clone();

    match smoothing {
        Some(eps) if eps > 0.0 => {
            // Σ_c weights_c · log p[i, c]: [batch]
            let per_sample = match weights {
                Some(weights) => (log_probs * weights.unsqueeze::<2>()).sum_dim(1),
                None => log_probs.sum_dim(1),
            }
            .reshape([batch]);
            let per_sample = match keep {
                Some(keep) => per_sample * keep,
                None => per_sample,
            };
            let smooth = per_sample.sum().neg() / denominator;
            nll * (1.0 - eps) + smooth * (eps / classes as f64)
        }
        _ => nll,
    }
}
