//! [`CliMetricsRenderer`]: progress as plain lines.

use std::collections::HashMap;
use std::string::String;
use std::time::{Duration, Instant};
use std::vec::Vec;

use burn_core::data::dataloader::Progress;

use super::{
    EvaluationName, MetricState, MetricsRenderer, MetricsRendererEvaluation,
    MetricsRendererTraining,
};
use crate::logger::{EvaluationProgressLogger, TrainingProgressLogger};
use crate::metric::{MetricDefinition, MetricEntry, MetricId, NumericEntry};

/// Prints a progress line at most every few seconds while a pass runs, and
/// one line per pass with its epoch values:
///
/// ```text
/// [train] epoch 2/10  1152/1258 items  Loss 0.2310 (epoch 0.2815)  Accuracy 93.75 % (epoch 91.80 %)
/// [train] epoch 2/10 done  Loss 0.2788  Accuracy 91.92 %
/// ```
///
/// Nothing is redrawn in place, so the output reads well in a log file.
#[derive(Debug)]
pub struct CliMetricsRenderer {
    interval: Duration,
    last_print: Option<Instant>,
    names: HashMap<MetricId, String>,
    /// Registration order, for stable columns.
    order: Vec<MetricId>,
    /// The latest batch entry of each metric in the current pass.
    current: HashMap<MetricId, String>,
    /// The epoch values of the pass that just ended.
    finals: HashMap<MetricId, String>,
    split: String,
    epoch: usize,
    epoch_total: usize,
    label: String,
}

impl Default for CliMetricsRenderer {
    fn default() -> Self {
        Self::new()
    }
}

impl CliMetricsRenderer {
    /// A text renderer printing progress every 5 seconds.
    pub fn new() -> Self {
        Self::with_interval(Duration::from_secs(5))
    }

    /// A text renderer printing progress at most every `interval`.
    pub fn with_interval(interval: Duration) -> Self {
        Self {
            interval,
            last_print: None,
            names: HashMap::new(),
            order: Vec::new(),
            current: HashMap::new(),
            finals: HashMap::new(),
            split: "train".into(),
            epoch: 1,
            epoch_total: 1,
            label: "training".into(),
        }
    }

    fn record(&mut self, state: MetricState) {
        let (entry, is_final): (MetricEntry, bool) = match state {
            MetricState::Numeric(entry, Some(NumericEntry::Final(_))) => (entry, true),
            MetricState::Numeric(entry, _) | MetricState::Generic(entry) => (entry, false),
        };
        if !self.order.contains(&entry.metric_id) {
            self.order.push(entry.metric_id.clone());
        }
        let text = entry.serialized_entry.formatted;
        match is_final {
            true => self.finals.insert(entry.metric_id, text),
            false => self.current.insert(entry.metric_id, text),
        };
    }

    fn name<'a>(&'a self, id: &'a MetricId) -> &'a str {
        self.names.get(id).map_or(id.as_str(), String::as_str)
    }

    /// `"  Name value"` for each metric with an entry in `values`.
    fn columns(&self, values: &HashMap<MetricId, String>) -> String {
        let mut line = String::new();
        for id in &self.order {
            if let Some(value) = values.get(id) {
                line.push_str(&format!("  {} {value}", self.name(id)));
            }
        }
        line
    }

    fn header(&self) -> String {
        if self.split.starts_with("test") {
            format!("[{}]", self.split)
        } else {
            format!("[{}] epoch {}/{}", self.split, self.epoch, self.epoch_total)
        }
    }

    /// The progress line of `progress`.
    pub(crate) fn progress_line(&self, progress: &Progress) -> String {
        format!(
            "{}  {}/{} items{}",
            self.header(),
            progress.items_processed,
            progress.items_total,
            self.columns(&self.current)
        )
    }

    /// The line of a pass that ended.
    pub(crate) fn end_line(&self) -> String {
        format!("{} done{}", self.header(), self.columns(&self.finals))
    }

    fn start_pass(&mut self, split: String) {
        self.split = split;
        self.current.clear();
        self.finals.clear();
        // Start the clock without printing: a line after one batch says little.
        self.last_print = Some(Instant::now());
    }

    fn maybe_print(&mut self, progress: &Progress) {
        let now = Instant::now();
        if self
            .last_print
            .is_some_and(|last| now.duration_since(last) < self.interval)
        {
            return;
        }
        self.last_print = Some(now);
        println!("{}", self.progress_line(progress));
    }
}

impl MetricsRendererTraining for CliMetricsRenderer {
    fn update_train(&mut self, state: MetricState) {
        self.record(state);
    }

    fn update_valid(&mut self, state: MetricState) {
        self.record(state);
    }
}

impl MetricsRendererEvaluation for CliMetricsRenderer {
    fn update_test(&mut self, _name: EvaluationName, state: MetricState) {
        self.record(state);
    }
}

impl TrainingProgressLogger for CliMetricsRenderer {
    fn start(
        &mut self,
        total_epochs: usize,
        starting_epoch: usize,
        _total_items: Option<usize>,
        label: Option<&str>,
    ) {
        self.epoch_total = total_epochs;
        self.epoch = starting_epoch;
        if let Some(label) = label {
            self.label = label.to_string();
        }
        println!(
            "Starting {} at epoch {starting_epoch} of {total_epochs}.",
            self.label
        );
    }

    fn update_epoch(&mut self, epoch: usize) {
        self.epoch = epoch + 1;
    }

    fn start_split(&mut self, split: &str, _progress: &Progress) {
        self.start_pass(split.to_string());
    }

    fn update_split(&mut self, progress: &Progress) {
        self.maybe_print(progress);
    }

    fn end_split(&mut self, _progress: &Progress) {
        println!("{}", self.end_line());
    }

    fn end(&mut self) {}

    fn log_event_training(&mut self, _event: String) {}
}

impl EvaluationProgressLogger for CliMetricsRenderer {
    fn start_global_progress(&mut self, total_tests: usize) {
        println!("Starting evaluation of {total_tests} test set(s).");
    }

    fn start_test(&mut self, name: &str, _progress: &Progress) {
        self.start_pass(format!("test/{name}"));
    }

    fn update_test_progress(&mut self, progress: &Progress) {
        self.maybe_print(progress);
    }

    fn end_test(&mut self, _progress: &Progress) {
        println!("{}", self.end_line());
    }

    fn end_global_progress(&mut self) {}

    fn log_event_evaluation(&mut self, _event: String) {}
}

impl MetricsRenderer for CliMetricsRenderer {
    fn manual_close(&mut self) {}

    fn register_metric(&mut self, definition: MetricDefinition) {
        if !self.order.contains(&definition.metric_id) {
            self.order.push(definition.metric_id.clone());
        }
        self.names
            .insert(definition.metric_id, definition.name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::metric::{MetricAttributes, SerializedEntry};

    fn entry(name: &str, formatted: &str) -> MetricEntry {
        MetricEntry::new(
            MetricId::new(Arc::new(name.into())),
            SerializedEntry::new(formatted.into(), String::new()),
        )
    }

    #[test]
    fn lines_name_the_split_epoch_items_and_metrics() {
        let mut renderer = CliMetricsRenderer::new();
        for name in ["Loss", "Accuracy"] {
            renderer.register_metric(MetricDefinition {
                metric_id: MetricId::new(Arc::new(name.into())),
                name: Arc::new(name.into()),
                description: None,
                attributes: MetricAttributes::None,
            });
        }
        renderer.start(10, 2, None, None);
        renderer.start_split("train", &Progress::new(0, 1258));
        // Registration order holds even when updates come in another one.
        renderer.update_train(MetricState::Numeric(
            entry("Accuracy", "93.75 % (epoch 91.80 %)"),
            Some(NumericEntry::Value(93.75)),
        ));
        renderer.update_train(MetricState::Numeric(
            entry("Loss", "0.2310 (epoch 0.2815)"),
            Some(NumericEntry::Value(0.231)),
        ));
        assert_eq!(
            renderer.progress_line(&Progress::new(1152, 1258)),
            "[train] epoch 2/10  1152/1258 items  Loss 0.2310 (epoch 0.2815)  Accuracy 93.75 % (epoch 91.80 %)"
        );
        renderer.update_train(MetricState::Numeric(
            entry("Loss", "0.2788"),
            Some(NumericEntry::Final(0.2788)),
        ));
        renderer.update_train(MetricState::Numeric(
            entry("Accuracy", "91.92 %"),
            Some(NumericEntry::Final(91.92)),
        ));
        assert_eq!(
            renderer.end_line(),
            "[train] epoch 2/10 done  Loss 0.2788  Accuracy 91.92 %"
        );
        renderer.update_epoch(2);
        renderer.start_split("valid", &Progress::new(0, 10));
        assert_eq!(renderer.end_line(), "[valid] epoch 3/10 done");
    }
}
