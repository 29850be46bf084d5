//! [`AurocMetric`]: the area under the ROC curve.

use std::sync::Arc;
use std::vec::Vec;

use burn_tensor::TensorReadError;

use super::host::{HostScores, read_labels};
use super::state::FormatOptions;
use super::{
    ClassReduction, ConfusionStatsInput, Metric, MetricAttributes, MetricMetadata, MetricName,
    Numeric, NumericAttributes, NumericEntry, SerializedEntry,
};

/// What the score columns are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// One column: the score of the positive class.
    Binary,
    /// One column per class, logits or probabilities of a single label:
    /// rows go through a softmax first, as one-vs-rest AUROC is defined on
    /// probabilities.
    Multiclass,
    /// One column per label, each scored on its own.
    Multilabel,
}

/// The area under the ROC curve, in percent: the probability that a random
/// positive scores above a random negative, ties counting one half (the
/// Mann–Whitney statistic).
///
/// Each column is scored one-vs-rest against its targets, then the columns
/// are reduced: [`ClassReduction::Macro`] averages the columns that have
/// both positives and negatives (scikit-learn's `average="macro"`),
/// [`ClassReduction::Micro`] pools every (score, target) pair into one
/// binary problem.
///
/// The epoch value is computed at the end of the pass over every sample of
/// the epoch, which the metric keeps until [`clear`](Metric::clear); the
/// batch value is the AUROC of the batch alone. With no positive or no
/// negative, the AUROC is undefined and reported as NaN.
#[derive(Clone, Debug)]
pub struct AurocMetric {
    name: MetricName,
    task: Task,
    reduction: ClassReduction,
    scores: Vec<f64>,
    labels: Vec<bool>,
    classes: usize,
    last: f64,
    epoch: Option<f64>,
}

impl Default for AurocMetric {
    /// A binary AUROC.
    fn default() -> Self {
        Self::binary()
    }
}

impl AurocMetric {
    fn with(task: Task, reduction: ClassReduction) -> Self {
        Self {
            name: Arc::new(format!("AUROC [{reduction:?}]")),
            task,
            reduction,
            scores: Vec::new(),
            labels: Vec::new(),
            classes: 0,
            last: f64::NAN,
            epoch: None,
        }
    }

    /// For a binary task: one score column.
    pub fn binary() -> Self {
        Self::with(Task::Binary, ClassReduction::Macro)
    }

    /// For a multi-class task: one column per class (softmax applied).
    pub fn multiclass(class_reduction: ClassReduction) -> Self {
        Self::with(Task::Multiclass, class_reduction)
    }

    /// For a multi-label task: one column per label.
    pub fn multilabel(class_reduction: ClassReduction) -> Self {
        Self::with(Task::Multilabel, class_reduction)
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name.clone()).unit("%").precision(2)
    }
}

/// Row-wise softmax of row-major `scores`.
fn softmax_rows(scores: &mut [f64], classes: usize) {
    for row in scores.chunks_mut(classes.max(1)) {
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for s in row.iter_mut() {
            *s = (*s - max).exp();
            sum += *s;
        }
        for s in row.iter_mut() {
            *s /= sum;
        }
    }
}

/// The AUROC of `scores` for `positive` labels, `None` without both kinds.
fn binary_auroc(scores: &[f64], positive: &[bool]) -> Option<f64> {
    let n_pos = positive.iter().filter(|&&p| p).count();
    let n_neg = positive.len() - n_pos;
    if n_pos == 0 || n_neg == 0 {
        return None;
    }
    // Rank the scores (1-based, ties get their average rank); the rank sum
    // of the positives gives U = R⁺ − n⁺(n⁺ + 1)/2 and AUROC = U / (n⁺n⁻).
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
        let positives = order[start..end].iter().filter(|&&i| positive[i]).count();
        rank_sum += average_rank * positives as f64;
        start = end;
    }
    let (n_pos, n_neg) = (n_pos as f64, n_neg as f64);
    Some((rank_sum - n_pos * (n_pos + 1.0) / 2.0) / (n_pos * n_neg))
}

/// The reduced AUROC in percent of row-major `scores` and `labels`.
fn auroc(scores: &[f64], labels: &[bool], classes: usize, reduction: ClassReduction) -> f64 {
    let area = match (classes, reduction) {
        (0, _) => None,
        (1, _) | (_, ClassReduction::Micro) => binary_auroc(scores, labels),
        (_, ClassReduction::Macro) => {
            let rows = scores.len() / classes;
            let areas: Vec<f64> = (0..classes)
                .filter_map(|c| {
                    let column: Vec<f64> = (0..rows).map(|i| scores[i * classes + c]).collect();
                    let positive: Vec<bool> = (0..rows).map(|i| labels[i * classes + c]).collect();
                    binary_auroc(&column, &positive)
                })
                .collect();
            (!areas.is_empty()).then(|| areas.iter().sum::<f64>() / areas.len() as f64)
        }
    };
    area.map_or(f64::NAN, |a| 100.0 * a)
}

impl Metric for AurocMetric {
    type Input = ConfusionStatsInput;

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: Some("%".into()),
            higher_is_better: true,
        }
        .into()
    }

    fn update(
        &mut self,
        item: &ConfusionStatsInput,
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let mut host = HostScores::read(&item.predictions)?;
        let labels = read_labels("AurocMetric", &host, &item.targets)?;
        if self.task == Task::Multiclass {
            softmax_rows(&mut host.scores, host.classes);
        }
        self.classes = host.classes;
        self.last = auroc(&host.scores, &labels, host.classes, self.reduction);
        self.scores.extend_from_slice(&host.scores);
        self.labels.extend_from_slice(&labels);
        Ok(SerializedEntry::new(
            format!("{} (batch)", self.format().show(self.last)),
            NumericEntry::Value(self.last).serialize(),
        ))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        let epoch = auroc(&self.scores, &self.labels, self.classes, self.reduction);
        self.epoch = Some(epoch);
        Ok(SerializedEntry::new(
            self.format().show(epoch),
            NumericEntry::Final(epoch).serialize(),
        ))
    }

    fn clear(&mut self) {
        self.scores.clear();
        self.labels.clear();
        self.last = f64::NAN;
        self.epoch = None;
    }
}

impl Numeric for AurocMetric {
    fn value(&self) -> Option<NumericEntry> {
        Some(NumericEntry::Value(self.last))
    }

    /// `None` until the pass ends: the epoch value needs every sample, and
    /// recomputing it after each batch would cost a sort of the whole epoch.
    fn running_value(&self) -> Option<NumericEntry> {
        self.epoch.map(NumericEntry::Value)
    }

    fn final_value(&self) -> NumericEntry {
        NumericEntry::Final(self.epoch.unwrap_or(f64::NAN))
    }
}
