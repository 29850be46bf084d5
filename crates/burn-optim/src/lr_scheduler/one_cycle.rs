//! [`OneCycleLrScheduler`]: the 1cycle policy (Smith & Topin 2018), as
//! PyTorch's `OneCycleLR` with cosine annealing and two phases.

use core::f64::consts::PI;

use burn_core::config::Config;

use super::{LrScheduler, step_counter_record};
use crate::LearningRate;

/// The configuration of [`OneCycleLrScheduler`].
#[derive(Config, Debug)]
pub struct OneCycleLrSchedulerConfig {
    /// The peak rate.
    pub max_lr: LearningRate,
    /// The number of steps of the cycle.
    pub total_steps: usize,
    /// The fraction of the cycle spent rising.
    #[config(default = 0.3)]
    pub pct_start: f64,
    /// The initial rate is `max_lr / div_factor`.
    #[config(default = 25.0)]
    pub div_factor: f64,
    /// The final rate is the initial rate `/ final_div_factor`.
    #[config(default = 1e4)]
    pub final_div_factor: f64,
}

impl OneCycleLrSchedulerConfig {
    /// The scheduler, at step 0.
    ///
    /// # Panics
    /// If `total_steps` is below 2 or `pct_start` is not in `(0, 1)`.
    pub fn init(&self) -> OneCycleLrScheduler {
        assert!(
            self.total_steps >= 2 && self.pct_start > 0.0 && self.pct_start < 1.0,
            "one-cycle schedule: needs total_steps >= 2 and 0 < pct_start < 1"
        );
        OneCycleLrScheduler {
            config: self.clone(),
            step: 0,
        }
    }
}

/// Rises from `max/div` to `max` over the first `pct_start` of the cycle,
/// then falls to `max/div/final_div`, both along half a cosine. Steps past
/// the cycle keep the final rate (PyTorch raises an error there).
#[derive(Clone, Debug)]
pub struct OneCycleLrScheduler {
    config: OneCycleLrSchedulerConfig,
    step: usize,
}

/// From `start` (`pct = 0`) to `end` (`pct = 1`) along half a cosine.
fn cosine_anneal(start: f64, end: f64, pct: f64) -> f64 {
    end + (start - end) / 2.0 * ((PI * pct).cos() + 1.0)
}

impl LrScheduler for OneCycleLrScheduler {
    fn step(&mut self) -> LearningRate {
        let c = &self.config;
        let i = self.step.min(c.total_steps - 1) as f64;
        self.step += 1;
        let initial = c.max_lr / c.div_factor;
        let min = initial / c.final_div_factor;
        // The phase boundaries are PyTorch's: the rise ends at step
        // `pct_start · total - 1`, the fall at `total - 1`.
        let rise_end = c.pct_start * c.total_steps as f64 - 1.0;
        let fall_end = (c.total_steps - 1) as f64;
        if i <= rise_end {
            cosine_anneal(initial, c.max_lr, i / rise_end)
        } else {
            cosine_anneal(c.max_lr, min, (i - rise_end) / (fall_end - rise_end))
        }
    }

    step_counter_record!();
}
