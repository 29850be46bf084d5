//! What the numbers are read against: the CPU, its f32 peak, its copy
//! bandwidth, how loaded it was, and when the run happened.
//!
//! The peak is the formula of the issue, `cores × FMA units × vector width ×
//! 2 × clock`. The vector width comes from the CPU flags; the FMA unit count
//! cannot be read from Linux and the clock a VM reports is its nominal one,
//! so both can be overridden (`--fma-units`, `--clock-ghz`). A short
//! measured FMA run is printed beside the formula as a check on it.
//!
//! The stream time of a memory-bound workload is its bytes at a fixed
//! bandwidth, 17.5 GB/s by the definition in ARCHITECTURE.md (the copy
//! bandwidth of the reference machine), so that a target such as "1.5× the
//! stream time" means the same on every run; `--stream-gbs` changes it. The
//! copy bandwidth measured here is printed beside it, not used: on a loaded
//! machine it measures the load.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The machine a run happened on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// `model name` from /proc/cpuinfo (what `lscpu` prints as "Model name").
    pub cpu: String,
    /// Threads the run used (Flex's worker threads, `torch.set_num_threads` for PyTorch).
    pub threads: usize,
    /// The widest f32 FMA instruction set the CPU reports.
    pub isa: String,
    /// f32 lanes of that instruction set.
    pub lanes: usize,
    /// FMA units per core assumed by the peak formula.
    pub fma_units: usize,
    /// Clock assumed by the peak formula, GHz.
    pub clock_ghz: f64,
    /// `threads × fma_units × lanes × 2 × clock_ghz`, GFLOP/s.
    pub peak_gflops: f64,
    /// The same formula at 8 lanes (AVX2), the widest Flex's kernels use;
    /// equal to `peak_gflops` on an AVX2 machine.
    pub peak_avx2_gflops: f64,
    /// Measured FMA throughput on `threads` threads at `lanes` width, GFLOP/s
    /// (0 where no probe exists for the architecture).
    pub measured_fma_gflops: f64,
    /// The same at 8 lanes (AVX2), measured only where `lanes` is wider.
    #[serde(default)]
    pub measured_fma_avx2_gflops: f64,
    /// Measured copy bandwidth on `threads` threads, GB/s (bytes read + written).
    pub copy_gbs: f64,
    /// The bandwidth that defines the stream time, GB/s.
    #[serde(default = "definition_stream_gbs")]
    pub stream_gbs: f64,
}

/// The stream bandwidth of ARCHITECTURE.md's definition, GB/s.
pub const DEFINITION_STREAM_GBS: f64 = 17.5;

fn definition_stream_gbs() -> f64 {
    DEFINITION_STREAM_GBS
}

/// Overrides for the parts of the peak formula Linux cannot tell, and for
/// the stream bandwidth.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overrides {
    pub fma_units: Option<usize>,
    pub clock_ghz: Option<f64>,
    pub stream_gbs: Option<f64>,
}

/// FMA units per core when not told: two on every x86 core of the last
/// decade that has FMA (Haswell on, Zen 2 on, Xeon Gold/Platinum for AVX-512).
const DEFAULT_FMA_UNITS: usize = 2;

/// The f32 peak, GFLOP/s: an FMA is two flops.
pub fn peak_gflops(threads: usize, fma_units: usize, lanes: usize, clock_ghz: f64) -> f64 {
    (threads * fma_units * lanes * 2) as f64 * clock_ghz
}

/// The thread count Flex runs on (`burn_flex::threads`): `BURN_FLEX_THREADS`
/// when set, otherwise every available core.
pub fn flex_threads() -> usize {
    std::env::var("BURN_FLEX_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Describes this machine, measuring the FMA throughput and copy bandwidth
/// (about a second in all).
pub fn detect(threads: usize, overrides: Overrides) -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo_field(&cpuinfo, "model name").unwrap_or_else(|| "unknown CPU".into());
    let flags = cpuinfo_field(&cpuinfo, "flags").unwrap_or_default();
    let (isa, lanes) = widest_fma(&flags);
    let fma_units = overrides.fma_units.unwrap_or(DEFAULT_FMA_UNITS);
    let clock_ghz = overrides
        .clock_ghz
        .or_else(|| max_clock_ghz(&cpuinfo))
        .unwrap_or(0.0);
    Machine {
        cpu,
        threads,
        isa: isa.into(),
        lanes,
        fma_units,
        clock_ghz,
        peak_gflops: peak_gflops(threads, fma_units, lanes, clock_ghz),
        peak_avx2_gflops: peak_gflops(threads, fma_units, lanes.min(8), clock_ghz),
        measured_fma_gflops: probe::fma_gflops(threads, lanes),
        measured_fma_avx2_gflops: if lanes > 8 {
            probe::fma_gflops(threads, 8)
        } else {
            0.0
        },
        copy_gbs: copy_bandwidth_gbs(threads),
        stream_gbs: overrides.stream_gbs.unwrap_or(DEFINITION_STREAM_GBS),
    }
}

fn cpuinfo_field(cpuinfo: &str, key: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// The widest f32 FMA the flags announce, and its lane count. Without FMA
/// the "FMA units" of the formula are a multiplier and an adder issuing
/// together, at SSE width.
fn widest_fma(flags: &str) -> (&'static str, usize) {
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    if has("avx512f") {
        ("AVX-512", 16)
    } else if has("avx2") && has("fma") {
        ("AVX2+FMA", 8)
    } else if has("avx") {
        ("AVX (no FMA)", 8)
    } else {
        ("SSE", 4)
    }
}

/// The highest clock Linux reports: the cpufreq maximum where the kernel has
/// it (bare metal: the boost clock), else the highest `cpu MHz` line (a VM:
/// the nominal clock, an underestimate when the host boosts).
fn max_clock_ghz(cpuinfo: &str) -> Option<f64> {
    let cpufreq = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .map(|khz| khz / 1e6);
    cpufreq.or_else(|| {
        cpuinfo
            .lines()
            .filter_map(|line| {
                let (k, v) = line.split_once(':')?;
                (k.trim() == "cpu MHz").then(|| v.trim().parse::<f64>().ok())?
            })
            .reduce(f64::max)
            .map(|mhz| mhz / 1e3)
    })
}

/// Best of five copies of 256 MiB split over `threads` threads, counting
/// bytes read plus bytes written (the convention of STREAM's copy).
fn copy_bandwidth_gbs(threads: usize) -> f64 {
    const LEN: usize = 64 << 20; // f32 elements: 256 MiB
    let src = vec![1.0f32; LEN];
    let mut dst = vec![0.0f32; LEN]; // written once here, so no page faults are timed
    let chunk = LEN.div_ceil(threads.max(1));
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t0 = Instant::now();
        std::thread::scope(|s| {
            for (d, c) in dst.chunks_mut(chunk).zip(src.chunks(chunk)) {
                s.spawn(move || d.copy_from_slice(c));
            }
        });
        best = best.min(t0.elapsed());
    }
    std::hint::black_box(&dst);
    (2 * LEN * 4) as f64 / best.as_secs_f64() / 1e9
}

/// The measured FMA throughput: independent FMA chains, enough of them to
/// hide the instruction latency on two ports, on every thread at once.
mod probe {
    use std::time::Instant;

    /// Chains per thread: FMA latency (4 cycles) × 2 ports needs 8; 12 leaves margin.
    const CHAINS: usize = 12;
    const ITERS: u64 = 100_000_000;

    /// GFLOP/s of `threads` threads running FMAs at `lanes` width, or 0
    /// where the CPU lacks the instructions.
    pub fn fma_gflops(threads: usize, lanes: usize) -> f64 {
        #[cfg(target_arch = "x86_64")]
        {
            let run: fn(u64) -> f32 = match lanes {
                16 if std::is_x86_feature_detected!("avx512f") => run_avx512,
                8 if std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("fma") =>
                {
                    run_avx2
                }
                _ => return 0.0,
            };
            let t0 = Instant::now();
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(|| std::hint::black_box(run(ITERS)));
                }
            });
            let flops = (threads as u64 * ITERS * CHAINS as u64 * lanes as u64 * 2) as f64;
            flops / t0.elapsed().as_secs_f64() / 1e9
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (threads, lanes, Instant::now());
            0.0
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn run_avx2(iters: u64) -> f32 {
        // SAFETY: chosen only after `is_x86_feature_detected!` found avx2 and fma.
        unsafe { fma_avx2(iters) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn fma_avx2(iters: u64) -> f32 {
        use std::arch::x86_64::*;
        let a = _mm256_set1_ps(0.999_999);
        let b = _mm256_set1_ps(1e-7);
        let mut acc = [_mm256_set1_ps(1.0); CHAINS];
        for _ in 0..iters {
            for r in acc.iter_mut() {
                *r = _mm256_fmadd_ps(*r, a, b);
            }
        }
        let sum = acc
            .iter()
            .fold(_mm256_setzero_ps(), |s, &r| _mm256_add_ps(s, r));
        _mm256_cvtss_f32(sum)
    }

    #[cfg(target_arch = "x86_64")]
    fn run_avx512(iters: u64) -> f32 {
        // SAFETY: chosen only after `is_x86_feature_detected!` found avx512f.
        unsafe { fma_avx512(iters) }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn fma_avx512(iters: u64) -> f32 {
        use std::arch::x86_64::*;
        let a = _mm512_set1_ps(0.999_999);
        let b = _mm512_set1_ps(1e-7);
        let mut acc = [_mm512_set1_ps(1.0); CHAINS];
        for _ in 0..iters {
            for r in acc.iter_mut() {
                *r = _mm512_fmadd_ps(*r, a, b);
            }
        }
        _mm512_reduce_add_ps(
            acc.iter()
                .fold(_mm512_setzero_ps(), |s, &r| _mm512_add_ps(s, r)),
        )
    }
}

/// The three load averages of /proc/loadavg (1, 5, 15 minutes), if readable.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

/// Now, as `YYYY-MM-DD HH:MM UTC`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since 1970-01-01 UTC as `YYYY-MM-DD HH:MM UTC`.
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    let rem = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01, counting
/// in 400-year eras that start on March 1st so the leap day ends each year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of the March-based year
    let mp = (5 * doy + 2) / 153; // month, March = 0
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_formula_matches_the_architecture_figure() {
        // 2 Zen 3 cores × 2 FMA units × 8 lanes × 2 flops × 2.9 GHz = 185.6
        let peak = peak_gflops(2, 2, 8, 2.9);
        assert!((peak - 185.6).abs() < 1e-9, "{peak}");
    }

    #[test]
    fn widest_fma_prefers_avx512_then_avx2() {
        assert_eq!(widest_fma("fpu sse avx avx2 fma avx512f"), ("AVX-512", 16));
        assert_eq!(widest_fma("fpu sse avx fma avx2"), ("AVX2+FMA", 8));
        assert_eq!(widest_fma("fpu sse avx"), ("AVX (no FMA)", 8));
        assert_eq!(widest_fma("fpu sse"), ("SSE", 4));
        // A flag that only starts with the name does not count.
        assert_eq!(widest_fma("avx512fx avx2x"), ("SSE", 4));
    }

    #[test]
    fn cpuinfo_fields_are_read_by_exact_key() {
        let info = "processor\t: 0\nmodel name\t: Some CPU @ 2.60GHz\ncpu MHz\t\t: 2599.998\n\
                    processor\t: 1\ncpu MHz\t\t: 3100.5\n";
        assert_eq!(
            cpuinfo_field(info, "model name").as_deref(),
            Some("Some CPU @ 2.60GHz")
        );
        assert_eq!(cpuinfo_field(info, "model"), None);
    }

    #[test]
    fn dates_match_known_epochs() {
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        // 2000-02-29 00:00 UTC: 30 years of which 7 leap (72..96), plus 59 days.
        assert_eq!(
            format_utc((30 * 365 + 7 + 59) * 86_400),
            "2000-02-29 00:00 UTC"
        );
        // 2024-12-31 23:59 UTC: 54 years with 13 leap days (72..2020), plus 365 days.
        let secs = (54 * 365 + 13 + 365) * 86_400 + 23 * 3600 + 59 * 60;
        assert_eq!(format_utc(secs), "2024-12-31 23:59 UTC");
    }

    #[test]
    fn fma_probe_reports_zero_for_an_unknown_width() {
        assert_eq!(probe::fma_gflops(1, 3), 0.0);
    }
}
