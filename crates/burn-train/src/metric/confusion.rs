//! Metrics from the confusion counts of each class: [`PrecisionMetric`],
//! [`RecallMetric`], [`FBetaScoreMetric`], and their input
//! [`ConfusionStatsInput`].
//!
//! The input holds scores `[batch, classes]` and multi-hot targets of the
//! same shape. A [decision rule](DecisionRule) turns scores into predicted
//! positives: a threshold (binary tasks, with one column; multi-label
//! tasks), or the `k` highest scores of a row (multi-class tasks). Each
//! class then has true positive, false positive and false negative counts,
//! and the classes are reduced to one number:
//!
//! - [`ClassReduction::Micro`]: counts summed over classes first (for
//!   single-label multi-class data with `k = 1`, micro precision and recall
//!   both equal accuracy);
//! - [`ClassReduction::Macro`]: the metric per class, then the unweighted
//!   mean over the classes that occur as a target or a prediction.
//!
//! Values are in percent. A ratio with a zero denominator is 0 (scikit-
//! learn's `zero_division=0`). The epoch value is computed from the counts
//! of the whole epoch, not as a mean of batch values.

use std::sync::Arc;
use std::vec::Vec;

use burn_tensor::{Bool, Tensor, TensorReadError};

use super::host::{HostScores, read_labels};
use super::state::FormatOptions;
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

/// The input of the confusion-count metrics and of
/// [`AurocMetric`](super::AurocMetric).
#[derive(Clone, Debug)]
pub struct ConfusionStatsInput {
    /// Scores (probabilities, or logits with a top-k rule), `[batch, classes]`.
    pub predictions: Tensor<2>,
    /// Multi-hot targets, `[batch, classes]`: one `true` per row for a
    /// single-label task.
    pub targets: Tensor<2, Bool>,
}

impl ConfusionStatsInput {
    /// Wraps scores and targets.
    pub fn new(predictions: Tensor<2>, targets: Tensor<2, Bool>) -> Self {
        Self {
            predictions,
            targets,
        }
    }
}

impl From<(Tensor<2>, Tensor<2, Bool>)> for ConfusionStatsInput {
    fn from((predictions, targets): (Tensor<2>, Tensor<2, Bool>)) -> Self {
        Self::new(predictions, targets)
    }
}

impl From<ConfusionStatsInput> for (Tensor<2>, Tensor<2, Bool>) {
    fn from(input: ConfusionStatsInput) -> Self {
        (input.predictions, input.targets)
    }
}

/// How per-class values become one number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClassReduction {
    /// Sum the counts over classes, then compute.
    Micro,
    /// Compute per class, then average.
    #[default]
    Macro,
}

/// How scores become predicted positives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DecisionRule {
    /// A class is predicted when its score exceeds the threshold.
    Threshold(f64),
    /// The `k` highest-scoring classes of a row are predicted (ties go to
    /// the lower class index).
    TopK(usize),
}

impl core::fmt::Display for DecisionRule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DecisionRule::Threshold(threshold) => write!(f, "Threshold({threshold})"),
            DecisionRule::TopK(k) => write!(f, "TopK({k})"),
        }
    }
}

/// Per-class true positive, false positive and false negative counts.
#[derive(Clone, Debug, Default, PartialEq)]
struct Counts {
    tp: Vec<f64>,
    fp: Vec<f64>,
    fn_: Vec<f64>,
}

impl Counts {
    fn new(classes: usize) -> Self {
        Self {
            tp: vec![0.0; classes],
            fp: vec![0.0; classes],
            fn_: vec![0.0; classes],
        }
    }

    fn of_batch(scores: &HostScores, targets: &[bool], rule: DecisionRule) -> Self {
        let classes = scores.classes;
        let mut counts = Self::new(classes);
        let mut predicted = vec![false; classes];
        let mut order: Vec<usize> = (0..classes).collect();
        for i in 0..scores.len() {
            let row = scores.row(i);
            match rule {
                DecisionRule::Threshold(threshold) => {
                    for (p, &score) in predicted.iter_mut().zip(row) {
                        *p = score > threshold;
                    }
                }
                DecisionRule::TopK(k) => {
                    order.sort_by(|&a, &b| row[b].total_cmp(&row[a]).then(a.cmp(&b)));
                    predicted.fill(false);
                    for &class in order.iter().take(k) {
                        predicted[class] = true;
                    }
                }
            }
            for c in 0..classes {
                match (predicted[c], targets[i * classes + c]) {
                    (true, true) => counts.tp[c] += 1.0,
                    (true, false) => counts.fp[c] += 1.0,
                    (false, true) => counts.fn_[c] += 1.0,
                    (false, false) => {}
                }
            }
        }
        counts
    }

    fn merge(&mut self, other: &Self) {
        if self.tp.len() < other.tp.len() {
            self.tp.resize(other.tp.len(), 0.0);
            self.fp.resize(other.tp.len(), 0.0);
            self.fn_.resize(other.tp.len(), 0.0);
        }
        for c in 0..other.tp.len() {
            self.tp[c] += other.tp[c];
            self.fp[c] += other.fp[c];
            self.fn_[c] += other.fn_[c];
        }
    }

    /// `(tp, fp, fn)` of the classes a macro mean covers: those that occur
    /// as a target or a prediction (a binary task keeps its one column).
    fn present(&self) -> Vec<(f64, f64, f64)> {
        let binary = self.tp.len() == 1;
        (0..self.tp.len())
            .map(|c| (self.tp[c], self.fp[c], self.fn_[c]))
            .filter(|&(tp, fp, fn_)| binary || tp + fp + fn_ > 0.0)
            .collect()
    }
}

/// `num / den`, 0 when the denominator is 0.
fn ratio(num: f64, den: f64) -> f64 {
    if den == 0.0 { 0.0 } else { num / den }
}

/// Which quantity a confusion metric reports.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Precision,
    Recall,
    FBeta(f64),
}

impl Kind {
    fn compute(self, tp: f64, fp: f64, fn_: f64) -> f64 {
        let precision = ratio(tp, tp + fp);
        let recall = ratio(tp, tp + fn_);
        match self {
            Kind::Precision => precision,
            Kind::Recall => recall,
            // F_β = (1 + β²)·P·R / (β²·P + R)
            Kind::FBeta(beta) => {
                let b2 = beta * beta;
                ratio((1.0 + b2) * precision * recall, b2 * precision + recall)
            }
        }
    }

    /// The reduced value in percent (NaN with no class to reduce over).
    fn reduce(self, counts: &Counts, reduction: ClassReduction) -> f64 {
        let classes = counts.present();
        if classes.is_empty() {
            return f64::NAN;
        }
        let value = match reduction {
            ClassReduction::Micro => {
                let (tp, fp, fn_) = classes.iter().fold((0.0, 0.0, 0.0), |acc, c| {
                    (acc.0 + c.0, acc.1 + c.1, acc.2 + c.2)
                });
                self.compute(tp, fp, fn_)
            }
            ClassReduction::Macro => {
                let sum: f64 = classes
                    .iter()
                    .map(|&(tp, fp, fn_)| self.compute(tp, fp, fn_))
                    .sum();
                sum / classes.len() as f64
            }
        };
        100.0 * value
    }
}

/// The machinery shared by precision, recall and F-score.
#[derive(Clone, Debug)]
struct ConfusionMetric {
    name: MetricName,
    kind: Kind,
    rule: DecisionRule,
    reduction: ClassReduction,
    epoch: Counts,
    last: f64,
}

impl ConfusionMetric {
    fn new(label: &str, kind: Kind, rule: DecisionRule, reduction: ClassReduction) -> Self {
        if let DecisionRule::TopK(k) = rule {
            assert!(k > 0, "{label}: top_k must be at least 1");
        }
        Self {
            name: Arc::new(format!("{label} @ {rule} [{reduction:?}]")),
            kind,
            rule,
            reduction,
            epoch: Counts::default(),
            last: f64::NAN,
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name.clone()).unit("%").precision(2)
    }

    fn update(&mut self, item: &ConfusionStatsInput) -> Result<SerializedEntry, TensorReadError> {
        let scores = HostScores::read(&item.predictions)?;
        let targets = read_labels(&self.name, &scores, &item.targets)?;
        let batch = Counts::of_batch(&scores, &targets, self.rule);
        self.epoch.merge(&batch);
        self.last = self.kind.reduce(&batch, self.reduction);
        let format = self.format();
        Ok(SerializedEntry::new(
            format!(
                "{} (epoch {})",
                format.show(self.last),
                format.show(self.running())
            ),
            NumericEntry::Value(self.last).serialize(),
        ))
    }

    fn running(&self) -> f64 {
        self.kind.reduce(&self.epoch, self.reduction)
    }

    fn compute(&self) -> SerializedEntry {
        SerializedEntry::new(
            self.format().show(self.running()),
            NumericEntry::Final(self.running()).serialize(),
        )
    }
}

macro_rules! confusion_metric {
    ($(#[$doc:meta])* $name:ident, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            inner: ConfusionMetric,
        }

        impl Metric for $name {
            type Input = ConfusionStatsInput;

            fn name(&self) -> MetricName {
                self.inner.name.clone()
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
                self.inner.update(item)
            }

            fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
                Ok(self.inner.compute())
            }

            fn clear(&mut self) {
                self.inner.epoch = Counts::default();
                self.inner.last = f64::NAN;
            }
        }

        impl Numeric for $name {
            fn value(&self) -> Option<NumericEntry> {
                Some(NumericEntry::Value(self.inner.last))
            }

            fn running_value(&self) -> Option<NumericEntry> {
                Some(NumericEntry::Value(self.inner.running()))
            }

            fn final_value(&self) -> NumericEntry {
                NumericEntry::Final(self.inner.running())
            }
        }
    };
}

confusion_metric!(
    /// Precision, `TP / (TP + FP)`: the share of predicted positives that
    /// are right, in percent.
    ///
    /// ```
    /// use burn_tensor::{Bool, Device, Tensor};
    /// use burn_train::metric::{ClassReduction, ConfusionStatsInput, Metric, MetricMetadata, Numeric, PrecisionMetric};
    /// use burn_core::data::dataloader::Progress;
    ///
    /// let device = Device::flex();
    /// // Top-1 predictions: class 1, 1, 0; targets: 1, 0, 0.
    /// let scores = Tensor::<2>::from_data([[0.2, 0.8], [0.3, 0.7], [0.9, 0.1]], &device);
    /// let targets = Tensor::<2, Bool>::from_data([[false, true], [true, false], [true, false]], &device);
    /// let mut metric = PrecisionMetric::multiclass(1, ClassReduction::Micro);
    /// let meta = MetricMetadata { progress: Progress::new(3, 3), iteration: Some(1), lr: None };
    /// metric.update(&ConfusionStatsInput::new(scores, targets), &meta)?;
    /// // Micro: 2 right out of 3 predictions.
    /// assert!((metric.value().unwrap().current() - 200.0 / 3.0).abs() < 1e-9);
    /// # Ok::<(), burn_tensor::TensorReadError>(())
    /// ```
    PrecisionMetric,
    "Precision"
);

confusion_metric!(
    /// Recall, `TP / (TP + FN)`: the share of actual positives that are
    /// predicted, in percent.
    RecallMetric,
    "Recall"
);

confusion_metric!(
    /// The F-β score, `(1 + β²)·P·R / (β²·P + R)` of precision `P` and
    /// recall `R`, in percent: β = 1 weighs both equally (F1), β > 1
    /// favours recall.
    FBetaScoreMetric,
    "FBetaScore"
);

macro_rules! confusion_constructors {
    ($name:ident, $label:literal, $kind:expr) => {
        impl Default for $name {
            /// A binary metric with threshold 0.5.
            fn default() -> Self {
                Self::binary(0.5)
            }
        }

        impl $name {
            /// For a binary task: one score column, a positive when the
            /// score exceeds `threshold`.
            pub fn binary(threshold: f64) -> Self {
                Self {
                    inner: ConfusionMetric::new(
                        $label,
                        $kind,
                        DecisionRule::Threshold(threshold),
                        ClassReduction::default(),
                    ),
                }
            }

            /// For a multi-class task: the `top_k` highest scores of a row
            /// are its predictions (usually `top_k = 1`).
            ///
            /// # Panics
            /// If `top_k` is 0.
            pub fn multiclass(top_k: usize, class_reduction: ClassReduction) -> Self {
                Self {
                    inner: ConfusionMetric::new(
                        $label,
                        $kind,
                        DecisionRule::TopK(top_k),
                        class_reduction,
                    ),
                }
            }

            /// For a multi-label task: each class whose score exceeds
            /// `threshold` is predicted.
            pub fn multilabel(threshold: f64, class_reduction: ClassReduction) -> Self {
                Self {
                    inner: ConfusionMetric::new(
                        $label,
                        $kind,
                        DecisionRule::Threshold(threshold),
                        class_reduction,
                    ),
                }
            }
        }
    };
}

confusion_constructors!(PrecisionMetric, "Precision", Kind::Precision);
confusion_constructors!(RecallMetric, "Recall", Kind::Recall);

impl Default for FBetaScoreMetric {
    /// A binary F1 score with threshold 0.5.
    fn default() -> Self {
        Self::binary(1.0, 0.5)
    }
}

impl FBetaScoreMetric {
    fn with(beta: f64, rule: DecisionRule, reduction: ClassReduction) -> Self {
        assert!(
            beta > 0.0,
            "FBetaScoreMetric: beta must be positive, got {beta}"
        );
        let label = format!("FBetaScore ({beta})");
        Self {
            inner: ConfusionMetric::new(&label, Kind::FBeta(beta), rule, reduction),
        }
    }

    /// For a binary task (see [`PrecisionMetric::binary`]).
    ///
    /// # Panics
    /// If `beta` is not positive.
    pub fn binary(beta: f64, threshold: f64) -> Self {
        Self::with(
            beta,
            DecisionRule::Threshold(threshold),
            ClassReduction::default(),
        )
    }

    /// For a multi-class task (see [`PrecisionMetric::multiclass`]).
    ///
    /// # Panics
    /// If `beta` is not positive or `top_k` is 0.
    pub fn multiclass(beta: f64, top_k: usize, class_reduction: ClassReduction) -> Self {
        Self::with(beta, DecisionRule::TopK(top_k), class_reduction)
    }

    /// For a multi-label task (see [`PrecisionMetric::multilabel`]).
    ///
    /// # Panics
    /// If `beta` is not positive.
    pub fn multilabel(beta: f64, threshold: f64, class_reduction: ClassReduction) -> Self {
        Self::with(beta, DecisionRule::Threshold(threshold), class_reduction)
    }
}
