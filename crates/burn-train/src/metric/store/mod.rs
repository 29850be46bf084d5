//! Where the metric values of a run are kept and searched: the events the
//! processor sends ([`Event`]), the [`EventStore`] that records them
//! through the metric loggers, and the [`EventStoreClient`] that early
//! stopping and checkpoint strategies query for epoch values.
//!
//! An epoch value is found from the logged entries of that epoch: the
//! metric's [final](crate::metric::NumericEntry::Final) entry when it
//! logged one (every built-in metric does at the end of a pass), otherwise
//! the mean of its batch entries weighted by their counts
//! ([`Aggregate::Mean`]). Loggers that read their files back (the default
//! [`FileMetricLogger`](crate::logger::FileMetricLogger)) make the epochs
//! of an earlier run available to a resumed one.

mod client;
mod log;

pub use client::EventStoreClient;
pub(crate) use log::LogEventStore;

use std::sync::Arc;
use std::vec::Vec;

use crate::metric::{MetricDefinition, MetricEntry, NumericEntry};

/// What happened, as the store records it.
#[derive(Clone, Debug)]
pub enum Event {
    /// A pass of this epoch starts.
    StartSplit(usize),
    /// The run's metrics, once at the start.
    MetricsInit(Vec<MetricDefinition>),
    /// Metric values (a batch, or the end of a pass).
    MetricsUpdate(MetricsUpdate),
    /// A pass ended.
    EndEpoch(EpochSummary),
}

/// One numeric metric's update.
#[derive(Clone, Debug, PartialEq)]
pub struct NumericMetricUpdate {
    /// The entry as shown and logged.
    pub entry: MetricEntry,
    /// The value to plot, if the metric has one for this update.
    pub numeric_entry: Option<NumericEntry>,
    /// The value over the pass so far, if the metric has one.
    pub running_entry: Option<NumericEntry>,
}

impl NumericMetricUpdate {
    /// Bundles an entry with its numeric values.
    pub fn new(
        entry: MetricEntry,
        numeric_entry: Option<NumericEntry>,
        running_entry: Option<NumericEntry>,
    ) -> Self {
        Self {
            entry,
            numeric_entry,
            running_entry,
        }
    }
}

/// The updates of every metric of a split for one event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsUpdate {
    /// Text metrics.
    pub entries: Vec<MetricEntry>,
    /// Numeric metrics.
    pub entries_numeric: Vec<NumericMetricUpdate>,
}

impl MetricsUpdate {
    /// Bundles the updates.
    pub fn new(entries: Vec<MetricEntry>, entries_numeric: Vec<NumericMetricUpdate>) -> Self {
        Self {
            entries,
            entries_numeric,
        }
    }
}

/// A pass that ended.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochSummary {
    /// Its epoch.
    pub epoch_number: usize,
    /// Its split.
    pub split: Split,
}

impl EpochSummary {
    /// The end of `split`'s pass of epoch `epoch_number`.
    pub fn new(epoch_number: usize, split: Split) -> Self {
        Self {
            epoch_number,
            split,
        }
    }
}

/// Records events and answers questions about the values they carried.
pub trait EventStore: Send {
    /// Records `event` of `split`.
    fn add_event(&mut self, event: Event, split: Split);

    /// The epoch whose value of metric `name` on `split` is the best in
    /// `direction`, among the epochs recorded.
    fn find_epoch(
        &mut self,
        name: &str,
        aggregate: Aggregate,
        direction: Direction,
        split: &Split,
    ) -> Option<usize>;

    /// Metric `name`'s value for `epoch` on `split`.
    fn find_metric(
        &mut self,
        name: &str,
        epoch: usize,
        aggregate: Aggregate,
        split: &Split,
    ) -> Option<f64>;
}

/// How an epoch's batch values become one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aggregate {
    /// Their mean, weighted by the items each covers (or the metric's own
    /// epoch value, when it logged one).
    Mean,
}

/// Which part of a run a value belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// The training pass.
    Train,
    /// The validation pass.
    Valid,
    /// An evaluation, optionally named.
    Test(Option<Arc<String>>),
}

impl Split {
    /// The split's directory under the experiment directory: `train`,
    /// `valid`, `test` or `test/{name}`.
    pub(crate) fn directory(&self) -> std::path::PathBuf {
        match self {
            Split::Test(Some(name)) => std::path::Path::new("test").join(name.as_str()),
            split => std::path::PathBuf::from(<&'static str>::from(split.clone())),
        }
    }
}

impl core::fmt::Display for Split {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(<&'static str>::from(self.clone()))
    }
}

impl From<Split> for &'static str {
    fn from(split: Split) -> Self {
        match split {
            Split::Train => "train",
            Split::Valid => "valid",
            Split::Test(_) => "test",
        }
    }
}

/// Which values are better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Lower is better (a loss).
    Lowest,
    /// Higher is better (an accuracy).
    Highest,
}

/// The epoch value of `entries`: the last final entry if there is one,
/// else the count-weighted mean (NaN values left out; `None` when nothing
/// is left).
pub(crate) fn aggregate_mean(entries: &[NumericEntry]) -> Option<f64> {
    if let Some(NumericEntry::Final(value)) = entries
        .iter()
        .rev()
        .find(|e| matches!(e, NumericEntry::Final(_)))
    {
        return (!value.is_nan()).then_some(*value);
    }
    let (mut sum, mut count) = (0.0, 0usize);
    for entry in entries {
        let (value, weight) = match entry {
            NumericEntry::Value(value) => (*value, 1),
            NumericEntry::Aggregated {
                aggregated_value,
                count,
            } => (*aggregated_value, *count),
            NumericEntry::Final(_) => continue,
        };
        if !value.is_nan() && weight > 0 {
            sum += value * weight as f64;
            count += weight;
        }
    }
    (count > 0).then(|| sum / count as f64)
}
