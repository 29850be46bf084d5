//! [`ConstantLr`]: the same learning rate at every step.

use super::LrScheduler;
use crate::{LearningRate, LrSchedulerRecord, OptimError};

/// The same learning rate at every step (a bare [`LearningRate`] is a
/// schedule too; this names it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstantLr(pub LearningRate);

impl LrScheduler for ConstantLr {
    fn step(&mut self) -> LearningRate {
        self.0
    }

    fn to_record(&self) -> LrSchedulerRecord {
        LrSchedulerRecord::new()
    }

    fn apply_record(&mut self, _record: &LrSchedulerRecord) -> Result<(), OptimError> {
        Ok(())
    }
}
