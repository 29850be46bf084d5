//! Saves a ~1 GiB module two ways and loads it back, reporting time and
//! memory at each step.
//!
//! ```text
//! nice -n 19 cargo run --release -p burn-core --example record_bench [-- PATH]
//! ```
//!
//! The module: 64 Linear-like layers, each a 2048 x 2048 f32 weight and a
//! 2048 bias (16 MiB per layer, 1 GiB in all), on the Flex device.
//!
//! What it shows:
//! - `module.save_file(path)` streams: each parameter is read back only when
//!   the writer reaches it and dropped before the next, so the save holds
//!   about one tensor (16 MiB) beyond the module itself;
//! - `module.clone().into_record().save(path)` first copies every parameter
//!   into the record, so it holds a second 1 GiB;
//! - `ModuleRecord::load(path)` maps the file and copies each tensor out of
//!   the mapping into the record, and `load_record` moves those bytes into
//!   the module's tensors. The target module is built from lazy parameters,
//!   so loading never runs (or allocates for) an initializer.
//!
//! Two memory figures per step:
//! - heap: a counting `#[global_allocator]` sees every allocation (the Flex
//!   backend allocates tensor storage through it), so "peak heap beyond the
//!   module" is exact: the highest live total during the step minus what was
//!   live before it;
//! - RSS: VmHWM from /proc/self/status (Linux), reset before each step
//!   through /proc/self/clear_refs. It also counts pages glibc keeps after a
//!   free and, once a file is mapped, its page-cache pages (RssFile);
//!   `MALLOC_MMAP_THRESHOLD_=131072` makes every tensor buffer its own
//!   mapping, returned on free.
//!
//! The file is written at PATH (default: the system temp dir) and removed at
//! the end. Right after a save its pages are in the page cache, so the load
//! measures mapping and copying cached pages, not the disk.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use burn::module::{Module, Param, ParamId};
use burn::record::ModuleRecord;
use burn::tensor::{Device, Tensor};
use burn_core as burn;

const LAYERS: usize = 64;
const WIDTH: usize = 2048;

// ------------------------------------------------------ counting allocator

/// Bytes currently allocated, and the highest value since the last reset.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes.
struct Counting;

impl Counting {
    fn grew(by: usize) {
        let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }

    fn shrank(by: usize) {
        LIVE.fetch_sub(by, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees are ours; the counters only observe
// sizes of successful calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `alloc`'s contract.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            Self::grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `alloc_zeroed`'s contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            Self::grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is; `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        Self::shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `realloc`'s contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // On failure the old block stays allocated and nothing changes.
            Self::shrank(layout.size());
            Self::grew(new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

// ------------------------------------------------------------ measurement

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn mib_kib(kib: Option<u64>) -> String {
    kib.map_or_else(
        || "n/a".to_owned(),
        |k| format!("{:.0} MiB", k as f64 / 1024.0),
    )
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// What one step cost.
struct Step {
    time: Duration,
    /// Live heap before the step.
    before: usize,
    /// Highest live heap during the step.
    peak: usize,
    /// Live heap after the step.
    after: usize,
    /// Peak RSS during the step (VmHWM), if it could be reset first.
    peak_rss: Option<u64>,
}

/// Runs `f`, measuring it.
fn measure<T>(f: impl FnOnce() -> T) -> (T, Step) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    // Reset VmHWM to the current RSS (Linux 4.0+).
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let start = Instant::now();
    let out = f();
    let time = start.elapsed();
    let step = Step {
        time,
        before,
        peak: PEAK.load(Ordering::Relaxed),
        after: LIVE.load(Ordering::Relaxed),
        peak_rss: if reset { status_kib("VmHWM:") } else { None },
    };
    (out, step)
}

fn report(name: &str, step: &Step) {
    println!(
        "{name}: {:.2} s; heap before {}, peak beyond that {}, after {}; peak RSS {}, RSS now {} (file-backed {})",
        step.time.as_secs_f64(),
        mib(step.before),
        mib(step.peak - step.before),
        mib(step.after),
        mib_kib(step.peak_rss),
        mib_kib(status_kib("VmRSS:")),
        mib_kib(status_kib("RssFile:")),
    );
}

// ----------------------------------------------------------------- module

/// Burn's `Linear` layout: weight `[d_input, d_output]`, bias `[d_output]`.
#[derive(Module, Debug)]
struct Layer {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

#[derive(Module, Debug)]
struct Big {
    layers: Vec<Layer>,
}

/// The value every weight of layer `i` holds (its bias holds the negation):
/// distinct per layer, so a load that mixed layers up would be caught.
fn fill(i: usize) -> f32 {
    0.25 + i as f32
}

fn build(device: &Device) -> Big {
    let layers = (0..LAYERS)
        .map(|i| Layer {
            weight: Param::from_tensor(Tensor::full([WIDTH, WIDTH], fill(i), device)),
            bias: Param::from_tensor(Tensor::full([WIDTH], -fill(i), device)),
        })
        .collect();
    Big { layers }
}

/// The same structure, every parameter lazy: loading replaces the
/// initializers without running them, so the target costs no memory.
fn lazy_target(device: &Device) -> Big {
    let layers = (0..LAYERS)
        .map(|_| Layer {
            weight: Param::uninitialized(
                ParamId::new(),
                |device, _| Tensor::zeros([WIDTH, WIDTH], device),
                device.clone(),
                true,
                [WIDTH, WIDTH],
            ),
            bias: Param::uninitialized(
                ParamId::new(),
                |device, _| Tensor::zeros([WIDTH], device),
                device.clone(),
                true,
                [WIDTH],
            ),
        })
        .collect();
    Big { layers }
}

/// Reads every parameter back, one at a time, and checks each value.
fn check(model: &Big) -> Result<(), String> {
    for (i, layer) in model.layers.iter().enumerate() {
        let weight = layer.weight.val().into_data().to_vec::<f32>();
        let bias = layer.bias.val().into_data().to_vec::<f32>();
        let (weight, bias) = (
            weight.map_err(|e| e.to_string())?,
            bias.map_err(|e| e.to_string())?,
        );
        if weight.len() != WIDTH * WIDTH || weight.iter().any(|&v| v != fill(i)) {
            return Err(format!("layer {i}: weight values differ from {}", fill(i)));
        }
        if bias.len() != WIDTH || bias.iter().any(|&v| v != -fill(i)) {
            return Err(format!("layer {i}: bias values differ from {}", -fill(i)));
        }
    }
    Ok(())
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("record_bench-{}.bpk", std::process::id()))
        });
    let device = Device::flex();
    let layer_bytes = (WIDTH * WIDTH + WIDTH) * 4;
    println!(
        "record_bench: {LAYERS} layers of {WIDTH}x{WIDTH} f32 weight + {WIDTH} bias ({} each, {} in all) -> {}",
        mib(layer_bytes),
        mib(LAYERS * layer_bytes),
        path.display()
    );

    let (model, step) = measure(|| build(&device));
    report("build the module", &step);
    let ids: Vec<ParamId> = model.layers.iter().map(|l| l.weight.id).collect();

    // --- save, streaming ---------------------------------------------------
    let (saved, step) = measure(|| model.save_file(&path));
    saved?;
    report("save, streaming: module.save_file(path)", &step);
    println!("  file {} bytes", file_len(&path));

    // --- save through a record -------------------------------------------
    let (saved, step) = measure(|| model.clone().into_record().save(&path));
    saved?;
    report(
        "save, via record: module.clone().into_record().save(path)",
        &step,
    );
    println!("  file {} bytes", file_len(&path));

    drop(model);
    let target = lazy_target(&device);
    println!(
        "dropped the module; lazy target built, heap {}, RSS {}",
        mib(LIVE.load(Ordering::Relaxed)),
        mib_kib(status_kib("VmRSS:"))
    );

    // --- load --------------------------------------------------------------
    let (record, step) = measure(|| ModuleRecord::load(&path));
    let record = record?;
    report("load: ModuleRecord::load(path) (map + copy out)", &step);
    let (loaded, step) = measure(|| target.try_load_record(record));
    let loaded = loaded?;
    report("load: target.load_record(record)", &step);

    let (checked, step) = measure(|| check(&loaded));
    checked?;
    let ids_kept = loaded
        .layers
        .iter()
        .zip(&ids)
        .all(|(layer, id)| layer.weight.id == *id);
    report("check every value (read back one tensor at a time)", &step);
    println!(
        "  values match: yes; parameter ids kept: {}",
        if ids_kept { "yes" } else { "NO" }
    );

    drop(loaded);
    std::fs::remove_file(&path)?;
    println!("removed {}", path.display());
    if !ids_kept {
        return Err("the loaded parameters lost their ids".into());
    }
    Ok(())
}
