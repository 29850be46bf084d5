//! [`LinearLrScheduler`]: a straight line from one rate to another.

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`LinearLrScheduler`].
#[derive(Config, Debug)]
pub struct LinearLrSchedulerConfig {
    /// The rate of step 0.
    pub initial_lr: LearningRate,
    /// The rate from step `num_iters` on.
    pub final_lr: LearningRate,
    /// The number of steps of the ramp.
    pub num_iters: usize,
}

impl LinearLrSchedulerConfig {
    /// The scheduler, at step 0.
    ///
    /// # Panics
    /// If `num_iters` is 0.
    pub fn init(&self) -> LinearLrScheduler {
        assert!(
            self.num_iters > 0,
            "linear schedule: num_iters must be positive"
        );
        LinearLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// `lr(i) = initial + (final - initial) · min(i, n) / n`.
#[derive(Clone, Debug)]
pub struct LinearLrScheduler {
    config: LinearLrSchedulerConfig,
    step: usize,
}

impl LrScheduler for LinearLrScheduler {
    fn step(&mut self) -> LearningRate {
        let c = &self.config;
        let progress = self.step.min(c.num_iters) as f64 / c.num_iters as f64;
        self.step += 1;
        c.initial_lr + (c.final_lr - c.initial_lr) * progress
    }

    step_counter_record!();
}
