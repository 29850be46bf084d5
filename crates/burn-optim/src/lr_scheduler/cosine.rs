//! [`CosineAnnealingLrScheduler`]: cosine annealing, optionally with warm
//! restarts (SGDR, Loshchilov & Hutter 2017).

use core::f64::consts::PI;

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`CosineAnnealingLrScheduler`].
#[derive(Config, Debug)]
pub struct CosineAnnealingLrSchedulerConfig {
    /// The rate at the start of each cycle.
    pub initial_lr: LearningRate,
    /// The length `T₀` of the first cycle, in steps.
    pub num_iters: usize,
    /// The rate at the end of each cycle.
    #[config(default = 0.0)]
    pub min_lr: LearningRate,
    /// Restart at `initial_lr` when a cycle ends; without restarts the rate
    /// stays at `min_lr` after `num_iters` steps.
    #[config(default = false)]
    pub restarts: bool,
    /// With restarts, each cycle is this many times longer than the last
    /// (`T_mult`).
    #[config(default = 1)]
    pub cycle_multiplier: usize,
}

impl CosineAnnealingLrSchedulerConfig {
    /// The scheduler, at step 0.
    ///
    /// # Panics
    /// If `num_iters` or `cycle_multiplier` is 0.
    pub fn init(&self) -> CosineAnnealingLrScheduler {
        assert!(
            self.num_iters > 0 && self.cycle_multiplier > 0,
            "cosine schedule: num_iters and cycle_multiplier must be positive"
        );
        CosineAnnealingLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// `lr = min + (initial - min) · (1 + cos(π · t / T)) / 2`, where `t` is
/// the step within the current cycle of length `T` (PyTorch's
/// `CosineAnnealingWarmRestarts` with restarts; `CosineAnnealingLR` held
/// at its minimum after `T₀` without).
#[derive(Clone, Debug)]
pub struct CosineAnnealingLrScheduler {
    config: CosineAnnealingLrSchedulerConfig,
    step: usize,
}

impl CosineAnnealingLrScheduler {
    /// The position `(t, T)` of step `i` in its cycle.
    fn position(&self, i: usize) -> (usize, usize) {
        let c = &self.config;
        if !c.restarts {
            return (i.min(c.num_iters), c.num_iters);
        }
        let (mut t, mut length) = (i, c.num_iters);
        while t >= length {
            t -= length;
            length *= c.cycle_multiplier;
        }
        (t, length)
    }
}

impl LrScheduler for CosineAnnealingLrScheduler {
    fn step(&mut self) -> LearningRate {
        let (t, length) = self.position(self.step);
        self.step += 1;
        let c = &self.config;
        c.min_lr + (c.initial_lr - c.min_lr) * (1.0 + (PI * t as f64 / length as f64).cos()) / 2.0
    }

    step_counter_record!();
}
