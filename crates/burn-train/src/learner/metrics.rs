//! The learner's metrics: registered metrics behind one object-safe trait,
//! the per-epoch history, and the log files.
//!
//! Log layout under the experiment directory:
//!
//! ```text
//! {experiment}/train/epoch-1/Loss.log      one line per batch: its value
//! {experiment}/train/epoch-1/Accuracy.log
//! {experiment}/train/epochs.log            one line per epoch and metric: "epoch<TAB>name<TAB>value"
//! {experiment}/valid/…                     the same for validation
//! ```

use std::boxed::Box;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use crate::metric::{Adaptor, Metric, MetricMetadata, Numeric};
use crate::renderer::{EpochSummary, MetricState, Split};

/// A registered metric, fed with the learner's output type `T`.
pub(crate) trait MetricUpdater<T>: Send {
    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> MetricState;
    fn clear(&mut self);
    /// `(name, epoch value)` for a numeric metric.
    fn epoch_value(&self) -> Option<(String, f64)>;
}

/// A metric shown as text only.
pub(crate) struct Generic<M>(pub M);

/// A metric that is also plotted, aggregated and usable for early stopping.
pub(crate) struct NumericUpdater<M>(pub M);

impl<T, M> MetricUpdater<T> for Generic<M>
where
    M: Metric,
    T: Adaptor<M::Input>,
{
    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> MetricState {
        MetricState::Generic(self.0.update(&item.adapt(), metadata))
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    fn epoch_value(&self) -> Option<(String, f64)> {
        None
    }
}

impl<T, M> MetricUpdater<T> for NumericUpdater<M>
where
    M: Metric + Numeric,
    T: Adaptor<M::Input>,
{
    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> MetricState {
        let entry = self.0.update(&item.adapt(), metadata);
        MetricState::Numeric(entry, self.0.value())
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    fn epoch_value(&self) -> Option<(String, f64)> {
        Some((self.0.name(), self.0.running_value()))
    }
}

/// The epoch values of every numeric metric, per split: what early stopping
/// and the summary read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricHistory {
    values: BTreeMap<(Split, String), Vec<(usize, f64)>>,
}

impl MetricHistory {
    /// Records `value` as metric `name`'s value for `epoch` of `split`.
    pub fn record(&mut self, split: Split, epoch: usize, name: &str, value: f64) {
        let series = self.values.entry((split, name.into())).or_default();
        series.retain(|&(e, _)| e != epoch);
        series.push((epoch, value));
        series.sort_by_key(|&(e, _)| e);
    }

    /// Metric `name`'s `(epoch, value)` pairs for `split`, by epoch.
    pub fn series(&self, split: Split, name: &str) -> &[(usize, f64)] {
        self.values
            .get(&(split, name.into()))
            .map_or(&[], |series| series.as_slice())
    }

    /// The metrics recorded for `split`, by name.
    pub fn names(&self, split: Split) -> Vec<String> {
        self.values
            .keys()
            .filter(|(s, _)| *s == split)
            .map(|(_, name)| name.clone())
            .collect()
    }
}

/// Writes the metric logs of an experiment.
#[derive(Debug)]
pub(crate) struct MetricLogger {
    directory: PathBuf,
    open: BTreeMap<(Split, String), (usize, File)>,
}

/// A metric name as a file name: path separators and spaces replaced.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_whitespace() {
                '-'
            } else {
                c
            }
        })
        .collect()
}

impl MetricLogger {
    pub(crate) fn new(directory: &Path) -> Self {
        Self {
            directory: directory.to_path_buf(),
            open: BTreeMap::new(),
        }
    }

    /// Appends a batch value to `{split}/epoch-{epoch}/{name}.log`.
    pub(crate) fn log_batch(
        &mut self,
        split: Split,
        epoch: usize,
        name: &str,
        value: &str,
    ) -> std::io::Result<()> {
        let key = (split, name.to_string());
        let stale = self.open.get(&key).is_none_or(|(e, _)| *e != epoch);
        if stale {
            let dir = self
                .directory
                .join(split.as_str())
                .join(format!("epoch-{epoch}"));
            std::fs::create_dir_all(&dir)?;
            // A fresh file per epoch: a resumed run rewrites the epochs it redoes.
            let file = File::create(dir.join(format!("{}.log", file_name(name))))?;
            self.open.insert(key.clone(), (epoch, file));
        }
        let (_, file) = self.open.get_mut(&key).expect("opened above");
        writeln!(file, "{value}")
    }

    /// Appends the epoch values of a pass to `{split}/epochs.log`.
    pub(crate) fn log_epoch(
        &mut self,
        split: Split,
        epoch: usize,
        summary: &EpochSummary,
    ) -> std::io::Result<()> {
        let dir = self.directory.join(split.as_str());
        std::fs::create_dir_all(&dir)?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("epochs.log"))?;
        for (name, value) in summary {
            writeln!(file, "{epoch}\t{name}\t{value}")?;
        }
        // Batch files of this epoch are complete: close them.
        self.open.retain(|(s, _), _| *s != split);
        Ok(())
    }

    /// The history written by an earlier run, up to and including
    /// `last_epoch` (what a resumed run starts from). Missing files give an
    /// empty history.
    pub(crate) fn read_history(&self, last_epoch: usize) -> MetricHistory {
        let mut history = MetricHistory::default();
        for split in [Split::Train, Split::Valid] {
            let path = self.directory.join(split.as_str()).join("epochs.log");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for line in text.lines() {
                let mut parts = line.split('\t');
                let (Some(epoch), Some(name), Some(value)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    continue;
                };
                if let (Ok(epoch), Ok(value)) = (epoch.parse::<usize>(), value.parse::<f64>())
                    && epoch <= last_epoch
                {
                    history.record(split, epoch, name, value);
                }
            }
        }
        history
    }

    /// Drops the epoch lines after `last_epoch` (a resumed run redoes them).
    pub(crate) fn truncate_after(&self, last_epoch: usize) -> std::io::Result<()> {
        for split in [Split::Train, Split::Valid] {
            let path = self.directory.join(split.as_str()).join("epochs.log");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let kept: String = text
                .lines()
                .filter(|line| {
                    line.split('\t')
                        .next()
                        .and_then(|e| e.parse::<usize>().ok())
                        .is_some_and(|e| e <= last_epoch)
                })
                .map(|line| format!("{line}\n"))
                .collect();
            std::fs::write(&path, kept)?;
        }
        Ok(())
    }
}

/// The metrics of one split.
pub(crate) struct Metrics<T> {
    pub(crate) list: Vec<Box<dyn MetricUpdater<T>>>,
}

impl<T> Default for Metrics<T> {
    fn default() -> Self {
        Self { list: Vec::new() }
    }
}

impl<T> Metrics<T> {
    pub(crate) fn update(&mut self, item: &T, metadata: &MetricMetadata) -> Vec<MetricState> {
        self.list
            .iter_mut()
            .map(|m| m.update(item, metadata))
            .collect()
    }

    /// The epoch values, then every metric cleared for the next pass.
    pub(crate) fn end_epoch(&mut self) -> EpochSummary {
        let summary = self.list.iter().filter_map(|m| m.epoch_value()).collect();
        for metric in &mut self.list {
            metric.clear();
        }
        summary
    }
}
