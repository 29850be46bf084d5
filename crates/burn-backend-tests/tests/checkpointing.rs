//! Balanced checkpointing lowers the peak memory of a backward pass.
//!
//! A separate executable because it installs a counting global allocator
//! (one per executable) and must be the only test running while it reads
//! the counters: [`counting`] wraps `std::alloc::System` and tracks the live
//! heap bytes and their peak. The same chain (a matmul, then 20 rounds of
//! memory-bound ops on 256 × 256 f32 tensors of 256 KiB each) runs forward
//! and backward under each strategy. Without checkpointing, every round
//! keeps two activations for its backward step (~10 MiB over the chain);
//! with balanced checkpointing, the rounds keep nothing and are recomputed
//! from the matmul output during backward.
//!
//! Flex only, on `Device::flex()` even when a GPU feature is on too: the
//! counter sees host memory, and a GPU backend keeps its tensors in device
//! memory, out of its sight. The gradients of both strategies are compared
//! on every backend by the autodiff suite's `checkpointing` module.
#![cfg(feature = "flex")]

use burn::tensor::{Checkpointing, Device, Tensor, TensorData};

/// A global allocator that counts live heap bytes and their peak.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CURRENT: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    /// `System`, counting.
    pub struct Counting;

    fn grew(bytes: usize) {
        let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }

    fn shrank(bytes: usize) {
        CURRENT.fetch_sub(bytes, Ordering::Relaxed);
    }

    // SAFETY: every call forwards to `System` with the caller's arguments,
    // so `System`'s guarantees hold; the counters are only bookkeeping.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: forwarded unchanged (the caller upholds `alloc`'s contract).
            let ptr = unsafe { System.alloc(layout) };
            if !ptr.is_null() {
                grew(layout.size());
            }
            ptr
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: forwarded unchanged.
            let ptr = unsafe { System.alloc_zeroed(layout) };
            if !ptr.is_null() {
                grew(layout.size());
            }
            ptr
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: forwarded unchanged; `ptr` came from this allocator, i.e. from `System`.
            unsafe { System.dealloc(ptr, layout) };
            shrank(layout.size());
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: forwarded unchanged; `ptr` came from `System`.
            let new = unsafe { System.realloc(ptr, layout, new_size) };
            if !new.is_null() {
                shrank(layout.size());
                grew(new_size);
            }
            new
        }
    }

    /// The live heap bytes now.
    pub fn current() -> usize {
        CURRENT.load(Ordering::Relaxed)
    }

    /// Restarts the peak from the current live bytes.
    pub fn reset_peak() {
        PEAK.store(current(), Ordering::Relaxed);
    }

    /// The highest live byte count since the last [`reset_peak`].
    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed)
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const SIZE: usize = 256;
const STEPS: usize = 20;
const TENSOR_BYTES: usize = SIZE * SIZE * 4;

fn input(phase: f64, device: &Device) -> Tensor<2> {
    let values: Vec<f32> = (0..SIZE * SIZE)
        .map(|k| (0.05 * (k as f64 * 0.37 + phase).sin()) as f32)
        .collect();
    Tensor::from_data(TensorData::new(values, [SIZE, SIZE]), device)
}

/// Peak heap bytes above the starting point during forward + backward, and
/// the gradient of `x` (to compare the strategies' results).
fn run(checkpointing: Checkpointing, steps: usize) -> (usize, TensorData) {
    let device = Device::flex().autodiff_with_checkpointing(checkpointing);
    let x = input(0.0, &device).require_grad();
    let w = input(1.0, &device).require_grad();
    let start = counting::current();
    counting::reset_peak();
    let grad = {
        let mut h = x.clone().matmul(w.clone());
        for _ in 0..steps {
            h = (h.clone().exp() * 0.5).tanh() + h * 0.5;
        }
        let grads = h.sum().backward();
        x.grad(&grads).unwrap()
    };
    let peak = counting::peak().saturating_sub(start);
    (peak, grad.into_data())
}

#[test]
fn balanced_checkpointing_lowers_peak_memory() {
    // Warm up: thread pools and lazily initialised state allocate once.
    run(Checkpointing::None, 2);
    run(Checkpointing::Balanced, 2);

    let (none, none_grad) = run(Checkpointing::None, STEPS);
    let (balanced, balanced_grad) = run(Checkpointing::Balanced, STEPS);
    let mib = |bytes: usize| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "peak heap during forward + backward ({STEPS} rounds on {SIZE}x{SIZE} f32): \
         no checkpointing {:.2} MiB, balanced {:.2} MiB ({:.1} vs {:.1} tensors of 256 KiB)",
        mib(none),
        mib(balanced),
        none as f64 / TENSOR_BYTES as f64,
        balanced as f64 / TENSOR_BYTES as f64,
    );
    balanced_grad.assert_eq(&none_grad, true);
    // Without checkpointing ~2 activations per round stay alive until
    // backward reaches them; balanced must save at least half of the rounds' worth.
    assert!(
        balanced + STEPS * TENSOR_BYTES <= none,
        "balanced checkpointing should lower the peak by at least {STEPS} tensors: \
         balanced {balanced} B vs none {none} B"
    );
}
