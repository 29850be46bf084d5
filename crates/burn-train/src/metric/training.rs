//! Metrics that read the training metadata rather than an output:
//! [`LearningRateMetric`] and [`IterationSpeedMetric`].

use std::sync::Arc;
use std::time::Instant;

use burn_tensor::TensorReadError;

use super::state::{FormatOptions, NumericMetricState};
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

/// The learning rate of the update each batch made.
///
/// Batches that made no update (gradient accumulation between two steps)
/// report the rate of the last update.
#[derive(Clone, Debug)]
pub struct LearningRateMetric {
    name: MetricName,
    state: NumericMetricState,
}

impl Default for LearningRateMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl LearningRateMetric {
    /// A learning rate metric, named `"Learning Rate"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Learning Rate".into()),
            state: NumericMetricState::new(),
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name()).precision(2)
    }
}

impl Metric for LearningRateMetric {
    type Input = ();

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
        _item: &(),
        metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let lr = metadata.lr.unwrap_or(f64::NAN);
        self.state.update(lr, 1);
        let mut entry = self.state.compute_update(self.format());
        // The epoch mean of a schedule says little: show the rate itself.
        entry.formatted = self.format().show(lr);
        Ok(entry)
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(self.format()))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for LearningRateMetric {
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

/// Iterations (batches) per second since the pass started.
///
/// The first update of a pass starts the clock and reports 0; each later
/// one reports the iterations since then over the time since then, so the
/// value settles as the pass goes on. Without an iteration number in the
/// metadata, items processed stand in for iterations.
#[derive(Clone, Debug)]
pub struct IterationSpeedMetric {
    name: MetricName,
    state: NumericMetricState,
    start: Option<(Instant, usize)>,
}

impl Default for IterationSpeedMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl IterationSpeedMetric {
    /// An iteration speed metric, named `"Iteration Speed"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Iteration Speed".into()),
            state: NumericMetricState::new(),
            start: None,
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name())
            .unit("iter/sec")
            .precision(2)
    }
}

impl Metric for IterationSpeedMetric {
    type Input = ();

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: Some("iter/sec".into()),
            higher_is_better: true,
        }
        .into()
    }

    fn update(
        &mut self,
        _item: &(),
        metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let now = Instant::now();
        let done = metadata
            .iteration
            .unwrap_or(metadata.progress.items_processed);
        let speed = match self.start {
            None => {
                self.start = Some((now, done));
                0.0
            }
            Some((since, before)) => {
                let seconds = now.duration_since(since).as_secs_f64();
                if seconds > 0.0 {
                    done.saturating_sub(before) as f64 / seconds
                } else {
                    0.0
                }
            }
        };
        self.state.update(speed, 1);
        Ok(self.state.compute_update(self.format()))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(self.format()))
    }

    fn clear(&mut self) {
        self.state.reset();
        self.start = None;
    }
}

impl Numeric for IterationSpeedMetric {
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
