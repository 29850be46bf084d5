//! Learning rate schedulers: the [`LrScheduler`] trait and one file per
//! schedule.
//!
//! A scheduler is stepped once per optimizer step: the `i`-th call to
//! [`step`](LrScheduler::step) (from 0) returns the learning rate of
//! update `i` and advances. Its state is a few scalars, saved as an
//! [`LrSchedulerRecord`].
//!
//! ## Map
//! - `constant.rs`: [`ConstantLr`]. `linear.rs`: [`LinearLrScheduler`].
//! - `exponential.rs`: [`ExponentialLrScheduler`]. `step.rs`: [`StepLrScheduler`].
//! - `cosine.rs`: [`CosineAnnealingLrScheduler`] (with warm restarts).
//! - `noam.rs`: [`NoamLrScheduler`]. `one_cycle.rs`: [`OneCycleLrScheduler`].
//! - `plateau.rs`: [`ReduceOnPlateauLrScheduler`].
//! - `composed.rs`: [`ComposedLrScheduler`] and its
//!   [`ComposedLrSchedulerConfig`], and [`SequentialLrScheduler`].
//!
//! As in Burn, each schedule is reached through its module
//! (`lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig`) as well as at
//! the root of this module.

pub mod composed;
pub mod constant;
pub mod cosine;
pub mod exponential;
pub mod linear;
pub mod noam;
pub mod one_cycle;
pub mod plateau;
pub mod step;

/// [`SequentialLrScheduler`], under Burn's module name.
pub mod sequential {
    pub use super::composed::SequentialLrScheduler;
}

pub use composed::{
    ComposedLrScheduler, ComposedLrSchedulerConfig, LrSchedulerConfig, Reduction,
    SchedulerReduction, SequentialLrScheduler,
};
pub use constant::ConstantLr;
pub use cosine::{CosineAnnealingLrScheduler, CosineAnnealingLrSchedulerConfig};
pub use exponential::{ExponentialLrScheduler, ExponentialLrSchedulerConfig};
pub use linear::{LinearLrScheduler, LinearLrSchedulerConfig};
pub use noam::{NoamLrScheduler, NoamLrSchedulerConfig};
pub use one_cycle::{OneCycleLrScheduler, OneCycleLrSchedulerConfig};
pub use plateau::{PlateauMode, ReduceOnPlateauLrScheduler, ReduceOnPlateauLrSchedulerConfig};
pub use step::{StepLrScheduler, StepLrSchedulerConfig};

use crate::{LearningRate, LrSchedulerRecord, OptimError};

/// A learning rate schedule with saveable state.
pub trait LrScheduler: Send {
    /// The learning rate of the next update; advances the schedule.
    fn step(&mut self) -> LearningRate;

    /// The schedule's state.
    fn to_record(&self) -> LrSchedulerRecord;

    /// Restores the state `record` holds.
    fn apply_record(&mut self, record: &LrSchedulerRecord) -> Result<(), OptimError>;

    /// The schedule with the state `record` holds.
    ///
    /// # Panics
    /// If the record lacks a scalar the schedule needs.
    fn load_record(mut self, record: LrSchedulerRecord) -> Self
    where
        Self: Sized,
    {
        self.apply_record(&record)
            .unwrap_or_else(|err| panic!("load_record: {err}"));
        self
    }
}

impl LrScheduler for Box<dyn LrScheduler> {
    fn step(&mut self) -> LearningRate {
        (**self).step()
    }

    fn to_record(&self) -> LrSchedulerRecord {
        (**self).to_record()
    }

    fn apply_record(&mut self, record: &LrSchedulerRecord) -> Result<(), OptimError> {
        (**self).apply_record(record)
    }
}

/// A constant learning rate is a schedule too (with no state).
impl LrScheduler for LearningRate {
    fn step(&mut self) -> LearningRate {
        *self
    }

    fn to_record(&self) -> LrSchedulerRecord {
        LrSchedulerRecord::new()
    }

    fn apply_record(&mut self, _record: &LrSchedulerRecord) -> Result<(), OptimError> {
        Ok(())
    }
}

/// The step counter most schedules keep, under `"step"`.
pub(crate) fn step_record(step: usize) -> LrSchedulerRecord {
    LrSchedulerRecord::new().with_scalar("step", step as u64)
}

/// Reads the step counter written by [`step_record`].
pub(crate) fn read_step(record: &LrSchedulerRecord) -> Result<usize, OptimError> {
    Ok(record.require("step")?.to_u64() as usize)
}

/// Implements the record methods of a schedule whose only state is a
/// `step: usize` field.
macro_rules! step_counter_record {
    () => {
        fn to_record(&self) -> $crate::LrSchedulerRecord {
            super::step_record(self.step)
        }

        fn apply_record(
            &mut self,
            record: &$crate::LrSchedulerRecord,
        ) -> Result<(), $crate::OptimError> {
            self.step = super::read_step(record)?;
            Ok(())
        }
    };
}
pub(crate) use step_counter_record;
