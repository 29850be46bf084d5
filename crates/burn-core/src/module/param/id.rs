//! [`ParamId`]: the identity of a parameter.

use core::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

/// The identity of a parameter: optimizer state and gradients are keyed by
/// it, and records keep it across save and load.
///
/// Fresh ids are unique within a process and, with overwhelming probability,
/// across processes: each is a bijective mix of a per-process random base
/// and a counter, so an id loaded from a file does not collide with one
/// made after it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ParamId(u64);

impl ParamId {
    /// A fresh id.
    pub fn new() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        // Distinct counts give distinct ids: xor with a constant and
        // splitmix64's finalizer are both bijections on u64.
        Self(splitmix64(process_base() ^ count))
    }

    /// The id as a number, as written in records.
    pub const fn val(&self) -> u64 {
        self.0
    }
}

impl Default for ParamId {
    fn default() -> Self {
        Self::new()
    }
}

impl From<u64> for ParamId {
    fn from(value: u64) -> Self {
        Self(value)
    }
}

impl fmt::Display for ParamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Debug for ParamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ParamId({self})")
    }
}

/// A random value fixed for the life of the process.
fn process_base() -> u64 {
    static BASE: OnceLock<u64> = OnceLock::new();
    *BASE.get_or_init(|| {
        use std::hash::BuildHasher;
        // `RandomState` draws its keys from the OS; the clock and the pid
        // only add entropy should that source be weak.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        std::collections::hash_map::RandomState::new().hash_one((nanos, std::process::id()))
    })
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
