//! Opening and applying a large state dict in each format, beside PyTorch's
//! `torch.load(.., mmap=True)` + `load_state_dict` in the same run, with the
//! peak resident memory beyond the module itself.
//!
//! ```text
//! cargo run --release -p burn-store --example load_bench -- \
//!     --python ~/torch/bin/python --dir /tmp/load-bench --size-mb 500 --runs 5 \
//!     [--into both|built|lazy]
//! ```
//!
//! The files (a stack of `nn.Linear(4096, 4096)`, `size-mb` in f32) are
//! written once into `--dir` by `load_bench.py` (PyTorch's `.pt` and
//! SafeTensors) and by this program (burnpack). PyTorch's loads and ours
//! alternate, one of each per round, so a shared machine's slow minutes
//! fall on both sides; "round ratio" is the median of each round's ratio
//! to that round's PyTorch load. Each store loads twice a round: into a
//! module built once before any timing, every parameter initialised and
//! resident, as PyTorch's is (the load overwrites the parameters in
//! place), and into a freshly built module, whose parameters are lazy (the
//! load allocates them, and the kernel clears those fresh pages inside the
//! timing). Each timing ends when every parameter holds its data. Peak
//! memory: the kernel's high-water mark is reset before each load
//! (`/proc/self/clear_refs`), and the figure is that mark minus the
//! resident memory before the load, minus the module's own bytes for a
//! lazy module. Linux only.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use burn::module::Module;
use burn_core as burn;
use burn_nn::{Linear, LinearConfig};
use burn_store::{
    BurnpackStore, ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore,
};
use burn_tensor::Device;

const WIDTH: usize = 4096;

#[derive(Module, Debug)]
struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    fn new(layers: usize, device: &Device) -> Self {
        Self {
            layers: (0..layers)
                .map(|_| LinearConfig::new(WIDTH, WIDTH).init(device))
                .collect(),
        }
    }

    fn bytes(layers: usize) -> u64 {
        (layers * (WIDTH * WIDTH + WIDTH) * 4) as u64
    }
}

fn status(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = text.lines().find(|l| l.starts_with(field)).expect("field");
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the high-water mark");
}

struct Args {
    dir: PathBuf,
    python: String,
    size_mb: f64,
    runs: usize,
    /// Which Burn modules to load into: `both`, `built` or `lazy`.
    into: String,
}

fn args() -> Args {
    let mut args = Args {
        dir: std::env::temp_dir().join("burn-store-load-bench"),
        python: "python3".into(),
        size_mb: 500.0,
        runs: 5,
        into: "both".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--dir" => args.dir = value.into(),
            "--python" => args.python = value,
            "--size-mb" => args.size_mb = value.parse().expect("--size-mb"),
            "--runs" => args.runs = value.parse().expect("--runs"),
            "--into" => {
                assert!(
                    ["both", "built", "lazy"].contains(&value.as_str()),
                    "--into takes both, built or lazy"
                );
                args.into = value;
            }
            other => panic!("unknown flag {other}"),
        }
    }
    args
}

fn python(args: &Args, script_args: &[&str]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/load_bench.py");
    let out = Command::new(&args.python)
        .arg(script)
        .args(script_args)
        .env("BENCH_THREADS", "2")
        .output()
        .expect("run the PyTorch side");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap()).expect("JSON from load_bench.py")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A load of the state dict into a module.
type Load<'a> = dyn Fn(&mut Mlp) + 'a;

/// One load into a fresh module, whose parameters are lazy (the load
/// allocates them): (seconds, peak beyond the module, in bytes).
fn into_fresh(layers: usize, device: &Device, load: &Load<'_>) -> (f64, i64) {
    let mut model = Mlp::new(layers, device);
    reset_peak();
    let before = status("VmRSS");
    let start = Instant::now();
    load(&mut model);
    let elapsed = start.elapsed().as_secs_f64();
    let peak = status("VmHWM") as i64 - before as i64 - Mlp::bytes(layers) as i64;
    drop(model);
    (elapsed, peak)
}

/// One load into `model`, built and resident before the timing, as
/// PyTorch's module is: (seconds, peak beyond the module, in bytes).
fn into_built(model: &mut Mlp, load: &Load<'_>) -> (f64, i64) {
    reset_peak();
    let before = status("VmRSS");
    let start = Instant::now();
    load(model);
    let elapsed = start.elapsed().as_secs_f64();
    let peak = status("VmHWM") as i64 - before as i64;
    (elapsed, peak)
}

/// PyTorch's side, kept running (`load_bench.py serve`), one timed load
/// per request, so that its loads and ours alternate in the same minutes.
struct Torch {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    /// Seconds PyTorch took to build (allocate and initialise) its module,
    /// outside its timings.
    build_s: f64,
}

impl Torch {
    fn start(args: &Args) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/load_bench.py");
        let mut child = Command::new(&args.python)
            .arg(script)
            .args(["serve", args.dir.to_str().unwrap()])
            .env("BENCH_THREADS", "2")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run the PyTorch side");
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut torch = Self {
            child,
            stdin,
            stdout,
            build_s: f64::NAN,
        };
        // {"ready": true, "build_s": …}: the module is built.
        torch.build_s = torch.line()["build_s"].as_f64().unwrap_or(f64::NAN);
        torch
    }

    fn line(&mut self) -> serde_json::Value {
        use std::io::BufRead;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .expect("read load_bench.py");
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("load_bench.py said {line:?}"))
    }

    fn once(&mut self) -> (f64, i64) {
        use std::io::Write;
        writeln!(self.stdin, "run").unwrap();
        self.stdin.flush().unwrap();
        let v = self.line();
        (
            v["s"].as_f64().unwrap(),
            v["peak_extra_bytes"].as_i64().unwrap(),
        )
    }
}

impl Drop for Torch {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = writeln!(self.stdin, "stop");
        let _ = self.child.wait();
    }
}

fn main() {
    let args = args();
    std::fs::create_dir_all(&args.dir).unwrap();
    let device = Device::flex();
    if !args.dir.join("model.safetensors").exists() {
        println!(
            "writing the state dict ({} MB) with PyTorch...",
            args.size_mb
        );
        python(
            &args,
            &[
                "generate",
                args.dir.to_str().unwrap(),
                &args.size_mb.to_string(),
            ],
        );
    }
    let layers = {
        let reader = burn_store::pytorch::PytorchReader::new(args.dir.join("model.pt")).unwrap();
        reader.keys().len() / 2
    };
    let remap = (r"^(\d+)\.", "layers.$1.");
    let bpk = args.dir.join("model.bpk");
    if !bpk.exists() {
        let mut model = Mlp::new(layers, &device);
        let mut store = SafetensorsStore::from_file(args.dir.join("model.safetensors"))
            .with_from_adapter(PyTorchToBurnAdapter)
            .with_key_remapping(remap.0, remap.1);
        model.load_from(&mut store).unwrap();
        model
            .save_into(&mut BurnpackStore::from_file(&bpk))
            .unwrap();
    }

    let pt_path = args.dir.join("model.pt");
    let st_path = args.dir.join("model.safetensors");
    let loads: [(&str, Box<Load>); 3] = [
        (
            "PytorchStore (.pt, transposed to Burn)",
            Box::new(|m: &mut Mlp| {
                let mut store =
                    PytorchStore::from_file(&pt_path).with_key_remapping(remap.0, remap.1);
                m.load_from(&mut store).unwrap();
            }),
        ),
        (
            "SafetensorsStore + PyTorchToBurnAdapter",
            Box::new(|m: &mut Mlp| {
                let mut store = SafetensorsStore::from_file(&st_path)
                    .with_from_adapter(PyTorchToBurnAdapter)
                    .with_key_remapping(remap.0, remap.1);
                m.load_from(&mut store).unwrap();
            }),
        ),
        (
            "BurnpackStore (.bpk, Burn layout)",
            Box::new(|m: &mut Mlp| {
                m.load_from(&mut BurnpackStore::from_file(&bpk)).unwrap();
            }),
        ),
    ];

    // One module built before any timing, every parameter initialised
    // (resident), which the "built" loads overwrite in place.
    let build = Instant::now();
    let mut built = Mlp::new(layers, &device);
    for layer in &built.layers {
        let _ = layer.weight.val();
        let _ = layer.bias.as_ref().map(|b| b.val());
    }
    let burn_build_s = build.elapsed().as_secs_f64();

    // Rounds: PyTorch once, then each store into a fresh module and into
    // the built one, `runs` times over.
    let mut torch = Torch::start(&args);
    let mut torch_times = Vec::new();
    let mut torch_extra = 0i64;
    let rows = 2 * loads.len();
    let mut times = vec![Vec::new(); rows];
    let mut ratios = vec![Vec::new(); rows];
    let mut extra = vec![0i64; rows];
    for _ in 0..args.runs {
        let (t, e) = torch.once();
        torch_times.push(t);
        torch_extra = torch_extra.max(e);
        for (i, (_, load)) in loads.iter().enumerate() {
            if args.into != "lazy" {
                let (s, e) = into_built(&mut built, load.as_ref());
                times[2 * i].push(s);
                ratios[2 * i].push(s / t);
                extra[2 * i] = extra[2 * i].max(e);
            }
            if args.into != "built" {
                let (s, e) = into_fresh(layers, &device, load.as_ref());
                let row = 2 * i + 1;
                times[row].push(s);
                ratios[row].push(s / t);
                extra[row] = extra[row].max(e);
            }
        }
    }
    let torch_build_s = torch.build_s;
    drop(torch);

    let mb = |b: i64| b as f64 / (1 << 20) as f64;
    let tensor_mb = mb((WIDTH * WIDTH * 4) as i64);
    println!(
        "state dict: {layers} x Linear({WIDTH}, {WIDTH}), {:.0} MB f32; largest tensor {tensor_mb:.0} MB; {} interleaved rounds, medians",
        mb(Mlp::bytes(layers) as i64),
        args.runs
    );
    println!(
        "{:<56} {:>9} {:>10} {:>14} {:>16}",
        "load", "median", "vs torch", "round ratio", "peak beyond module"
    );
    let torch_s = median(torch_times);
    println!(
        "{:<56} {:>7.3} s {:>10} {:>14} {:>13.0} MB",
        "torch.load(mmap=True) + load_state_dict",
        torch_s,
        "1.00",
        "1.00",
        mb(torch_extra)
    );
    for (i, (name, _)) in loads.iter().enumerate() {
        for (row, into) in [(2 * i, "built module"), (2 * i + 1, "lazy module")] {
            if times[row].is_empty() {
                continue;
            }
            let s = median(times[row].clone());
            println!(
                "{:<56} {s:>7.3} s {:>10.2} {:>14.2} {:>13.0} MB",
                format!("{name}, {into}"),
                s / torch_s,
                median(ratios[row].clone()),
                mb(extra[row])
            );
        }
    }
    println!(
        "(outside the timings: PyTorch built its module in {torch_build_s:.2} s and Burn its built one in {burn_build_s:.2} s, once each; Burn's {} lazy modules are fresh, nothing allocated until the load)",
        args.runs * loads.len()
    );
}
