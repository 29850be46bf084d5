//! The [`Metric`] and [`Numeric`] traits, what a metric is told about
//! training ([`MetricMetadata`]), and what it reports ([`MetricEntry`]).

use std::string::String;

/// How far an epoch has come, in items (samples), not batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Items processed so far in this epoch, the current batch included.
    pub items_processed: usize,
    /// Items in the epoch.
    pub items_total: usize,
}

impl Progress {
    /// The fraction done, in `[0, 1]` (1 for an empty epoch).
    pub fn fraction(&self) -> f64 {
        if self.items_total == 0 {
            1.0
        } else {
            (self.items_processed as f64 / self.items_total as f64).min(1.0)
        }
    }
}

/// Where training stands when a metric is updated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricMetadata {
    /// Progress within the epoch.
    pub progress: Progress,
    /// The epoch, from 1.
    pub epoch: usize,
    /// The number of epochs training was configured for.
    pub epoch_total: usize,
    /// The iteration within the epoch, from 1.
    pub iteration: usize,
    /// The learning rate of the update this batch made (training only).
    pub lr: Option<f64>,
}

/// What a metric reports after an update: its name, a short text for
/// people, and a value for the log files.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricEntry {
    /// The metric's name (also its log file's name).
    pub name: String,
    /// The value as shown by the renderers (`"0.912 (epoch 0.887)"`).
    pub formatted: String,
    /// The batch's value as written to the log (one line per update).
    pub serialized: String,
}

/// A metric: fed one batch at a time, cleared at the end of each epoch.
///
/// `Input` is what the metric reads; a training or validation output type
/// provides it through [`Adaptor`]. The learner calls
/// [`update`](Metric::update) once per batch and [`clear`](Metric::clear)
/// when an epoch (of one split) ends.
pub trait Metric: Send {
    /// What the metric reads from an output.
    type Input;

    /// The metric's name, unique among the metrics of a learner.
    fn name(&self) -> String;

    /// Adds one batch.
    fn update(&mut self, item: &Self::Input, metadata: &MetricMetadata) -> MetricEntry;

    /// Forgets everything since the last clear.
    fn clear(&mut self);
}

/// A metric with a numeric value, which can be plotted, aggregated per
/// epoch and used for early stopping.
pub trait Numeric {
    /// The value of the last update (one batch).
    fn value(&self) -> f64;

    /// The value over everything since the last clear (the epoch so far).
    fn running_value(&self) -> f64;
}

/// Turns an output into a metric's input: implement `Adaptor<LossInput>`
/// for a model's output type to make [`LossMetric`](super::LossMetric)
/// available to it, and so on.
pub trait Adaptor<T> {
    /// The metric input this output provides.
    fn adapt(&self) -> T;
}

/// Every output provides the unit input of metrics that read only the
/// metadata or the machine (learning rate, speed, CPU, memory).
impl<T> Adaptor<()> for T {
    fn adapt(&self) {}
}

/// A running mean weighted by batch size: the epoch value of most metrics.
#[derive(Clone, Debug, Default)]
pub struct NumericState {
    sum: f64,
    count: usize,
    last: f64,
}

impl NumericState {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `value` measured over `batch_size` items and returns the
    /// entry of metric `name`; `unit` is appended to the printed values.
    pub fn update(&mut self, name: &str, value: f64, batch_size: usize, unit: &str) -> MetricEntry {
        self.sum += value * batch_size as f64;
        self.count += batch_size;
        self.last = value;
        MetricEntry {
            name: name.into(),
            formatted: format!(
                "{} (epoch {})",
                format_value(value, unit),
                format_value(self.running_value(), unit)
            ),
            serialized: format!("{value}"),
        }
    }

    /// The last value recorded.
    pub fn value(&self) -> f64 {
        self.last
    }

    /// The weighted mean since the last reset (NaN when empty).
    pub fn running_value(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum / self.count as f64
        }
    }

    /// Forgets every value.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// A value with a few significant digits and its unit.
pub(crate) fn format_value(value: f64, unit: &str) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-3..1e5).contains(&magnitude) {
        format!("{value:.3e}{unit}")
    } else {
        format!("{value:.4}{unit}")
    }
}
