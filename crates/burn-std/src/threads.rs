//! The thread budget: how many threads the framework's CPU work may use.
//!
//! One setting for every crate that starts threads of its own (Flex's worker
//! pool, burn-store's copies out of a weight file), so that a user who pins
//! the process to `BURN_FLEX_THREADS=n` gets `n` everywhere, not `n` in the
//! tensor ops and every core in a load.

use std::sync::OnceLock;

/// `BURN_FLEX_THREADS` when set to a positive integer, else every core the
/// process may run on ([`std::thread::available_parallelism`]); read once,
/// on first use.
///
/// ```
/// assert!(burn_std::threads::budget() >= 1);
/// ```
pub fn budget() -> usize {
    static BUDGET: OnceLock<usize> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        std::env::var("BURN_FLEX_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}
