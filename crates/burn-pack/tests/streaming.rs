//! Saving holds about one tensor in memory: when a provider runs, the bytes
//! of the previous tensor are already freed. Checked with a counting global
//! allocator (one test per binary, so the counts are this test's alone), and
//! on Linux that a mapped reader touches tensor pages only when used.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use burn_pack::{Reader, Tensor, Writer};
use burn_std::{Bytes, DType};
use common::TempDir;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the caller's arguments; the
// counter never influences the returned pointers.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            CURRENT.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            CURRENT.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TENSORS: usize = 12;
const TENSOR_BYTES: usize = 4 << 20;

/// Deferred tensors whose providers record how much is allocated when they
/// are called, before producing their own bytes.
fn deferred_tensors(seen: &Arc<Mutex<Vec<usize>>>) -> Vec<Tensor> {
    (0..TENSORS)
        .map(|i| {
            let seen = seen.clone();
            Tensor::deferred(
                format!("layer.{i}"),
                DType::F32,
                [TENSOR_BYTES / 4],
                TENSOR_BYTES,
                move || {
                    seen.lock().unwrap().push(CURRENT.load(Ordering::Relaxed));
                    let mut bytes = Bytes::zeroed(TENSOR_BYTES);
                    bytes[0] = i as u8;
                    Ok::<_, std::io::Error>(bytes)
                },
            )
        })
        .collect()
}

/// Largest allocation seen by a provider above `baseline`.
fn worst(seen: &Mutex<Vec<usize>>, baseline: usize) -> usize {
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), TENSORS, "every provider ran once");
    seen.iter()
        .map(|&c| c.saturating_sub(baseline))
        .max()
        .unwrap()
}

#[test]
fn saving_holds_one_tensor_at_a_time() {
    let dir = TempDir::new("streaming");
    let path = dir.join("model.bpk");

    // Streaming to a sink without buffering: nothing but the plan remains
    // when a provider runs.
    let seen = Arc::new(Mutex::new(Vec::with_capacity(TENSORS)));
    let writer = Writer::new(deferred_tensors(&seen));
    let baseline = CURRENT.load(Ordering::Relaxed);
    writer.write_into(std::io::sink()).unwrap();
    let extra = worst(&seen, baseline);
    assert!(
        extra < TENSOR_BYTES / 4,
        "{extra} bytes held when a provider ran"
    );

    // To a file (through the scratch file and a 1 MiB write buffer).
    let seen = Arc::new(Mutex::new(Vec::with_capacity(TENSORS)));
    let writer = Writer::new(deferred_tensors(&seen));
    let baseline = CURRENT.load(Ordering::Relaxed);
    writer.write_to_file(&path).unwrap();
    let extra = worst(&seen, baseline);
    assert!(
        extra < TENSOR_BYTES / 2,
        "{extra} bytes held when a provider ran"
    );

    // The whole set would have been 48 MiB.
    let reader = Reader::open(&path).unwrap();
    assert_eq!(reader.len(), TENSORS);
    assert_eq!(reader.get("layer.7").unwrap().bytes().unwrap()[0], 7);

    #[cfg(target_os = "linux")]
    mapped_pages_are_touched_on_use(&path);
}

/// Resident set size of this process, from /proc.
#[cfg(target_os = "linux")]
fn rss_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[cfg(target_os = "linux")]
fn mapped_pages_are_touched_on_use(path: &std::path::Path) {
    let total = TENSORS * TENSOR_BYTES;
    let before = rss_bytes();
    let reader = Reader::open(path).unwrap();
    let opened = rss_bytes();
    assert!(
        opened.saturating_sub(before) < total / 8,
        "opening grew RSS by {} bytes",
        opened - before
    );
    let mut sum = 0u64;
    for tensor in &reader {
        sum += tensor
            .bytes()
            .unwrap()
            .iter()
            .map(|&b| u64::from(b))
            .sum::<u64>();
    }
    assert_eq!(sum, (0..TENSORS as u64).sum::<u64>());
    let touched = rss_bytes();
    assert!(
        touched.saturating_sub(opened) > total / 2,
        "touching every tensor grew RSS by only {} bytes",
        touched.saturating_sub(opened)
    );
}
