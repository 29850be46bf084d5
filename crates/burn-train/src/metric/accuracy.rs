//! [`AccuracyMetric`] and [`TopKAccuracyMetric`].

use std::sync::Arc;

use burn_tensor::{Int, Tensor, TensorReadError};

use super::host::{HostScores, read_targets};
use super::state::{FormatOptions, NumericMetricState};
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

/// The input of [`AccuracyMetric`]: class scores and target classes.
#[derive(Clone, Debug)]
pub struct AccuracyInput {
    /// Scores (logits or probabilities), `[batch, classes]`.
    pub outputs: Tensor<2>,
    /// The target class of each sample, `[batch]`.
    pub targets: Tensor<1, Int>,
}

impl AccuracyInput {
    /// Wraps scores and targets.
    pub fn new(outputs: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self { outputs, targets }
    }
}

/// The input of [`TopKAccuracyMetric`]: class scores and target classes.
#[derive(Clone, Debug)]
pub struct TopKAccuracyInput {
    /// Scores (logits or probabilities), `[batch, classes]`.
    pub outputs: Tensor<2>,
    /// The target class of each sample, `[batch]`.
    pub targets: Tensor<1, Int>,
}

impl TopKAccuracyInput {
    /// Wraps scores and targets.
    pub fn new(outputs: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self { outputs, targets }
    }
}

fn percent_attributes() -> MetricAttributes {
    NumericAttributes {
        unit: Some("%".into()),
        higher_is_better: true,
    }
    .into()
}

fn percent_format(name: MetricName) -> FormatOptions {
    FormatOptions::new(name).unit("%").precision(2)
}

/// `(hits, counted)` over the samples whose target is not `pad_token`.
fn count_hits(
    scores: &HostScores,
    targets: &[i64],
    pad_token: Option<usize>,
    hit: impl Fn(&[f64], usize, i64) -> bool,
) -> (usize, usize) {
    let mut hits = 0;
    let mut counted = 0;
    for (i, &target) in targets.iter().enumerate() {
        if pad_token.is_some_and(|pad| target == pad as i64) {
            continue;
        }
        counted += 1;
        if hit(scores.row(i), i, target) {
            hits += 1;
        }
    }
    (hits, counted)
}

/// Records `hits / counted` in percent, weighted by `counted`.
fn record_percent(state: &mut NumericMetricState, hits: usize, counted: usize) {
    let value = if counted == 0 {
        f64::NAN
    } else {
        100.0 * hits as f64 / counted as f64
    };
    state.update(value, counted);
}

/// The share of samples whose highest score is the target class, in
/// percent. Samples whose target is the pad token (if one is set) are not
/// counted; the epoch value is hits over counted samples of the epoch.
#[derive(Clone, Debug)]
pub struct AccuracyMetric {
    name: MetricName,
    state: NumericMetricState,
    pad_token: Option<usize>,
}

impl Default for AccuracyMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl AccuracyMetric {
    /// An accuracy metric counting every sample, named `"Accuracy"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Accuracy".into()),
            state: NumericMetricState::new(),
            pad_token: None,
        }
    }

    /// Ignores samples whose target is `index`.
    pub fn with_pad_token(mut self, index: usize) -> Self {
        self.pad_token = Some(index);
        self
    }
}

impl Metric for AccuracyMetric {
    type Input = AccuracyInput;

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        percent_attributes()
    }

    fn update(
        &mut self,
        item: &AccuracyInput,
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let scores = HostScores::read(&item.outputs)?;
        let targets = read_targets("AccuracyMetric", &scores, &item.targets)?;
        let (hits, counted) = count_hits(&scores, &targets, self.pad_token, |_, i, target| {
            scores.argmax(i) as i64 == target
        });
        record_percent(&mut self.state, hits, counted);
        Ok(self.state.compute_update(percent_format(self.name())))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(percent_format(self.name())))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for AccuracyMetric {
    fn value(&self) -> Option<NumericEntry> {
        Some(self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        Some(self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}

/// The share of samples whose target is among the `k` highest scores, in
/// percent. A target tied with the `k`-th score counts as a hit: its rank
/// is the number of classes scoring strictly higher.
#[derive(Clone, Debug)]
pub struct TopKAccuracyMetric {
    name: MetricName,
    k: usize,
    state: NumericMetricState,
    pad_token: Option<usize>,
}

impl Default for TopKAccuracyMetric {
    /// Top-1 accuracy.
    fn default() -> Self {
        Self::new(1)
    }
}

impl TopKAccuracyMetric {
    /// Top-`k` accuracy, named `"Top-K Accuracy @ TopK({k})"`.
    ///
    /// # Panics
    /// If `k` is 0.
    pub fn new(k: usize) -> Self {
        assert!(k > 0, "TopKAccuracyMetric::new: k must be at least 1");
        Self {
            name: Arc::new(format!("Top-K Accuracy @ TopK({k})")),
            k,
            state: NumericMetricState::new(),
            pad_token: None,
        }
    }

    /// Ignores samples whose target is `index`.
    pub fn with_pad_token(mut self, index: usize) -> Self {
        self.pad_token = Some(index);
        self
    }
}

impl Metric for TopKAccuracyMetric {
    type Input = TopKAccuracyInput;

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        percent_attributes()
    }

    fn update(
        &mut self,
        item: &TopKAccuracyInput,
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let scores = HostScores::read(&item.outputs)?;
        let targets = read_targets("TopKAccuracyMetric", &scores, &item.targets)?;
        let k = self.k;
        let (hits, counted) =
            count_hits(
                &scores,
                &targets,
                self.pad_token,
                |row, _, target| match usize::try_from(target).ok().and_then(|t| row.get(t)) {
                    Some(&score) => row.iter().filter(|&&other| other > score).count() < k,
                    None => false,
                },
            );
        record_percent(&mut self.state, hits, counted);
        Ok(self.state.compute_update(percent_format(self.name())))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(percent_format(self.name())))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for TopKAccuracyMetric {
    fn value(&self) -> Option<NumericEntry> {
        Some(self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        Some(self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}
