//! The backend's random generator.
//!
//! Every random op draws a fresh stream number from one atomic counter and
//! seeds its own generator from it (and from the chunk index when it fills
//! in parallel). The output therefore depends only on the seed and on how
//! many random ops ran before, never on thread scheduling, and no lock is
//! needed, which keeps this usable without `std`.

use core::sync::atomic::{AtomicU64, Ordering};

use burn_std::Rng;

/// The golden-ratio increment of splitmix64: successive streams get
/// well-spread seeds.
const STREAM_STEP: u64 = 0x9E37_79B9_7F4A_7C15;
/// The seed used until `Backend::seed` is called, so runs are reproducible by default.
const DEFAULT_SEED: u64 = 0x5EED_F1E7;

static NEXT_STREAM: AtomicU64 = AtomicU64::new(DEFAULT_SEED);

/// Restarts the sequence of streams from `seed`.
pub fn seed(seed: u64) {
    NEXT_STREAM.store(seed, Ordering::SeqCst);
}

/// The stream number for the next random op.
pub fn next_stream() -> u64 {
    NEXT_STREAM.fetch_add(STREAM_STEP, Ordering::SeqCst)
}

/// The generator for chunk `chunk` of stream `stream`.
pub fn chunk_rng(stream: u64, chunk: usize) -> Rng {
    Rng::seed_from_u64(stream ^ (chunk as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
}
