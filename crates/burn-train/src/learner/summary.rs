//! [`LearnerSummary`]: a table of a run's epoch values, read back from its
//! metric logs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use crate::logger::{FileMetricLogger, MetricLogger};
use crate::metric::store::{Split, aggregate_mean};

/// One epoch value of a metric.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricEntry {
    /// The epoch.
    pub step: usize,
    /// The value.
    pub value: f64,
}

/// The epoch values of one metric on one split.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricSummary {
    /// The metric's name.
    pub name: String,
    /// Its epoch values, by epoch.
    pub entries: Vec<MetricEntry>,
}

impl MetricSummary {
    fn collect(
        logger: &mut FileMetricLogger,
        name: &str,
        split: &Split,
        epochs: usize,
    ) -> Option<Self> {
        let entries: Vec<MetricEntry> = (1..=epochs)
            .filter_map(|epoch| {
                let logged = logger.read_numeric(name, epoch, split).ok()?;
                aggregate_mean(&logged).map(|value| MetricEntry { step: epoch, value })
            })
            .collect();
        (!entries.is_empty()).then(|| Self {
            name: name.to_string(),
            entries,
        })
    }

    /// The epoch with the lowest value.
    fn min(&self) -> Option<&MetricEntry> {
        self.entries
            .iter()
            .min_by(|a, b| a.value.total_cmp(&b.value))
    }

    /// The epoch with the highest value.
    fn max(&self) -> Option<&MetricEntry> {
        self.entries
            .iter()
            .max_by(|a, b| a.value.total_cmp(&b.value))
    }
}

/// The metric summaries of each split.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SummaryMetrics {
    /// Training.
    pub train: Vec<MetricSummary>,
    /// Validation.
    pub valid: Vec<MetricSummary>,
    /// Evaluations, by name (`""` for an unnamed one).
    pub test: HashMap<String, Vec<MetricSummary>>,
}

/// What a run measured: for each metric and split, its last epoch value and
/// its best ones. Enable it with `SupervisedTraining::summary()` (printed
/// when training ends) or build it from an experiment directory.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnerSummary {
    /// The epochs with logs.
    pub epochs: usize,
    /// The metrics.
    pub metrics: SummaryMetrics,
    pub(crate) model: Option<String>,
}

/// The epochs with a directory under `dir` (`epoch-1`, `epoch-2`, …).
fn epochs_in(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            name.to_str()?.strip_prefix("epoch-")?.parse::<usize>().ok()
        })
        .max()
        .unwrap_or(0)
}

impl LearnerSummary {
    /// The summary of `metrics` (by name) from the logs under `directory`.
    ///
    /// # Errors
    /// When the directory holds no training, validation or evaluation logs.
    pub fn new<S: AsRef<str>>(directory: impl AsRef<Path>, metrics: &[S]) -> Result<Self, String> {
        let directory = directory.as_ref();
        let (train, valid, test) = (
            directory.join("train"),
            directory.join("valid"),
            directory.join("test"),
        );
        if !train.is_dir() && !valid.is_dir() && !test.is_dir() {
            return Err(format!(
                "no training, validation or evaluation logs under `{}`",
                directory.display()
            ));
        }
        let epochs = epochs_in(&train).max(epochs_in(&valid));
        let mut logger = FileMetricLogger::new(directory);
        let collect = |split: &Split, epochs: usize, logger: &mut FileMetricLogger| {
            metrics
                .iter()
                .filter_map(|name| MetricSummary::collect(logger, name.as_ref(), split, epochs))
                .collect::<Vec<_>>()
        };
        let train = collect(&Split::Train, epochs, &mut logger);
        let valid = collect(&Split::Valid, epochs, &mut logger);
        let mut tests = HashMap::new();
        if let Ok(entries) = std::fs::read_dir(&test) {
            let mut eval = FileMetricLogger::new_eval(directory);
            for entry in entries.flatten() {
                let path: PathBuf = entry.path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                if !path.is_dir() {
                    continue;
                }
                let split = Split::Test(Some(Arc::new(name.to_string())));
                let summaries = collect(&split, 1, &mut eval);
                if !summaries.is_empty() {
                    tests.insert(name.to_string(), summaries);
                }
            }
        }
        Ok(Self {
            epochs,
            metrics: SummaryMetrics {
                train,
                valid,
                test: tests,
            },
            model: None,
        })
    }

    /// The summary naming `model`.
    pub(crate) fn with_model(mut self, model: String) -> Self {
        self.model = Some(model);
        self
    }
}

impl core::fmt::Display for LearnerSummary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "Learner summary: {} epoch(s)", self.epochs)?;
        if let Some(model) = &self.model {
            writeln!(f, "Model: {model}")?;
        }
        writeln!(f, "| split | metric | last | min (epoch) | max (epoch) |")?;
        writeln!(f, "|---|---|---|---|---|")?;
        let mut rows: Vec<(String, &MetricSummary)> = Vec::new();
        rows.extend(self.metrics.train.iter().map(|m| ("train".to_string(), m)));
        rows.extend(self.metrics.valid.iter().map(|m| ("valid".to_string(), m)));
        let mut tests: Vec<_> = self.metrics.test.iter().collect();
        tests.sort_by(|a, b| a.0.cmp(b.0));
        for (name, metrics) in tests {
            rows.extend(metrics.iter().map(|m| (format!("test/{name}"), m)));
        }
        for (split, metric) in rows {
            let (Some(last), Some(min), Some(max)) =
                (metric.entries.last(), metric.min(), metric.max())
            else {
                continue;
            };
            writeln!(
                f,
                "| {split} | {} | {:.4} | {:.4} ({}) | {:.4} ({}) |",
                metric.name, last.value, min.value, min.step, max.value, max.step
            )?;
        }
        Ok(())
    }
}

/// Where a run's summary is read from, and which metrics it shows.
#[derive(Clone, Debug)]
pub struct LearnerSummaryConfig {
    pub(crate) directory: PathBuf,
    pub(crate) metrics: Vec<String>,
}

impl LearnerSummaryConfig {
    /// The summary.
    ///
    /// # Errors
    /// As [`LearnerSummary::new`].
    pub fn init(&self) -> Result<LearnerSummary, String> {
        LearnerSummary::new(&self.directory, &self.metrics)
    }
}
