//! [`NoamLrScheduler`]: linear warm-up, then inverse square root decay
//! ("Attention Is All You Need", section 5.3).

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`NoamLrScheduler`].
#[derive(Config, Debug)]
pub struct NoamLrSchedulerConfig {
    /// A factor on the whole schedule.
    pub init_lr: LearningRate,
    /// The number of warm-up steps.
    #[config(default = 4000)]
    pub warmup_steps: usize,
    /// The model width `d_model`.
    #[config(default = 512)]
    pub model_size: usize,
}

impl NoamLrSchedulerConfig {
    /// The scheduler, at step 0.
    ///
    /// # Panics
    /// If `warmup_steps` or `model_size` is 0.
    pub fn init(&self) -> NoamLrScheduler {
        assert!(
            self.warmup_steps > 0 && self.model_size > 0,
            "Noam schedule: warmup_steps and model_size must be positive"
        );
        NoamLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// With `s = i + 1` and warm-up `w`:
/// `lr(i) = init · d_model^-½ · min(s^-½, s · w^-³ᐟ²)`.
#[derive(Clone, Debug)]
pub struct NoamLrScheduler {
    config: NoamLrSchedulerConfig,
    step: usize,
}

impl LrScheduler for NoamLrScheduler {
    fn step(&mut self) -> LearningRate {
        let c = &self.config;
        self.step += 1;
        let s = self.step as f64;
        let w = c.warmup_steps as f64;
        c.init_lr * (c.model_size as f64).powf(-0.5) * s.powf(-0.5).min(s * w.powf(-1.5))
    }

    step_counter_record!();
}
