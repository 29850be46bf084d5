//! Metrics of the machine rather than the model (feature `sys-metrics`):
//! [`CpuUse`], [`CpuMemory`] and [`CudaMetric`].
//!
//! CPU and memory are read from Linux's `/proc` (the process's CPU time in
//! `/proc/self/stat`, the system's memory in `/proc/meminfo`); elsewhere
//! these metrics report `N/A` rather than guess. The GPUs are read through
//! NVIDIA's management library, loaded when the metric is created.

use std::string::String;
use std::sync::Arc;
use std::time::{Duration, Instant};

use burn_tensor::TensorReadError;

use super::state::{FormatOptions, NumericMetricState};
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

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

/// The share of the machine's CPU time the process used, in percent of all
/// cores (100 % is every core busy), measured over windows of at least
/// 200 ms: the process's CPU time advances in 10 ms ticks, too coarse for
/// one batch. Batches inside a window report the last measurement.
#[derive(Clone, Debug)]
pub struct CpuUse {
    name: MetricName,
    cores: f64,
    window: Duration,
    last: Option<(Instant, f64)>,
    measured: f64,
    state: NumericMetricState,
}

impl Default for CpuUse {
    fn default() -> Self {
        Self::new()
    }
}

impl CpuUse {
    /// A CPU use metric, named `"CPU Usage"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("CPU Usage".into()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
            window: Duration::from_millis(200),
            last: None,
            measured: f64::NAN,
            state: NumericMetricState::new(),
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name()).unit("%").precision(2)
    }
}

impl Metric for CpuUse {
    type Input = ();

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: Some("%".into()),
            higher_is_better: true,
        }
        .into()
    }

    fn update(
        &mut self,
        _item: &(),
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let Some(cpu) = process_cpu_seconds() else {
            return Ok(SerializedEntry::not_available(Some("%")));
        };
        let now = Instant::now();
        match self.last {
            None => self.last = Some((now, cpu)),
            Some((since, before)) if now.duration_since(since) >= self.window => {
                let wall = now.duration_since(since).as_secs_f64();
                self.measured = 100.0 * (cpu - before) / (wall * self.cores);
                self.last = Some((now, cpu));
            }
            Some(_) => {}
        }
        if self.measured.is_nan() {
            return Ok(SerializedEntry::not_available(Some("%")));
        }
        self.state.update(self.measured, 1);
        Ok(self.state.compute_update(self.format()))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(self.format()))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for CpuUse {
    fn value(&self) -> Option<NumericEntry> {
        (!self.measured.is_nan()).then(|| self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        (!self.measured.is_nan()).then(|| self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}

/// The system's memory in use (total minus available), in GiB.
#[derive(Clone, Debug)]
pub struct CpuMemory {
    name: MetricName,
    state: NumericMetricState,
    available: bool,
}

impl Default for CpuMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl CpuMemory {
    /// A memory use metric, named `"CPU Memory"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("CPU Memory".into()),
            state: NumericMetricState::new(),
            available: false,
        }
    }

    fn format(&self) -> FormatOptions {
        FormatOptions::new(self.name()).unit("GiB").precision(2)
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

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: Some("GiB".into()),
            higher_is_better: false,
        }
        .into()
    }

    fn update(
        &mut self,
        _item: &(),
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let Some((total, available)) = meminfo_gib() else {
            return Ok(SerializedEntry::not_available(Some("GiB")));
        };
        self.available = true;
        let used = total - available;
        self.state.update(used, 1);
        let mut entry = self.state.compute_update(self.format());
        entry.formatted = format!("{used:.2} / {total:.2} GiB");
        Ok(entry)
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self.state.compute_final(self.format()))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for CpuMemory {
    fn value(&self) -> Option<NumericEntry> {
        self.available.then(|| self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        self.available.then(|| self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}

/// Memory and utilization of every NVIDIA GPU, as text:
/// `GPU #0 - Memory 12.31/139.81 GiB - Usage 87%`.
///
/// The readings come from NVIDIA's management library (NVML), which is
/// loaded when the metric is created. Where there is no NVIDIA driver (no
/// CUDA device, another vendor's GPU, a machine without GPU) the metric
/// shows `N/A` on every update: it never fails a run. It reports the whole
/// GPUs, whichever process uses them.
#[derive(Clone)]
pub struct CudaMetric {
    name: MetricName,
    nvml: Option<Arc<nvml_wrapper::Nvml>>,
}

impl core::fmt::Debug for CudaMetric {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CudaMetric")
            .field("available", &self.nvml.is_some())
            .finish()
    }
}

impl Default for CudaMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl CudaMetric {
    /// A GPU metric, named `"Cuda"`; `N/A` when NVML cannot be loaded.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Cuda".into()),
            nvml: nvml_wrapper::Nvml::init().ok().map(Arc::new),
        }
    }

    /// Whether NVML was loaded (a driver and at least the library exist).
    pub fn is_available(&self) -> bool {
        self.nvml.is_some()
    }

    /// One part per device, or `None` without a device or if a reading
    /// failed.
    fn read(nvml: &nvml_wrapper::Nvml) -> Option<(String, String)> {
        const GIB: f64 = (1u64 << 30) as f64;
        let mut formatted = String::new();
        let mut serialized = String::new();
        let count = nvml.device_count().ok().filter(|&count| count > 0)?;
        for index in 0..count {
            let device = nvml.device_by_index(index).ok()?;
            let memory = device.memory_info().ok()?;
            let usage = device.utilization_rates().ok()?;
            let (used, total) = (memory.used as f64 / GIB, memory.total as f64 / GIB);
            if !formatted.is_empty() {
                formatted.push_str(" | ");
                serialized.push(' ');
            }
            formatted.push_str(&format!(
                "GPU #{index} - Memory {used:.2}/{total:.2} GiB - Usage {}%",
                usage.gpu
            ));
            serialized.push_str(&format!("{used}/{total}/{}", usage.gpu));
        }
        Some((formatted, serialized))
    }
}

impl Metric for CudaMetric {
    type Input = ();

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn update(
        &mut self,
        _item: &(),
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        self.compute()
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(match self.nvml.as_deref().and_then(Self::read) {
            Some((formatted, serialized)) => SerializedEntry::new(formatted, serialized),
            None => SerializedEntry::not_available(None),
        })
    }

    fn clear(&mut self) {}
}
