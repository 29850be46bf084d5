//! [`PerplexityMetric`]: how surprised a language model is by its targets.

use std::sync::Arc;

use burn_tensor::{Int, Tensor, TensorReadError};

use super::host::{HostScores, read_targets};
use super::state::FormatOptions;
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

/// The input of [`PerplexityMetric`]: logits and target tokens, one row per
/// token (a `[batch, seq, vocab]` output reshaped to `[batch·seq, vocab]`).
#[derive(Clone, Debug)]
pub struct PerplexityInput {
    /// Logits, `[tokens, vocab]`.
    pub outputs: Tensor<2>,
    /// The target token of each row, `[tokens]`.
    pub targets: Tensor<1, Int>,
}

impl PerplexityInput {
    /// Wraps logits and targets.
    pub fn new(outputs: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self { outputs, targets }
    }
}

/// Perplexity, `exp` of the mean negative log-likelihood of the targets
/// under the softmax of the logits:
///
/// ```text
/// nll_i = logsumexp(logits_i) − logits_i[target_i]
/// PPL   = exp(Σ nll_i / N)
/// ```
///
/// A uniform guess over `V` tokens scores `V`; a perfect model 1. Tokens
/// whose target is the pad token (if set) are left out. The epoch value is
/// computed from the summed log-likelihood of every token of the epoch, not
/// as a mean of batch perplexities (which would overweight bad batches).
#[derive(Clone, Debug)]
pub struct PerplexityMetric {
    name: MetricName,
    pad_token: Option<usize>,
    sum_nll: f64,
    tokens: usize,
    current: f64,
    current_tokens: usize,
}

impl Default for PerplexityMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl PerplexityMetric {
    /// A perplexity metric, named `"Perplexity"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Perplexity".into()),
            pad_token: None,
            sum_nll: 0.0,
            tokens: 0,
            current: f64::NAN,
            current_tokens: 0,
        }
    }

    /// Leaves out the tokens whose target is `index`.
    pub fn with_pad_token(mut self, index: usize) -> Self {
        self.pad_token = Some(index);
        self
    }

    fn epoch(&self) -> f64 {
        if self.tokens == 0 {
            f64::NAN
        } else {
            (self.sum_nll / self.tokens as f64).exp()
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name()).precision(3)
    }
}

/// `(Σ nll, tokens)` of one batch, in f64.
fn negative_log_likelihood(
    scores: &HostScores,
    targets: &[i64],
    pad_token: Option<usize>,
) -> (f64, usize) {
    let mut sum = 0.0;
    let mut tokens = 0;
    for (i, &target) in targets.iter().enumerate() {
        if pad_token.is_some_and(|pad| target == pad as i64) {
            continue;
        }
        let row = scores.row(i);
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_sum_exp = max + row.iter().map(|&s| (s - max).exp()).sum::<f64>().ln();
        let target_score = usize::try_from(target)
            .ok()
            .and_then(|t| row.get(t))
            .copied()
            // A target outside the vocabulary has probability 0.
            .unwrap_or(f64::NEG_INFINITY);
        sum += log_sum_exp - target_score;
        tokens += 1;
    }
    (sum, tokens)
}

impl Metric for PerplexityMetric {
    type Input = PerplexityInput;

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: None,
            higher_is_better: false,
        }
        .into()
    }

    fn update(
        &mut self,
        item: &PerplexityInput,
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let scores = HostScores::read(&item.outputs)?;
        let targets = read_targets("PerplexityMetric", &scores, &item.targets)?;
        let (nll, tokens) = negative_log_likelihood(&scores, &targets, self.pad_token);
        self.current = if tokens == 0 {
            f64::NAN
        } else {
            (nll / tokens as f64).exp()
        };
        self.current_tokens = tokens;
        self.sum_nll += nll;
        self.tokens += tokens;
        let format = self.format();
        Ok(SerializedEntry::new(
            format!(
                "{} (epoch {})",
                format.show(self.current),
                format.show(self.epoch())
            ),
            self.value().map(|v| v.serialize()).unwrap_or_default(),
        ))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(SerializedEntry::new(
            self.format().show(self.epoch()),
            self.final_value().serialize(),
        ))
    }

    fn clear(&mut self) {
        *self = Self {
            name: self.name.clone(),
            pad_token: self.pad_token,
            ..Self::new()
        };
    }
}

impl Numeric for PerplexityMetric {
    fn value(&self) -> Option<NumericEntry> {
        Some(NumericEntry::Aggregated {
            aggregated_value: self.current,
            count: self.current_tokens,
        })
    }

    fn running_value(&self) -> Option<NumericEntry> {
        Some(NumericEntry::Aggregated {
            aggregated_value: self.epoch(),
            count: self.tokens,
        })
    }

    fn final_value(&self) -> NumericEntry {
        NumericEntry::Final(self.epoch())
    }
}
