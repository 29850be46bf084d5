//! [`StepLrScheduler`]: the rate multiplied by `gamma` every `step_size` steps.

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`StepLrScheduler`].
#[derive(Config, Debug)]
pub struct StepLrSchedulerConfig {
    /// The rate of steps `0..step_size`.
    pub initial_lr: LearningRate,
    /// How many steps each rate lasts.
    pub step_size: usize,
    /// The factor applied every `step_size` steps.
    pub gamma: f64,
}

impl StepLrSchedulerConfig {
    /// The scheduler, at step 0.
    ///
    /// # Panics
    /// If `step_size` is 0.
    pub fn init(&self) -> StepLrScheduler {
        assert!(
            self.step_size > 0,
            "step schedule: step_size must be positive"
        );
        StepLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// `lr(i) = initial · γ^⌊i / step_size⌋` (PyTorch's `StepLR`).
#[derive(Clone, Debug)]
pub struct StepLrScheduler {
    config: StepLrSchedulerConfig,
    step: usize,
}

impl LrScheduler for StepLrScheduler {
    fn step(&mut self) -> LearningRate {
        let c = &self.config;
        let lr = c.initial_lr * c.gamma.powi((self.step / c.step_size) as i32);
        self.step += 1;
        lr
    }

    step_counter_record!();
}
