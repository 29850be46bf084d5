//! [`PrecisionMetric`], [`RecallMetric`] and [`FBetaScoreMetric`]: counts
//! of true and false positives and negatives per class.
//!
//! A sample's predicted class is its highest score, except for a
//! single-column output (a binary task), whose score is the probability of
//! class 1 and is compared with a threshold. The binary case reports class
//! 1 (the positive class) only; the multi-class case reduces over classes:
//!
//! - [`ClassReduction::Micro`]: counts summed over classes first
//!   (for single-label multi-class data, micro precision and recall both
//!   equal accuracy);
//! - [`ClassReduction::Macro`]: the metric per class, then the unweighted
//!   mean over the classes that occur as a target or a prediction.
//!
//! The epoch value is computed from the counts of the whole epoch, not as a
//! mean of batch values.

use std::string::String;
use std::vec::Vec;

use super::{ClassificationInput, HostScores, Metric, MetricEntry, MetricMetadata, Numeric};

/// How per-class counts become one number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClassReduction {
    /// Sum the counts over classes, then compute.
    #[default]
    Micro,
    /// Compute per class, then average.
    Macro,
}

/// True positive, false positive and false negative counts per class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfusionCounts {
    tp: Vec<f64>,
    fp: Vec<f64>,
    fn_: Vec<f64>,
}

impl ConfusionCounts {
    fn grow(&mut self, classes: usize) {
        if self.tp.len() < classes {
            self.tp.resize(classes, 0.0);
            self.fp.resize(classes, 0.0);
            self.fn_.resize(classes, 0.0);
        }
    }

    /// Adds one prediction.
    fn add(&mut self, predicted: usize, target: usize) {
        self.grow(predicted.max(target) + 1);
        if predicted == target {
            self.tp[target] += 1.0;
        } else {
            self.fp[predicted] += 1.0;
            self.fn_[target] += 1.0;
        }
    }

    fn merge(&mut self, other: &Self) {
        self.grow(other.tp.len());
        for c in 0..other.tp.len() {
            self.tp[c] += other.tp[c];
            self.fp[c] += other.fp[c];
            self.fn_[c] += other.fn_[c];
        }
    }

    /// The classes to reduce over, with their counts `(tp, fp, fn)`.
    fn classes(&self, positive_only: bool) -> Vec<(f64, f64, f64)> {
        (0..self.tp.len())
            .filter(|&c| !positive_only || c == 1)
            .map(|c| (self.tp[c], self.fp[c], self.fn_[c]))
            .filter(|&(tp, fp, fn_)| positive_only || tp + fp + fn_ > 0.0)
            .collect()
    }
}

/// Which quantity a [`ConfusionMetric`] reports.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Precision,
    Recall,
    FBeta(f64),
}

/// `num / den`, 0 when the denominator is 0 (no positive predicted, or no
/// positive present: the convention of scikit-learn's `zero_division=0`).
fn ratio(num: f64, den: f64) -> f64 {
    if den == 0.0 { 0.0 } else { num / den }
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

    fn reduce(self, counts: &ConfusionCounts, reduction: ClassReduction, binary: bool) -> f64 {
        let classes = counts.classes(binary);
        if classes.is_empty() {
            return 0.0;
        }
        match reduction {
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
        }
    }
}

/// The shared machinery of precision, recall and F-score.
#[derive(Clone, Debug)]
struct ConfusionMetric {
    kind: Kind,
    reduction: ClassReduction,
    threshold: f64,
    epoch: ConfusionCounts,
    binary: bool,
    last: f64,
}

impl ConfusionMetric {
    fn new(kind: Kind) -> Self {
        Self {
            kind,
            reduction: ClassReduction::Micro,
            threshold: 0.5,
            epoch: ConfusionCounts::default(),
            binary: false,
            last: f64::NAN,
        }
    }

    fn batch_counts(&self, host: &HostScores) -> ConfusionCounts {
        let mut counts = ConfusionCounts::default();
        for (i, &target) in host.targets.iter().enumerate() {
            let predicted = if host.classes == 1 {
                usize::from(host.row(i)[0] >= self.threshold)
            } else {
                host.argmax(i)
            };
            counts.add(predicted, target.max(0) as usize);
        }
        counts
    }

    fn update(&mut self, name: String, item: &ClassificationInput) -> MetricEntry {
        let host = item.to_host();
        self.binary = host.classes == 1;
        let batch = self.batch_counts(&host);
        self.epoch.merge(&batch);
        self.last = 100.0 * self.kind.reduce(&batch, self.reduction, self.binary);
        let epoch = self.running_value();
        MetricEntry {
            name,
            formatted: format!(
                "{} (epoch {})",
                super::base::format_value(self.last, " %"),
                super::base::format_value(epoch, " %")
            ),
            serialized: format!("{}", self.last),
        }
    }

    fn running_value(&self) -> f64 {
        100.0 * self.kind.reduce(&self.epoch, self.reduction, self.binary)
    }
}

macro_rules! confusion_metric {
    ($(#[$doc:meta])* $name:ident, $label:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            inner: ConfusionMetric,
        }

        impl $name {
            /// Reduces over classes as `reduction` says.
            pub fn with_reduction(mut self, reduction: ClassReduction) -> Self {
                self.inner.reduction = reduction;
                self
            }

            /// The probability from which a single-column (binary) output
            /// predicts class 1 (default 0.5).
            pub fn with_threshold(mut self, threshold: f64) -> Self {
                self.inner.threshold = threshold;
                self
            }
        }

        impl Metric for $name {
            type Input = ClassificationInput;

            fn name(&self) -> String {
                let reduction = match (self.inner.binary, self.inner.reduction) {
                    (true, _) => "",
                    (false, ClassReduction::Micro) => " (micro)",
                    (false, ClassReduction::Macro) => " (macro)",
                };
                format!("{}{}", $label(&self.inner.kind), reduction)
            }

            fn update(&mut self, item: &ClassificationInput, _metadata: &MetricMetadata) -> MetricEntry {
                // The name depends on whether the task is binary, known once
                // the first batch is seen.
                self.inner.binary = item.outputs.dims()[1] == 1;
                let name = self.name();
                self.inner.update(name, item)
            }

            fn clear(&mut self) {
                self.inner.epoch = ConfusionCounts::default();
            }
        }

        impl Numeric for $name {
            fn value(&self) -> f64 {
                self.inner.last
            }

            fn running_value(&self) -> f64 {
                self.inner.running_value()
            }
        }
    };
}

fn label(kind: &Kind) -> String {
    match kind {
        Kind::Precision => "Precision".into(),
        Kind::Recall => "Recall".into(),
        Kind::FBeta(beta) if *beta == 1.0 => "F1 Score".into(),
        Kind::FBeta(beta) => format!("F{beta} Score"),
    }
}

confusion_metric!(
    /// Precision `tp / (tp + fp)`, in percent.
    PrecisionMetric,
    label
);
confusion_metric!(
    /// Recall `tp / (tp + fn)`, in percent.
    RecallMetric,
    label
);
confusion_metric!(
    /// The F-score `(1 + β²)·P·R / (β²·P + R)`, in percent (F1 for β = 1).
    FBetaScoreMetric,
    label
);

impl PrecisionMetric {
    /// Micro precision with a 0.5 threshold for binary outputs.
    pub fn new() -> Self {
        Self {
            inner: ConfusionMetric::new(Kind::Precision),
        }
    }
}

impl Default for PrecisionMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl RecallMetric {
    /// Micro recall with a 0.5 threshold for binary outputs.
    pub fn new() -> Self {
        Self {
            inner: ConfusionMetric::new(Kind::Recall),
        }
    }
}

impl Default for RecallMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl FBetaScoreMetric {
    /// The F-β score, micro, with a 0.5 threshold for binary outputs.
    ///
    /// # Panics
    /// If `beta` is not positive.
    pub fn new(beta: f64) -> Self {
        assert!(
            beta > 0.0,
            "FBetaScoreMetric::new: beta must be positive, got {beta}"
        );
        Self {
            inner: ConfusionMetric::new(Kind::FBeta(beta)),
        }
    }

    /// The F1 score (β = 1).
    pub fn f1() -> Self {
        Self::new(1.0)
    }
}
