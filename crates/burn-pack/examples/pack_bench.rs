//! Saves a ~1 GiB pack of many tensors through deferred providers and loads
//! it back through a memory map, reporting time and memory at each step.
//!
//! ```text
//! nice -n 19 cargo run --release -p burn-pack --example pack_bench [-- PATH]
//! ```
//!
//! What it shows:
//! - the save's peak resident memory stays near one tensor (plus the write
//!   buffer), not the 1 GiB the pack holds, because each provider runs only
//!   when the writer reaches its tensor and its bytes are dropped after;
//! - opening the pack maps it and reads only the header and metadata, so it
//!   costs microseconds and almost no memory; the data pages come in when
//!   the tensors are touched.
//!
//! Memory figures come from /proc/self/status (Linux): VmHWM is the peak
//! resident set, reset before the save through /proc/self/clear_refs. With
//! glibc's default malloc the peak also counts freed tensor buffers the
//! allocator keeps for reuse (it settles near 35 MiB after a few tensors and
//! stays flat); `MALLOC_MMAP_THRESHOLD_=131072` makes every tensor buffer its
//! own mapping, returned on free, and shows the live figure.
//! The file is written next to PATH (default: the system temp dir) and
//! removed at the end. Right after the save its pages are in the page cache,
//! so "touch" measures mapping and reading cached pages, not the disk.

use std::path::PathBuf;
use std::time::Instant;

use burn_pack::{Reader, Tensor, Writer};
use burn_std::{Bytes, DType};

const TENSORS: usize = 256;
/// 1024 x 1024 f32 = 4 MiB per tensor, 1 GiB in total.
const ROWS: usize = 1024;
const COLS: usize = 1024;

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(
        || "n/a".to_owned(),
        |k| format!("{:.1} MiB", k as f64 / 1024.0),
    )
}

/// Reset VmHWM to the current RSS (Linux 4.0+); false where unsupported.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("pack_bench-{}.bpk", std::process::id()))
        });
    let tensor_bytes = ROWS * COLS * 4;
    let total = TENSORS * tensor_bytes;
    println!(
        "pack_bench: {TENSORS} tensors of {ROWS}x{COLS} f32 ({:.1} MiB each, {:.2} GiB total) -> {}",
        tensor_bytes as f64 / (1 << 20) as f64,
        total as f64 / (1 << 30) as f64,
        path.display()
    );

    // --- save -------------------------------------------------------------
    let tensors: Vec<Tensor> = (0..TENSORS)
        .map(|i| {
            Tensor::deferred(
                format!("blocks.{i}.weight"),
                DType::F32,
                [ROWS, COLS],
                tensor_bytes,
                move || {
                    // Stand-in for a device readback: fill every byte, so
                    // the pages are really resident while the tensor lives.
                    let mut bytes = Bytes::zeroed(tensor_bytes);
                    for (j, v) in bytes.as_mut_slice_of::<f32>().iter_mut().enumerate() {
                        *v = (i * 7 + j % 1013) as f32;
                    }
                    Ok::<_, std::io::Error>(bytes)
                },
            )
            .with_param_id(i as u64)
        })
        .collect();
    let writer = Writer::new(tensors).with_metadata("producer", "pack_bench");

    let rss_before_save = status_kib("VmRSS:");
    let peak_reset = reset_peak();
    let start = Instant::now();
    writer.write_to_file(&path)?;
    let save_time = start.elapsed();
    let peak = status_kib("VmHWM:");
    let file_len = std::fs::metadata(&path)?.len();
    println!(
        "save (write_to_file, scratch + fsync + rename): {:.2} s, {:.0} MiB/s, file {} bytes",
        save_time.as_secs_f64(),
        file_len as f64 / (1 << 20) as f64 / save_time.as_secs_f64(),
        file_len
    );
    println!(
        "  RSS before save {}, peak RSS during save {}{} (one tensor = {:.1} MiB, all = {:.0} MiB)",
        mib(rss_before_save),
        mib(peak),
        if peak_reset {
            ""
        } else {
            " (peak not reset: includes earlier use)"
        },
        tensor_bytes as f64 / (1 << 20) as f64,
        total as f64 / (1 << 20) as f64
    );

    // --- load -------------------------------------------------------------
    let rss_before_open = status_kib("VmRSS:");
    let start = Instant::now();
    let reader = Reader::open(&path)?;
    let tensors = reader.len();
    let meta = reader.metadata().len();
    let open_time = start.elapsed();
    let rss_open = status_kib("VmRSS:");
    println!(
        "(a) open + metadata: {:.3} ms, {tensors} tensors, {meta} metadata entries, RSS {} -> {}",
        open_time.as_secs_f64() * 1e3,
        mib(rss_before_open),
        mib(rss_open)
    );

    let start = Instant::now();
    let mut checksum = 0u64;
    for tensor in &reader {
        // Read every byte: faults each page of the mapping in.
        let bytes = tensor.bytes().expect("read tensors hold bytes");
        checksum = checksum.wrapping_add(bytes.iter().map(|&b| u64::from(b)).sum::<u64>());
    }
    let touch_time = start.elapsed();
    let rss_touched = status_kib("VmRSS:");
    println!(
        "(b) touch every tensor: {:.1} ms ({:.0} MiB/s), RSS {} (checksum {checksum})",
        touch_time.as_secs_f64() * 1e3,
        total as f64 / (1 << 20) as f64 / touch_time.as_secs_f64(),
        mib(rss_touched)
    );

    drop(reader);
    std::fs::remove_file(&path)?;
    println!("removed {}", path.display());
    Ok(())
}
