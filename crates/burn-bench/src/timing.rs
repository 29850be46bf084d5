//! The measurement policy: warm up, then time single iterations until both
//! a minimum count and a time budget are reached, and report the median.
//!
//! `pytorch/bench.py` implements the same policy with the same numbers; a
//! change here must be made there too, or the two columns of the comparison
//! stop measuring the same thing.

use std::time::{Duration, Instant};

/// How long and how often a workload is run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// Warm-up runs at least this many iterations…
    pub warmup_iters: usize,
    /// …and keeps going until this much time has passed.
    pub warmup_time: Duration,
    /// Timed iterations: at least this many…
    pub min_iters: usize,
    /// …and more until this much time has been spent timing…
    pub budget: Duration,
    /// …but never more than this many (the 8×8 workloads would otherwise
    /// collect a million samples).
    pub max_iters: usize,
}

impl Policy {
    /// The full run: the policy whose numbers go into RESULTS.md.
    pub const FULL: Policy = Policy {
        warmup_iters: 2,
        warmup_time: Duration::from_millis(300),
        min_iters: 5,
        budget: Duration::from_secs(2),
        max_iters: 10_000,
    };

    /// `--quick`: enough to see that every workload runs and roughly how fast.
    pub const QUICK: Policy = Policy {
        warmup_iters: 1,
        warmup_time: Duration::ZERO,
        min_iters: 3,
        budget: Duration::from_millis(200),
        max_iters: 1_000,
    };
}

/// The timed iterations of one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// One duration per timed iteration, in the order they ran.
    pub durations: Vec<Duration>,
}

impl Samples {
    /// The median duration (the mean of the two middle ones for an even count).
    ///
    /// # Panics
    /// If there are no samples.
    pub fn median(&self) -> Duration {
        assert!(!self.durations.is_empty(), "median of no samples");
        let mut sorted = self.durations.clone();
        sorted.sort_unstable();
        let mid = sorted.len() / 2;
        if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2
        }
    }

    /// The fastest iteration.
    ///
    /// # Panics
    /// If there are no samples.
    pub fn min(&self) -> Duration {
        *self.durations.iter().min().expect("min of no samples")
    }

    /// How many iterations were timed.
    pub fn len(&self) -> usize {
        self.durations.len()
    }
}

/// Runs `iteration` under `policy` and returns the timed samples.
///
/// `iteration` does the whole workload, ending with its result in host
/// memory, and hands the result back so that freeing it happens after the
/// clock stops: the cost of dropping a result is not part of the op.
pub fn measure<T>(policy: &Policy, mut iteration: impl FnMut() -> T) -> Samples {
    let start = Instant::now();
    let mut done = 0;
    while done < policy.warmup_iters || start.elapsed() < policy.warmup_time {
        drop(iteration());
        done += 1;
    }

    let mut durations = Vec::new();
    let start = Instant::now();
    while durations.len() < policy.max_iters
        && (durations.len() < policy.min_iters || start.elapsed() < policy.budget)
    {
        let t0 = Instant::now();
        let result = iteration();
        durations.push(t0.elapsed());
        drop(result);
    }
    Samples { durations }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(values: &[u64]) -> Samples {
        Samples {
            durations: values.iter().map(|&v| Duration::from_millis(v)).collect(),
        }
    }

    #[test]
    fn median_of_odd_count_is_the_middle_value() {
        assert_eq!(ms(&[9, 1, 5, 3, 7]).median(), Duration::from_millis(5));
    }

    #[test]
    fn median_of_even_count_averages_the_middle_pair() {
        assert_eq!(ms(&[4, 1, 10, 2]).median(), Duration::from_millis(3));
    }

    #[test]
    fn min_is_the_fastest_sample() {
        assert_eq!(ms(&[4, 1, 10, 2]).min(), Duration::from_millis(1));
    }

    #[test]
    fn measure_runs_warmup_then_at_least_min_iters() {
        let policy = Policy {
            warmup_iters: 3,
            warmup_time: Duration::ZERO,
            min_iters: 4,
            budget: Duration::ZERO,
            max_iters: 100,
        };
        let mut calls = 0;
        let samples = measure(&policy, || calls += 1);
        assert_eq!(samples.len(), 4);
        assert_eq!(calls, 7);
    }

    #[test]
    fn measure_stops_at_max_iters_even_within_budget() {
        let policy = Policy {
            warmup_iters: 0,
            warmup_time: Duration::ZERO,
            min_iters: 1,
            budget: Duration::from_secs(3600),
            max_iters: 25,
        };
        assert_eq!(measure(&policy, || ()).len(), 25);
    }
}
