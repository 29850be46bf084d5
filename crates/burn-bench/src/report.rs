//! Results: the JSON file both frameworks write, the table of one run, and
//! the side-by-side comparison of two runs.
//!
//! The JSON layout is shared with `pytorch/bench.py`: a `Report` with one
//! `Record` per workload. PyTorch's report has no machine probe, so the
//! comparison reads the peak and copy bandwidth from the Burn report.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::machine::Machine;
use crate::workloads::Kind;

/// The timing of one workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub name: String,
    pub kind: Kind,
    /// Flops (`matmul`, `matmul_half`, `model`) or bytes (`memory`); 0 for `overhead`.
    pub work: f64,
    pub median_ms: f64,
    pub min_ms: f64,
    pub iters: usize,
}

/// One run of a suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// `burn-flex` or `pytorch`.
    pub framework: String,
    /// The framework's version string.
    pub version: String,
    /// When the run started, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// The command line that produced the report.
    pub command: String,
    /// `full` or `quick`.
    pub policy: String,
    pub cpu: String,
    pub threads: usize,
    /// The machine probe (Burn's report only).
    #[serde(default)]
    pub machine: Option<Machine>,
    /// /proc/loadavg before and after the run (1, 5, 15 minutes).
    #[serde(default)]
    pub load_before: Option<[f64; 3]>,
    #[serde(default)]
    pub load_after: Option<[f64; 3]>,
    /// Lines printed under the table (workloads not measured, and why).
    #[serde(default)]
    pub notes: Vec<String>,
    pub results: Vec<Record>,
}

impl Report {
    /// Writes the report as pretty JSON.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("writing {}: {e}", path.display()))
    }

    /// Reads a report written by either suite.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))
    }
}

/// What the rate columns are read against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// f32 peak, GFLOP/s.
    pub peak_gflops: f64,
    /// The stream time of a memory workload is its bytes at this rate, GB/s.
    pub stream_gbs: f64,
}

impl Limits {
    pub fn of(machine: &Machine) -> Self {
        Self {
            peak_gflops: machine.peak_gflops,
            stream_gbs: machine.stream_gbs,
        }
    }
}

/// A duration in milliseconds, printed with a unit that keeps ~3–4 digits.
pub fn format_ms(ms: f64) -> String {
    if ms < 1.0 {
        format!("{:.2} µs", ms * 1e3)
    } else if ms < 1000.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.3} s", ms / 1e3)
    }
}

/// The rate of a record at its median: GFLOP/s or GB/s, with the unit.
pub fn rate(record: &Record) -> String {
    let per_s = record.work / (record.median_ms / 1e3) / 1e9;
    match record.kind {
        Kind::Matmul | Kind::MatmulHalf | Kind::Model => format!("{per_s:.1} GFLOP/s"),
        Kind::Memory => format!("{per_s:.1} GB/s"),
        Kind::Overhead => "-".into(),
    }
}

/// The rate against the machine's limit: `% of peak` for flops, `× stream`
/// (median over the time the bytes take at copy bandwidth) for bytes.
pub fn versus_limit(record: &Record, limits: Limits) -> String {
    let secs = record.median_ms / 1e3;
    match record.kind {
        Kind::Matmul | Kind::Model if limits.peak_gflops > 0.0 => {
            format!(
                "{:.0}% peak",
                100.0 * record.work / secs / 1e9 / limits.peak_gflops
            )
        }
        Kind::Memory if limits.stream_gbs > 0.0 => {
            format!(
                "{:.2}× stream",
                secs / (record.work / 1e9 / limits.stream_gbs)
            )
        }
        _ => "-".into(),
    }
}

/// The header of a one-run table.
pub fn table_header() -> String {
    format!(
        "{:<28} {:>11} {:>11} {:>6} {:>15} {:>13}",
        "workload", "median", "min", "iters", "rate", "vs limit"
    )
}

/// One row of a one-run table.
pub fn table_row(record: &Record, limits: Limits) -> String {
    format!(
        "{:<28} {:>11} {:>11} {:>6} {:>15} {:>13}",
        record.name,
        format_ms(record.median_ms),
        format_ms(record.min_ms),
        record.iters,
        rate(record),
        versus_limit(record, limits),
    )
}

/// Burn's and PyTorch's runs side by side: both medians, the ratio
/// (Burn's time over PyTorch's: above 1 means Burn is slower), both rates
/// and both against the limit. Workloads in only one report are listed last.
pub fn compare(burn: &Report, torch: &Report) -> String {
    let limits = burn.machine.as_ref().map(Limits::of).unwrap_or(Limits {
        peak_gflops: 0.0,
        stream_gbs: 0.0,
    });
    let mut out = String::new();
    for r in [burn, torch] {
        let _ = writeln!(
            out,
            "{} {} — {} — {} — {} threads — policy {}",
            r.framework, r.version, r.date, r.cpu, r.threads, r.policy
        );
    }
    if burn.threads != torch.threads {
        let _ = writeln!(
            out,
            "WARNING: the runs used different thread counts ({} and {})",
            burn.threads, torch.threads
        );
    }
    if let Some(m) = &burn.machine {
        let _ = writeln!(out, "{}", machine_summary(m));
    }
    let _ = writeln!(
        out,
        "\n{:<28} {:>11} {:>11} {:>7} {:>15} {:>15} {:>13} {:>13}",
        "workload",
        "burn",
        "pytorch",
        "ratio",
        "burn rate",
        "pytorch rate",
        "burn vs lim",
        "torch vs lim"
    );
    for b in &burn.results {
        match torch.results.iter().find(|t| t.name == b.name) {
            Some(t) => {
                let _ = writeln!(
                    out,
                    "{:<28} {:>11} {:>11} {:>7} {:>15} {:>15} {:>13} {:>13}",
                    b.name,
                    format_ms(b.median_ms),
                    format_ms(t.median_ms),
                    format!("{:.2}", b.median_ms / t.median_ms),
                    rate(b),
                    rate(t),
                    versus_limit(b, limits),
                    versus_limit(t, limits),
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{:<28} {:>11}  (not in the PyTorch report)",
                    b.name,
                    format_ms(b.median_ms)
                );
            }
        }
    }
    for t in torch
        .results
        .iter()
        .filter(|t| burn.results.iter().all(|b| b.name != t.name))
    {
        let _ = writeln!(
            out,
            "{:<28} {:>11} {:>11}  (PyTorch only)",
            t.name,
            "-",
            format_ms(t.median_ms)
        );
    }
    let _ = writeln!(
        out,
        "\nratio = burn median / pytorch median (above 1: burn is slower)"
    );
    for note in burn.notes.iter().chain(&torch.notes) {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

/// The machine lines printed above a table.
pub fn machine_summary(m: &Machine) -> String {
    let mut out = format!(
        "peak f32: {:.1} GFLOP/s = {} threads × {} FMA units × {} lanes ({}) × 2 × {:.2} GHz",
        m.peak_gflops, m.threads, m.fma_units, m.lanes, m.isa, m.clock_ghz
    );
    if m.lanes > 8 {
        let _ = write!(
            out,
            "\n          {:.1} GFLOP/s at 8 lanes (AVX2, the widest Flex's kernels use)",
            m.peak_avx2_gflops
        );
    }
    let _ = write!(
        out,
        "\nmeasured: FMA {:.1} GFLOP/s at {} lanes",
        m.measured_fma_gflops, m.lanes
    );
    if m.lanes > 8 {
        let _ = write!(out, ", {:.1} at 8 lanes", m.measured_fma_avx2_gflops);
    }
    let _ = write!(
        out,
        " on {} threads; copy {:.1} GB/s (read + write)",
        m.threads, m.copy_gbs
    );
    let _ = write!(
        out,
        "\nstream time: bytes at {:.1} GB/s{}",
        m.stream_gbs,
        if m.stream_gbs == crate::machine::DEFINITION_STREAM_GBS {
            " (ARCHITECTURE.md's definition)"
        } else {
            " (--stream-gbs)"
        }
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, kind: Kind, work: f64, median_ms: f64) -> Record {
        Record {
            name: name.into(),
            kind,
            work,
            median_ms,
            min_ms: median_ms,
            iters: 5,
        }
    }

    fn report(framework: &str, results: Vec<Record>) -> Report {
        Report {
            framework: framework.into(),
            version: "0".into(),
            date: "2026-01-01 00:00 UTC".into(),
            command: "cmd".into(),
            policy: "full".into(),
            cpu: "cpu".into(),
            threads: 2,
            machine: None,
            load_before: None,
            load_after: None,
            notes: vec![],
            results,
        }
    }

    #[test]
    fn matmul_rate_and_peak_fraction() {
        // 2·1024³ = 2.147 GFLOP in 20 ms = 107.4 GFLOP/s; of 185 that is 58%.
        let r = record("m", Kind::Matmul, 2.0 * 1024f64.powi(3), 20.0);
        assert_eq!(rate(&r), "107.4 GFLOP/s");
        let limits = Limits {
            peak_gflops: 185.0,
            stream_gbs: 17.5,
        };
        assert_eq!(versus_limit(&r, limits), "58% peak");
    }

    #[test]
    fn half_precision_matmul_has_a_rate_but_no_peak_fraction() {
        let r = record("h", Kind::MatmulHalf, 2.0 * 1024f64.powi(3), 20.0);
        assert_eq!(rate(&r), "107.4 GFLOP/s");
        let limits = Limits {
            peak_gflops: 185.0,
            stream_gbs: 17.5,
        };
        assert_eq!(versus_limit(&r, limits), "-");
    }

    #[test]
    fn memory_rate_and_stream_multiple() {
        // 512 MiB in 60 ms = 8.9 GB/s; at 17.5 GB/s it takes 30.68 ms: 1.96×.
        let r = record("c", Kind::Memory, (512u64 << 20) as f64, 60.0);
        assert_eq!(rate(&r), "8.9 GB/s");
        let limits = Limits {
            peak_gflops: 185.0,
            stream_gbs: 17.5,
        };
        assert_eq!(versus_limit(&r, limits), "1.96× stream");
    }

    #[test]
    fn durations_pick_a_readable_unit() {
        assert_eq!(format_ms(0.00213), "2.13 µs");
        assert_eq!(format_ms(12.345), "12.35 ms");
        assert_eq!(format_ms(1234.0), "1.234 s");
    }

    #[test]
    fn compare_pairs_by_name_and_lists_the_rest() {
        let burn = report(
            "burn-flex",
            vec![
                record("both", Kind::Overhead, 0.0, 3.0),
                record("burn_only", Kind::Overhead, 0.0, 1.0),
            ],
        );
        let torch = report(
            "pytorch",
            vec![
                record("torch_only", Kind::Overhead, 0.0, 1.0),
                record("both", Kind::Overhead, 0.0, 2.0),
            ],
        );
        let text = compare(&burn, &torch);
        let both = text.lines().find(|l| l.starts_with("both")).unwrap();
        assert!(both.contains("1.50"), "{both}");
        assert!(text.contains("burn_only") && text.contains("not in the PyTorch report"));
        assert!(text.contains("torch_only") && text.contains("PyTorch only"));
    }

    #[test]
    fn reports_round_trip_through_json() {
        let r = report("pytorch", vec![record("x", Kind::Memory, 8.0, 1.5)]);
        let dir = std::env::temp_dir().join(format!("burn-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        r.save(&path).unwrap();
        assert_eq!(Report::load(&path).unwrap(), r);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
