//! Opening and applying a large state dict in each format, beside PyTorch's
//! `torch.load(.., mmap=True)` + `load_state_dict` in the same run, with the
//! peak resident memory beyond the module itself.
//!
//! ```text
//! cargo run --release -p burn-store --example load_bench -- \
//!     --python ~/torch/bin/python --dir /tmp/load-bench --size-mb 500 --runs 5
//! ```
//!
//! The files (a stack of `nn.Linear(4096, 4096)`, `size-mb` in f32) are
//! written once into `--dir` by `load_bench.py` (PyTorch's `.pt` and
//! SafeTensors) and by this program (burnpack). Each timing starts from a
//! freshly built module, whose parameters are lazy, and ends when every
//! parameter holds its data; the PyTorch module is built before its timing
//! starts. Peak memory: the kernel's high-water mark is reset before each
//! load (`/proc/self/clear_refs`), and the figure is that mark minus the
//! resident memory before the load, minus the module's own bytes on the
//! Burn side (PyTorch's module is resident before its load). Linux only.

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
}

fn args() -> Args {
    let mut args = Args {
        dir: std::env::temp_dir().join("burn-store-load-bench"),
        python: "python3".into(),
        size_mb: 500.0,
        runs: 5,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--dir" => args.dir = value.into(),
            "--python" => args.python = value,
            "--size-mb" => args.size_mb = value.parse().expect("--size-mb"),
            "--runs" => args.runs = value.parse().expect("--runs"),
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

/// Times `load` `runs` times, each into a fresh module; (median seconds,
/// largest peak beyond the module, in bytes).
fn time(runs: usize, layers: usize, device: &Device, mut load: impl FnMut(&mut Mlp)) -> (f64, i64) {
    let mut times = Vec::new();
    let mut extra = 0i64;
    for _ in 0..runs {
        let mut model = Mlp::new(layers, device);
        reset_peak();
        let before = status("VmRSS");
        let start = Instant::now();
        load(&mut model);
        times.push(start.elapsed().as_secs_f64());
        let peak = status("VmHWM") as i64 - before as i64 - Mlp::bytes(layers) as i64;
        extra = extra.max(peak);
        drop(model);
    }
    (median(times), extra)
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

    let torch = python(
        &args,
        &["time", args.dir.to_str().unwrap(), &args.runs.to_string()],
    );
    let torch_s = torch["median_s"].as_f64().unwrap();
    let torch_extra = torch["peak_extra_bytes"].as_i64().unwrap();

    let pt = time(args.runs, layers, &device, |m| {
        let mut store =
            PytorchStore::from_file(args.dir.join("model.pt")).with_key_remapping(remap.0, remap.1);
        m.load_from(&mut store).unwrap();
    });
    let st = time(args.runs, layers, &device, |m| {
        let mut store = SafetensorsStore::from_file(args.dir.join("model.safetensors"))
            .with_from_adapter(PyTorchToBurnAdapter)
            .with_key_remapping(remap.0, remap.1);
        m.load_from(&mut store).unwrap();
    });
    let bp = time(args.runs, layers, &device, |m| {
        m.load_from(&mut BurnpackStore::from_file(&bpk)).unwrap();
    });

    let mb = |b: i64| b as f64 / (1 << 20) as f64;
    let tensor_mb = mb((WIDTH * WIDTH * 4) as i64);
    println!(
        "state dict: {layers} x Linear({WIDTH}, {WIDTH}), {:.0} MB f32; largest tensor {tensor_mb:.0} MB; {} runs, medians",
        mb(Mlp::bytes(layers) as i64),
        args.runs
    );
    println!(
        "{:<44} {:>9} {:>10} {:>16}",
        "load", "median", "vs torch", "peak beyond module"
    );
    println!(
        "{:<44} {:>7.3} s {:>10} {:>13.0} MB",
        "torch.load(mmap=True) + load_state_dict",
        torch_s,
        "1.00",
        mb(torch_extra)
    );
    for (name, (s, extra)) in [
        ("PytorchStore (.pt, transposed to Burn)", pt),
        ("SafetensorsStore + PyTorchToBurnAdapter", st),
        ("BurnpackStore (.bpk, Burn layout)", bp),
    ] {
        println!(
            "{name:<44} {s:>7.3} s {:>10.2} {:>13.0} MB",
            s / torch_s,
            mb(extra)
        );
    }
}
