//! [`AurocMetric`]: the area under the ROC curve.

use std::string::String;
use std::vec::Vec;

use super::{ClassificationInput, HostScores, Metric, MetricEntry, MetricMetadata, Numeric};

/// The area under the ROC curve, in percent.
///
/// A single-column output is the score of class 1 of a binary task. With
/// several columns the scores are turned into probabilities with a softmax
/// and each class is scored against the rest; the value is the mean over
/// the classes that have both positive and negative samples (one-vs-rest
/// macro AUROC, as scikit-learn's `roc_auc_score(multi_class="ovr")`).
/// With two columns this is the binary AUROC of either class.
///
/// The area is the probability that a random positive scores above a
/// random negative, ties counting one half (the Mann–Whitney statistic).
/// The epoch value is computed over every sample of the epoch, which the
/// metric keeps until [`clear`](Metric::clear).
#[derive(Clone, Debug, Default)]
pub struct AurocMetric {
    probabilities: Vec<f64>,
    targets: Vec<i64>,
    classes: usize,
    last: f64,
}

impl AurocMetric {
    /// An AUROC metric.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Softmax of each row (a single column is kept as it is).
fn probabilities(host: &HostScores) -> Vec<f64> {
    if host.classes == 1 {
        return host.scores.clone();
    }
    let mut out = Vec::with_capacity(host.scores.len());
    for i in 0..host.len() {
        let row = host.row(i);
        let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = row.iter().map(|&s| (s - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        out.extend(exps.iter().map(|e| e / sum));
    }
    out
}

/// The AUROC of `scores` for `positive` labels, `None` without both kinds.
fn binary_auroc(scores: &[f64], positive: &[bool]) -> Option<f64> {
    let n_pos = positive.iter().filter(|&&p| p).count();
    let n_neg = positive.len() - n_pos;
    if n_pos == 0 || n_neg == 0 {
        return None;
    }
    // Rank the scores (1-based, ties get their average rank); the sum of
    // the positives' ranks gives U = R⁺ − n⁺(n⁺ + 1)/2 and AUROC = U / (n⁺n⁻).
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let mut rank_sum = 0.0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && scores[order[end]] == scores[order[start]] {
            end += 1;
        }
        let average_rank = (start + 1 + end) as f64 / 2.0;
        rank_sum +=
            average_rank * order[start..end].iter().filter(|&&i| positive[i]).count() as f64;
        start = end;
    }
    let (n_pos, n_neg) = (n_pos as f64, n_neg as f64);
    Some((rank_sum - n_pos * (n_pos + 1.0) / 2.0) / (n_pos * n_neg))
}

/// Macro one-vs-rest AUROC of row-major `probabilities` (NaN when no class
/// has both positives and negatives).
fn auroc(probabilities: &[f64], classes: usize, targets: &[i64]) -> f64 {
    if classes == 1 {
        let positive: Vec<bool> = targets.iter().map(|&t| t == 1).collect();
        return binary_auroc(probabilities, &positive).unwrap_or(f64::NAN);
    }
    let mut sum = 0.0;
    let mut counted = 0;
    for class in 0..classes {
        let scores: Vec<f64> = (0..targets.len())
            .map(|i| probabilities[i * classes + class])
            .collect();
        let positive: Vec<bool> = targets.iter().map(|&t| t == class as i64).collect();
        if let Some(area) = binary_auroc(&scores, &positive) {
            sum += area;
            counted += 1;
        }
    }
    if counted == 0 {
        f64::NAN
    } else {
        sum / counted as f64
    }
}

impl Metric for AurocMetric {
    type Input = ClassificationInput;

    fn name(&self) -> String {
        "AUROC".into()
    }

    fn update(&mut self, item: &ClassificationInput, _metadata: &MetricMetadata) -> MetricEntry {
        let host = item.to_host();
        let probs = probabilities(&host);
        self.classes = host.classes;
        self.last = 100.0 * auroc(&probs, host.classes, &host.targets);
        self.probabilities.extend_from_slice(&probs);
        self.targets.extend_from_slice(&host.targets);
        MetricEntry {
            name: self.name(),
            formatted: format!(
                "{} (epoch {})",
                super::base::format_value(self.last, " %"),
                super::base::format_value(self.running_value(), " %")
            ),
            serialized: format!("{}", self.last),
        }
    }

    fn clear(&mut self) {
        self.probabilities.clear();
        self.targets.clear();
    }
}

impl Numeric for AurocMetric {
    fn value(&self) -> f64 {
        self.last
    }

    fn running_value(&self) -> f64 {
        100.0 * auroc(&self.probabilities, self.classes.max(1), &self.targets)
    }
}
