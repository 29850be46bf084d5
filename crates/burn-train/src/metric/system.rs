//! Metrics that read the metadata or the machine rather than an output:
//! [`LearningRateMetric`], [`IterationSpeedMetric`], [`CpuUse`],
//! [`CpuMemory`].
//!
//! CPU and memory are read from Linux's `/proc` (the process's CPU time in
//! `/proc/self/stat`, the system's memory in `/proc/meminfo`); elsewhere
//! these two metrics report `n/a` rather than guess.

use std::string::String;
use std::time::Instant;

use super::{Metric, MetricEntry, MetricMetadata, Numeric, NumericState};

/// The learning rate of the update each batch made.
#[derive(Clone, Debug, Default)]
pub struct LearningRateMetric {
    state: NumericState,
}

impl LearningRateMetric {
    /// A learning rate metric.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Metric for LearningRateMetric {
    type Input = ();

    fn name(&self) -> String {
        "Learning Rate".into()
    }

    fn update(&mut self, _item: &(), metadata: &MetricMetadata) -> MetricEntry {
        let lr = metadata.lr.unwrap_or(f64::NAN);
        let name = self.name();
        let mut entry = self.state.update(&name, lr, 1, "");
        entry.formatted = super::base::format_value(lr, "");
        entry
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for LearningRateMetric {
    fn value(&self) -> f64 {
        self.state.value()
    }

    fn running_value(&self) -> f64 {
        self.state.running_value()
    }
}

/// Items (samples) processed per second: over the last batch, and over the
/// epoch so far.
#[derive(Clone, Debug, Default)]
pub struct IterationSpeedMetric {
    epoch_start: Option<Instant>,
    last: Option<(Instant, usize)>,
    value: f64,
    running: f64,
}

impl IterationSpeedMetric {
    /// An iteration speed metric.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Metric for IterationSpeedMetric {
    type Input = ();

    fn name(&self) -> String {
        "Iteration Speed".into()
    }

    fn update(&mut self, _item: &(), metadata: &MetricMetadata) -> MetricEntry {
        let now = Instant::now();
        let processed = metadata.progress.items_processed;
        // The first batch of an epoch has no start time of its own: it is
        // measured from the moment the metric was cleared (or first used).
        let start = *self.epoch_start.get_or_insert(now);
        let (since, before) = self.last.unwrap_or((start, 0));
        let seconds = now.duration_since(since).as_secs_f64();
        if seconds > 0.0 {
            self.value = processed.saturating_sub(before) as f64 / seconds;
        }
        let total = now.duration_since(start).as_secs_f64();
        if total > 0.0 {
            self.running = processed as f64 / total;
        }
        self.last = Some((now, processed));
        MetricEntry {
            name: self.name(),
            formatted: format!(
                "{:.1} items/s (epoch {:.1} items/s)",
                self.value, self.running
            ),
            serialized: format!("{}", self.value),
        }
    }

    fn clear(&mut self) {
        *self = Self {
            epoch_start: Some(Instant::now()),
            ..Self::default()
        };
    }
}

impl Numeric for IterationSpeedMetric {
    fn value(&self) -> f64 {
        self.value
    }

    fn running_value(&self) -> f64 {
        self.running
    }
}

/// Clock ticks per second of `/proc/self/stat`'s CPU times: `USER_HZ`,
/// fixed at 100 by the Linux ABI on every architecture Rust targets.
const USER_HZ: f64 = 100.0;

/// The process's CPU time in seconds (user + system), if `/proc` has it.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces:
    // count fields from the last ')'. utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: std::vec::Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / USER_HZ)
}

/// The share of the machine's CPU time the process used since the last
/// update, in percent of all cores (100 % is every core busy).
#[derive(Clone, Debug)]
pub struct CpuUse {
    last: Option<(Instant, f64)>,
    cores: f64,
    state: NumericState,
    refresh: std::time::Duration,
    /// The last measurement, kept across epochs.
    measured: f64,
}

impl Default for CpuUse {
    fn default() -> Self {
        Self::new()
    }
}

impl CpuUse {
    /// A CPU use metric, measured over windows of at least 200 ms (the
    /// process's CPU time advances in 10 ms ticks, too coarse for a batch).
    /// An epoch shorter than a window reports the last measurement.
    pub fn new() -> Self {
        Self {
            last: None,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
            state: NumericState::new(),
            refresh: std::time::Duration::from_millis(200),
            measured: f64::NAN,
        }
    }
}

impl Metric for CpuUse {
    type Input = ();

    fn name(&self) -> String {
        "CPU Use".into()
    }

    fn update(&mut self, _item: &(), _metadata: &MetricMetadata) -> MetricEntry {
        let now = Instant::now();
        let name = self.name();
        let Some(cpu) = process_cpu_seconds() else {
            return unavailable(name);
        };
        match self.last {
            None => self.last = Some((now, cpu)),
            Some((since, cpu_before)) if now.duration_since(since) >= self.refresh => {
                let wall = now.duration_since(since).as_secs_f64();
                let value = 100.0 * (cpu - cpu_before) / (wall * self.cores);
                self.state.update(&name, value, 1, " %");
                self.measured = value;
                self.last = Some((now, cpu));
            }
            Some(_) => {}
        }
        MetricEntry {
            name,
            formatted: format!(
                "{} (epoch {})",
                super::base::format_value(self.value(), " %"),
                super::base::format_value(self.running_value(), " %")
            ),
            serialized: format!("{}", self.value()),
        }
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for CpuUse {
    fn value(&self) -> f64 {
        self.measured
    }

    fn running_value(&self) -> f64 {
        let running = self.state.running_value();
        if running.is_nan() {
            self.measured
        } else {
            running
        }
    }
}

/// The system's memory in use (total minus available), in GiB.
#[derive(Clone, Debug, Default)]
pub struct CpuMemory {
    state: NumericState,
    total_gib: f64,
}

impl CpuMemory {
    /// A memory use metric.
    pub fn new() -> Self {
        Self::default()
    }
}

/// `(total, available)` memory in GiB from `/proc/meminfo`.
fn meminfo_gib() -> Option<(f64, f64)> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |key: &str| -> Option<f64> {
        let line = text.lines().find(|line| line.starts_with(key))?;
        let kib: f64 = line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib / (1024.0 * 1024.0))
    };
    Some((field("MemTotal:")?, field("MemAvailable:")?))
}

impl Metric for CpuMemory {
    type Input = ();

    fn name(&self) -> String {
        "CPU Memory".into()
    }

    fn update(&mut self, _item: &(), _metadata: &MetricMetadata) -> MetricEntry {
        let name = self.name();
        let Some((total, available)) = meminfo_gib() else {
            return unavailable(name);
        };
        self.total_gib = total;
        self.state.update(&name, total - available, 1, " GiB");
        let mut entry = numeric_entry(name, &self.state, " GiB");
        entry.formatted = format!("{:.2} / {:.2} GiB", total - available, total);
        entry
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for CpuMemory {
    fn value(&self) -> f64 {
        self.state.value()
    }

    fn running_value(&self) -> f64 {
        self.state.running_value()
    }
}

fn unavailable(name: String) -> MetricEntry {
    MetricEntry {
        name,
        formatted: "n/a".into(),
        serialized: "NaN".into(),
    }
}

fn numeric_entry(name: String, state: &NumericState, unit: &str) -> MetricEntry {
    MetricEntry {
        name,
        formatted: format!(
            "{} (epoch {})",
            super::base::format_value(state.value(), unit),
            super::base::format_value(state.running_value(), unit)
        ),
        serialized: format!("{}", state.value()),
    }
}
