//! [`MetricLogger`] and its two implementations.
//!
//! [`FileMetricLogger`]'s layout under the experiment directory:
//!
//! ```text
//! train/epoch-1/Loss.log       one line per update: its serialized value
//! train/epoch-1/Accuracy.log   ("0.23,32" for a batch, "0.21,final" at the end)
//! valid/epoch-1/…              the same for validation
//! test/{name}/Accuracy.log     an evaluation (no epochs)
//! ```

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use crate::metric::store::{EpochSummary, MetricsUpdate, Split};
use crate::metric::{MetricDefinition, MetricEntry, MetricId, NumericEntry};

/// Records metric updates, and reads the numeric ones back by epoch.
pub trait MetricLogger: Send {
    /// Records `update`, of `split` during `epoch`.
    fn log(&mut self, update: MetricsUpdate, epoch: usize, split: &Split);

    /// The numeric entries metric `name` logged for `epoch` of `split`, in
    /// order (empty if it logged none).
    ///
    /// # Errors
    /// When stored entries cannot be read.
    fn read_numeric(
        &mut self,
        name: &str,
        epoch: usize,
        split: &Split,
    ) -> Result<Vec<NumericEntry>, String>;

    /// Learns of a metric (its name for its id), once at the start.
    fn log_metric_definition(&mut self, definition: MetricDefinition);

    /// A pass ended.
    fn log_epoch_summary(&mut self, summary: EpochSummary);
}

/// Every entry of an update, text and numeric metrics alike.
fn entries(update: &MetricsUpdate) -> impl Iterator<Item = &MetricEntry> {
    update
        .entries
        .iter()
        .chain(update.entries_numeric.iter().map(|numeric| &numeric.entry))
}

/// A metric name as a file name: path separators replaced.
fn file_name(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c == '/' || c == '\\' { '-' } else { c })
        .collect();
    format!("{stem}.log")
}

/// The entries of `text` that parse as numeric entries (`N/A` lines and
/// text metrics' lines are skipped).
fn parse_numeric(text: &str) -> Vec<NumericEntry> {
    text.lines()
        .filter_map(|line| NumericEntry::deserialize(line).ok())
        .collect()
}

/// Writes each metric's updates to a file per split and epoch (see the
/// [module docs](self)), and reads them back, also those of an earlier run
/// in the same directory.
///
/// A file is created (emptied) when its metric first logs in that epoch, so
/// a resumed run rewrites the epochs it redoes and keeps the others.
#[derive(Debug)]
pub struct FileMetricLogger {
    directory: PathBuf,
    is_eval: bool,
    names: HashMap<MetricId, String>,
    open: HashMap<(Split, String), (usize, BufWriter<File>)>,
    failed: HashSet<String>,
}

impl FileMetricLogger {
    /// A logger of a training run, under `directory`.
    pub fn new(directory: impl AsRef<Path>) -> Self {
        Self {
            directory: directory.as_ref().to_path_buf(),
            is_eval: false,
            names: HashMap::new(),
            open: HashMap::new(),
            failed: HashSet::new(),
        }
    }

    /// A logger of an evaluation, under `directory` (no epoch directories).
    pub fn new_eval(directory: impl AsRef<Path>) -> Self {
        Self {
            is_eval: true,
            ..Self::new(directory)
        }
    }

    fn path(&self, split: &Split, epoch: usize, name: &str) -> PathBuf {
        let mut dir = self.directory.join(split.directory());
        if !self.is_eval {
            dir = dir.join(format!("epoch-{epoch}"));
        }
        dir.join(file_name(name))
    }

    fn write(
        &mut self,
        split: &Split,
        epoch: usize,
        name: &str,
        line: &str,
    ) -> std::io::Result<()> {
        let key = (split.clone(), name.to_string());
        let stale = self.open.get(&key).is_none_or(|(e, _)| *e != epoch);
        if stale {
            let path = self.path(split, epoch, name);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let file = BufWriter::new(File::create(&path)?);
            self.open.insert(key.clone(), (epoch, file));
        }
        let (_, file) = self.open.get_mut(&key).expect("opened above");
        writeln!(file, "{line}")
    }
}

impl MetricLogger for FileMetricLogger {
    fn log(&mut self, update: MetricsUpdate, epoch: usize, split: &Split) {
        for entry in entries(&update) {
            let name = self
                .names
                .get(&entry.metric_id)
                .cloned()
                .unwrap_or_else(|| entry.metric_id.as_str().to_string());
            if self.failed.contains(&name) {
                continue;
            }
            if let Err(error) = self.write(split, epoch, &name, &entry.serialized_entry.serialized)
            {
                // Losing a log line must not stop training; say it once per
                // metric and stop writing it.
                eprintln!("burn-train: cannot log metric `{name}`: {error}");
                self.failed.insert(name);
            }
        }
    }

    fn read_numeric(
        &mut self,
        name: &str,
        epoch: usize,
        split: &Split,
    ) -> Result<Vec<NumericEntry>, String> {
        if let Some((_, file)) = self.open.get_mut(&(split.clone(), name.to_string())) {
            file.flush().map_err(|e| e.to_string())?;
        }
        let path = self.path(split, epoch, name);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(parse_numeric(&text)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(error) => Err(format!("{}: {error}", path.display())),
        }
    }

    fn log_metric_definition(&mut self, definition: MetricDefinition) {
        self.names
            .insert(definition.metric_id, definition.name.to_string());
    }

    fn log_epoch_summary(&mut self, summary: EpochSummary) {
        // The pass's files are complete: write them out and close them.
        self.open.retain(|(split, _), (_, file)| {
            if *split == summary.split {
                let _ = file.flush();
                false
            } else {
                true
            }
        });
    }
}

/// The serialized entries of each epoch, in order: `(epoch, lines)`.
type Epochs = Vec<(usize, Vec<String>)>;

/// Keeps every update in memory, by split, metric and epoch: for tests, and
/// for runs that should leave no files.
#[derive(Debug, Default)]
pub struct InMemoryMetricLogger {
    names: HashMap<MetricId, String>,
    values: HashMap<(Split, String), Epochs>,
}

impl InMemoryMetricLogger {
    /// An empty logger.
    pub fn new() -> Self {
        Self::default()
    }
}

impl MetricLogger for InMemoryMetricLogger {
    fn log(&mut self, update: MetricsUpdate, epoch: usize, split: &Split) {
        for entry in entries(&update) {
            let name = self
                .names
                .get(&entry.metric_id)
                .cloned()
                .unwrap_or_else(|| entry.metric_id.as_str().to_string());
            let epochs = self.values.entry((split.clone(), name)).or_default();
            if epochs.last().is_none_or(|(e, _)| *e != epoch) {
                // A redone epoch replaces the earlier one.
                epochs.retain(|(e, _)| *e != epoch);
                epochs.push((epoch, Vec::new()));
            }
            let (_, lines) = epochs.last_mut().expect("pushed above");
            lines.push(entry.serialized_entry.serialized.clone());
        }
    }

    fn read_numeric(
        &mut self,
        name: &str,
        epoch: usize,
        split: &Split,
    ) -> Result<Vec<NumericEntry>, String> {
        Ok(self
            .values
            .get(&(split.clone(), name.to_string()))
            .and_then(|epochs| epochs.iter().find(|(e, _)| *e == epoch))
            .map(|(_, lines)| {
                lines
                    .iter()
                    .filter_map(|line| NumericEntry::deserialize(line).ok())
                    .collect()
            })
            .unwrap_or_default())
    }

    fn log_metric_definition(&mut self, definition: MetricDefinition) {
        self.names
            .insert(definition.metric_id, definition.name.to_string());
    }

    fn log_epoch_summary(&mut self, _summary: EpochSummary) {}
}
