//! [`ReduceOnPlateauLrScheduler`]: lower the rate when a metric stops
//! improving (PyTorch's `ReduceLROnPlateau`, relative threshold).

use burn_core::config::Config;
use serde::{Deserialize, Serialize};

use super::LrScheduler;
use crate::{LearningRate, LrSchedulerRecord, OptimError};

/// Whether the metric should go down (a loss) or up (an accuracy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlateauMode {
    /// Lower is better.
    Min,
    /// Higher is better.
    Max,
}

/// The configuration of [`ReduceOnPlateauLrScheduler`].
#[derive(Config, Debug)]
pub struct ReduceOnPlateauLrSchedulerConfig {
    /// The starting rate.
    pub initial_lr: LearningRate,
    /// Which direction is better.
    #[config(default = "PlateauMode::Min")]
    pub mode: PlateauMode,
    /// The factor the rate is multiplied by on a plateau.
    #[config(default = 0.1)]
    pub factor: f64,
    /// How many reports without improvement are tolerated.
    #[config(default = 10)]
    pub patience: usize,
    /// Relative improvement needed to count: below `best · (1 - threshold)`
    /// (`Min`) or above `best · (1 + threshold)` (`Max`).
    #[config(default = 1e-4)]
    pub threshold: f64,
    /// Reports ignored after a reduction.
    #[config(default = 0)]
    pub cooldown: usize,
    /// The rate never goes below this.
    #[config(default = 0.0)]
    pub min_lr: LearningRate,
    /// A reduction smaller than this is skipped.
    #[config(default = 1e-8)]
    pub eps: f64,
}

impl ReduceOnPlateauLrSchedulerConfig {
    /// The scheduler, with no metric reported yet.
    ///
    /// # Panics
    /// If `factor` is not below 1.
    pub fn init(&self) -> ReduceOnPlateauLrScheduler {
        assert!(
            self.factor < 1.0,
            "plateau schedule: factor must be below 1"
        );
        ReduceOnPlateauLrScheduler {
            lr: self.initial_lr,
            best: match self.mode {
                PlateauMode::Min => f64::INFINITY,
                PlateauMode::Max => f64::NEG_INFINITY,
            },
            num_bad: 0,
            cooldown_counter: 0,
            config: self.clone(),
        }
    }
}

/// Lowers the rate when [`report`](Self::report)ed metrics stop improving.
/// [`step`](LrScheduler::step) returns the current rate without changing it.
#[derive(Clone, Debug)]
pub struct ReduceOnPlateauLrScheduler {
    config: ReduceOnPlateauLrSchedulerConfig,
    lr: LearningRate,
    best: f64,
    num_bad: usize,
    cooldown_counter: usize,
}

impl ReduceOnPlateauLrScheduler {
    /// Reports the metric of an epoch (or any evaluation period).
    pub fn report(&mut self, metric: f64) {
        let c = &self.config;
        let better = match c.mode {
            PlateauMode::Min => metric < self.best * (1.0 - c.threshold),
            PlateauMode::Max => metric > self.best * (1.0 + c.threshold),
        };
        if better {
            self.best = metric;
            self.num_bad = 0;
        } else {
            self.num_bad += 1;
        }
        if self.cooldown_counter > 0 {
            self.cooldown_counter -= 1;
            self.num_bad = 0;
        }
        if self.num_bad > c.patience {
            let reduced = (self.lr * c.factor).max(c.min_lr);
            if self.lr - reduced > c.eps {
                self.lr = reduced;
            }
            self.cooldown_counter = c.cooldown;
            self.num_bad = 0;
        }
    }

    /// The current rate.
    pub fn lr(&self) -> LearningRate {
        self.lr
    }
}

impl LrScheduler for ReduceOnPlateauLrScheduler {
    fn step(&mut self) -> LearningRate {
        self.lr
    }

    fn to_record(&self) -> LrSchedulerRecord {
        LrSchedulerRecord::new()
            .with_scalar("lr", self.lr)
            .with_scalar("best", self.best)
            .with_scalar("num_bad", self.num_bad as u64)
            .with_scalar("cooldown_counter", self.cooldown_counter as u64)
    }

    fn apply_record(&mut self, record: &LrSchedulerRecord) -> Result<(), OptimError> {
        self.lr = record.require("lr")?.to_f64();
        self.best = record.require("best")?.to_f64();
        self.num_bad = record.require("num_bad")?.to_u64() as usize;
        self.cooldown_counter = record.require("cooldown_counter")?.to_u64() as usize;
        Ok(())
    }
}
