//! `burn-bench`: times the workloads of the benchmark suite through the
//! public tensor API on `Device::flex()`, and compares a run with the
//! PyTorch script beside it (`pytorch/bench.py`).
//!
//! ```text
//! burn-bench [--device flex|cuda|wgpu] [--filter SUBSTR] [--quick] [--json FILE] [--list]
//!            [--fma-units N] [--clock-ghz GHZ] [--stream-gbs GBS]
//! burn-bench compare BURN.json TORCH.json
//! ```
//!
//! Every workload is warmed up, then timed one iteration at a time; the
//! table shows the median and the fastest iteration (see `timing.rs` for
//! the policy, which the PyTorch script repeats). An iteration ends with
//! the result in host memory. Flex runs on its worker threads: set
//! `BURN_FLEX_THREADS` and pass the same count to the PyTorch script's
//! `--threads` to compare other thread counts.
//!
//! Modules: `timing` (the policy, median), `workloads` (the suite),
//! `mlp` (the MLP of the model workloads), `machine` (peak, bandwidth,
//! load, date), `report` (JSON, tables, comparison).

mod machine;
mod mlp;
mod report;
mod timing;
mod workloads;

use std::path::PathBuf;
use std::process::ExitCode;

use burn::prelude::*;

use machine::Overrides;
use report::{Limits, Record, Report};
use timing::Policy;

const USAGE: &str = "\
usage: burn-bench [--device flex|cuda|wgpu] [--filter SUBSTR] [--quick] [--json FILE] [--list]
                  [--fma-units N] [--clock-ghz GHZ] [--stream-gbs GBS]
       burn-bench compare BURN.json TORCH.json

  --device NAME    flex (default) runs the CPU suite; cuda / wgpu (built with the
                   feature of that name) run the GPU suite on the CubeCL backend
  --filter SUBSTR  run only the workloads whose name contains SUBSTR
  --quick          short warm-up and few iterations (a smoke run, not a result)
  --json FILE      also write the results as JSON (the format compare reads)
  --list           print the workload names and exit
  --fma-units N    FMA units per core for the peak formula (default 2)
  --clock-ghz GHZ  clock for the peak formula (default: the highest Linux reports)
  --stream-gbs GBS bandwidth of the stream time (default 17.5, ARCHITECTURE.md's definition)";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Run(RunArgs),
    List,
    Compare { burn: PathBuf, torch: PathBuf },
    Help,
}

#[derive(Debug, Default, PartialEq)]
struct RunArgs {
    device: Target,
    filter: Option<String>,
    quick: bool,
    json: Option<PathBuf>,
    overrides: Overrides,
}

/// Where the suite runs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Target {
    #[default]
    Flex,
    Cuda,
    Wgpu,
}

impl Target {
    fn parse(name: &str) -> Result<Self, String> {
        match name {
            "flex" => Ok(Self::Flex),
            "cuda" => Ok(Self::Cuda),
            "wgpu" => Ok(Self::Wgpu),
            other => Err(format!(
                "--device: unknown device {other:?} (flex, cuda, wgpu)"
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Flex => "flex",
            Self::Cuda => "cuda",
            Self::Wgpu => "wgpu",
        }
    }

    /// The device, or why this build cannot make it.
    fn device(self) -> Result<Device, String> {
        match self {
            Self::Flex => Ok(Device::flex()),
            #[cfg(feature = "cuda-plain")]
            Self::Cuda => Ok(Device::cuda(0)),
            #[cfg(feature = "wgpu-plain")]
            Self::Wgpu => Ok(Device::wgpu(Default::default())),
            #[allow(unreachable_patterns)]
            other => Err(format!(
                "--device {0}: burn-bench was built without the `{0}` feature \
                 (cargo build --release -p burn-bench --features {0})",
                other.name()
            )),
        }
    }

    /// The workloads of this target: the CPU suite or the GPU sizes.
    fn workloads(self) -> Vec<workloads::Workload> {
        match self {
            Self::Flex => workloads::all(),
            Self::Cuda | Self::Wgpu => workloads::gpu(),
        }
    }
}

fn parse(args: &[String]) -> Result<Command, String> {
    if args.first().map(String::as_str) == Some("compare") {
        return match &args[1..] {
            [burn, torch] => Ok(Command::Compare {
                burn: burn.into(),
                torch: torch.into(),
            }),
            _ => Err("compare takes two files: BURN.json TORCH.json".into()),
        };
    }
    let mut run = RunArgs::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |flag: &str| {
            iter.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--list" => return Ok(Command::List),
            "--quick" => run.quick = true,
            "--filter" => run.filter = Some(value("--filter")?),
            "--device" => run.device = Target::parse(&value("--device")?)?,
            "--json" => run.json = Some(value("--json")?.into()),
            "--fma-units" => {
                let v = value("--fma-units")?;
                let n = v
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--fma-units: {v:?} is not a positive integer"))?;
                run.overrides.fma_units = Some(n);
            }
            "--clock-ghz" => {
                let v = value("--clock-ghz")?;
                let ghz = v
                    .parse::<f64>()
                    .ok()
                    .filter(|&g| g > 0.0)
                    .ok_or_else(|| format!("--clock-ghz: {v:?} is not a positive number"))?;
                run.overrides.clock_ghz = Some(ghz);
            }
            "--stream-gbs" => {
                let v = value("--stream-gbs")?;
                let gbs = v
                    .parse::<f64>()
                    .ok()
                    .filter(|&g| g > 0.0)
                    .ok_or_else(|| format!("--stream-gbs: {v:?} is not a positive number"))?;
                run.overrides.stream_gbs = Some(gbs);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Run(run))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match parse(&args) {
        Ok(Command::Help) => {
            println!("{USAGE}");
            Ok(())
        }
        Ok(Command::List) => {
            for w in workloads::all().into_iter().chain(workloads::gpu()) {
                println!("{}", w.name);
            }
            Ok(())
        }
        Ok(Command::Compare { burn, torch }) => compare(&burn, &torch),
        Ok(Command::Run(run_args)) => run(&run_args),
        Err(message) => Err(format!("{message}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("burn-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn compare(burn: &std::path::Path, torch: &std::path::Path) -> Result<(), String> {
    let burn = Report::load(burn)?;
    let torch = Report::load(torch)?;
    print!("{}", report::compare(&burn, &torch));
    Ok(())
}

fn run(args: &RunArgs) -> Result<(), String> {
    let device = args.device.device()?;
    let selected: Vec<_> = args
        .device
        .workloads()
        .into_iter()
        .filter(|w| {
            args.filter
                .as_ref()
                .is_none_or(|f| w.name.contains(f.as_str()))
        })
        .collect();
    if selected.is_empty() {
        return Err(format!(
            "no workload matches {:?} (see --list)",
            args.filter
        ));
    }
    let (policy, policy_name) = if args.quick {
        (Policy::QUICK, "quick")
    } else {
        (Policy::FULL, "full")
    };

    let load_before = machine::load_average();
    let date = machine::now_utc();
    let machine = machine::detect(machine::flex_threads(), args.overrides);
    let framework = match args.device {
        Target::Flex => "burn-flex".to_string(),
        other => format!("burn-cube-{}", other.name()),
    };
    // Built with `fusion` (the GPU features imply it), every device runs
    // under the Fusion decorator.
    let framework = if cfg!(feature = "fusion") {
        format!("{framework}-fused")
    } else {
        framework
    };
    println!(
        "{framework} {} — {date} — {} — {} threads — policy {policy_name}",
        env!("CARGO_PKG_VERSION"),
        machine.cpu,
        machine.threads,
    );
    println!("{}", report::machine_summary(&machine));
    if let Some(l) = load_before {
        println!("load average before: {:.2} {:.2} {:.2}", l[0], l[1], l[2]);
    }
    println!("\n{}", report::table_header());

    device.seed(0);
    let limits = Limits::of(&machine);
    let mut results = Vec::new();
    for workload in &selected {
        let runner = workload.setup(&device);
        let samples = timing::measure(&policy, runner);
        let record = Record {
            name: workload.name.into(),
            kind: workload.kind,
            work: workload.work,
            median_ms: samples.median().as_secs_f64() * 1e3,
            min_ms: samples.min().as_secs_f64() * 1e3,
            iters: samples.len(),
        };
        println!("{}", report::table_row(&record, limits));
        results.push(record);
    }

    let notes = vec![
        "mlp_forward_backward is forward + cross-entropy + backward + every gradient in host memory; \
         mlp_train_step is forward + cross-entropy + backward + an Adam step (lr 1e-3), the loss \
         in host memory"
            .to_string(),
    ];
    for note in &notes {
        println!("note: {note}");
    }
    let load_after = machine::load_average();
    if let Some(l) = load_after {
        println!("load average after: {:.2} {:.2} {:.2}", l[0], l[1], l[2]);
    }

    if let Some(path) = &args.json {
        let report = Report {
            framework,
            version: env!("CARGO_PKG_VERSION").into(),
            date,
            command: std::env::args().collect::<Vec<_>>().join(" "),
            policy: policy_name.into(),
            cpu: machine.cpu.clone(),
            threads: machine.threads,
            machine: Some(machine),
            load_before,
            load_after,
            notes,
            results,
        };
        report.save(path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn run_flags_are_parsed() {
        let cmd = parse(&args(&[
            "--quick",
            "--filter",
            "matmul",
            "--json",
            "out.json",
            "--clock-ghz",
            "2.9",
            "--fma-units",
            "1",
            "--stream-gbs",
            "20",
        ]))
        .unwrap();
        assert_eq!(
            cmd,
            Command::Run(RunArgs {
                device: Target::Flex,
                filter: Some("matmul".into()),
                quick: true,
                json: Some("out.json".into()),
                overrides: Overrides {
                    fma_units: Some(1),
                    clock_ghz: Some(2.9),
                    stream_gbs: Some(20.0),
                },
            })
        );
        assert_eq!(parse(&[]).unwrap(), Command::Run(RunArgs::default()));
    }

    #[test]
    fn device_flag_names_a_target() {
        let cmd = parse(&args(&["--device", "cuda"])).unwrap();
        let Command::Run(run) = cmd else {
            panic!("expected a run")
        };
        assert_eq!(run.device, Target::Cuda);
        assert!(
            parse(&args(&["--device", "tpu"]))
                .unwrap_err()
                .contains("tpu")
        );
    }

    #[test]
    fn compare_takes_exactly_two_files() {
        assert_eq!(
            parse(&args(&["compare", "a.json", "b.json"])).unwrap(),
            Command::Compare {
                burn: "a.json".into(),
                torch: "b.json".into(),
            }
        );
        assert!(parse(&args(&["compare", "a.json"])).is_err());
    }

    #[test]
    fn bad_arguments_are_rejected_with_the_flag_named() {
        assert!(
            parse(&args(&["--filter"]))
                .unwrap_err()
                .contains("--filter")
        );
        assert!(
            parse(&args(&["--clock-ghz", "fast"]))
                .unwrap_err()
                .contains("fast")
        );
        assert!(parse(&args(&["--fma-units", "0"])).is_err());
        assert!(parse(&args(&["--bogus"])).unwrap_err().contains("--bogus"));
    }
}
