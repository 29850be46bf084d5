//! [`TextRenderer`]: progress as plain lines.

use std::string::String;
use std::time::{Duration, Instant};
use std::vec::Vec;

use super::{EpochSummary, MetricState, MetricsRenderer, Split, TrainingProgress};
use crate::metric::base::format_value;

/// Prints a progress line at most every few seconds while a pass runs, and
/// one line per pass with its epoch values:
///
/// ```text
/// [train] epoch 2/10  1152/1258 items  Loss 0.2310 (epoch 0.2815)  Accuracy 93.75 % (epoch 91.80 %)
/// [train] epoch 2/10 done  Loss 0.2788  Accuracy 91.9200
/// ```
///
/// Nothing is redrawn in place, so the output reads well in a log file.
#[derive(Debug)]
pub struct TextRenderer {
    interval: Duration,
    last_print: Option<Instant>,
    epoch_total: usize,
    train: Vec<MetricState>,
    valid: Vec<MetricState>,
}

impl Default for TextRenderer {
    fn default() -> Self {
        Self::new()
    }
}

impl TextRenderer {
    /// A text renderer printing progress every 5 seconds.
    pub fn new() -> Self {
        Self::with_interval(Duration::from_secs(5))
    }

    /// A text renderer printing progress at most every `interval`.
    pub fn with_interval(interval: Duration) -> Self {
        Self {
            interval,
            last_print: None,
            epoch_total: 0,
            train: Vec::new(),
            valid: Vec::new(),
        }
    }

    fn render(&mut self, split: Split, item: TrainingProgress) {
        let now = Instant::now();
        let first = self.last_print.is_none();
        if !first && now.duration_since(self.last_print.unwrap_or(now)) < self.interval {
            return;
        }
        self.last_print = Some(now);
        if first {
            // Start the clock without printing: a line after a single batch
            // says little.
            return;
        }
        let states = match split {
            Split::Train => &self.train,
            Split::Valid => &self.valid,
        };
        println!("{}", progress_line(split, item, states));
    }
}

/// `[split] epoch e/n  p/t items  Name value …`
pub(crate) fn progress_line(
    split: Split,
    item: TrainingProgress,
    states: &[MetricState],
) -> String {
    let mut line = format!(
        "[{}] epoch {}/{}  {}/{} items",
        split.as_str(),
        item.epoch,
        item.epoch_total,
        item.progress.items_processed,
        item.progress.items_total
    );
    for state in states {
        let entry = state.entry();
        line.push_str(&format!("  {} {}", entry.name, entry.formatted));
    }
    line
}

/// `[split] epoch e/n done  Name value …`
pub(crate) fn epoch_line(
    split: Split,
    epoch: usize,
    epoch_total: usize,
    summary: &EpochSummary,
) -> String {
    let mut line = format!("[{}] epoch {epoch}/{epoch_total} done", split.as_str());
    for (name, value) in summary {
        line.push_str(&format!("  {name} {}", format_value(*value, "")));
    }
    line
}

fn upsert(states: &mut Vec<MetricState>, state: MetricState) {
    match states
        .iter_mut()
        .find(|s| s.entry().name == state.entry().name)
    {
        Some(slot) => *slot = state,
        None => states.push(state),
    }
}

impl MetricsRenderer for TextRenderer {
    fn update_train(&mut self, state: MetricState) {
        upsert(&mut self.train, state);
    }

    fn update_valid(&mut self, state: MetricState) {
        upsert(&mut self.valid, state);
    }

    fn render_train(&mut self, item: TrainingProgress) {
        self.render(Split::Train, item);
        self.epoch_total = item.epoch_total;
    }

    fn render_valid(&mut self, item: TrainingProgress) {
        self.render(Split::Valid, item);
        self.epoch_total = item.epoch_total;
    }

    fn on_epoch_end(&mut self, split: Split, epoch: usize, summary: &EpochSummary) {
        println!("{}", epoch_line(split, epoch, self.epoch_total, summary));
        match split {
            Split::Train => self.train.clear(),
            Split::Valid => self.valid.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::{MetricEntry, Progress};

    #[test]
    fn lines_name_the_split_epoch_items_and_metrics() {
        let state = MetricState::Numeric(
            MetricEntry {
                name: "Loss".into(),
                formatted: "0.2310 (epoch 0.2815)".into(),
                serialized: "0.231".into(),
            },
            0.231,
        );
        let item = TrainingProgress {
            progress: Progress {
                items_processed: 1152,
                items_total: 1258,
            },
            epoch: 2,
            epoch_total: 10,
            iteration: 36,
        };
        assert_eq!(
            progress_line(Split::Train, item, &[state]),
            "[train] epoch 2/10  1152/1258 items  Loss 0.2310 (epoch 0.2815)"
        );
        let summary = vec![
            ("Loss".to_string(), 0.2788),
            ("Accuracy".to_string(), 91.92),
        ];
        assert_eq!(
            epoch_line(Split::Valid, 2, 10, &summary),
            "[valid] epoch 2/10 done  Loss 0.2788  Accuracy 91.9200"
        );
    }
}
