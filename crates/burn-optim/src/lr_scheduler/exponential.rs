//! [`ExponentialLrScheduler`]: the rate multiplied by `gamma` every step.

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`ExponentialLrScheduler`].
#[derive(Config, Debug)]
pub struct ExponentialLrSchedulerConfig {
    /// The rate of step 0.
    pub initial_lr: LearningRate,
    /// The factor applied at every step.
    pub gamma: f64,
}

impl ExponentialLrSchedulerConfig {
    /// The scheduler, at step 0.
    pub fn init(&self) -> ExponentialLrScheduler {
        ExponentialLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// `lr(i) = initial · γ^i` (PyTorch's `ExponentialLR`).
#[derive(Clone, Debug)]
pub struct ExponentialLrScheduler {
    config: ExponentialLrSchedulerConfig,
    step: usize,
}

impl LrScheduler for ExponentialLrScheduler {
    fn step(&mut self) -> LearningRate {
        let lr = self.config.initial_lr * self.config.gamma.powi(self.step as i32);
        self.step += 1;
        lr
    }

    step_counter_record!();
}
