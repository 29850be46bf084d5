//! [`TrainingError`]: what stopped a run, and [`WorkerFailure`].

use std::string::String;
use std::vec::Vec;

use burn_core::data::dataset::DatasetError;

use crate::checkpoint::CheckpointerError;
use crate::metric::processor::EventProcessorError;

/// A training step that panicked on one device of a multi-device run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerFailure {
    /// The device's index among the run's devices.
    pub device_id: usize,
    /// The panic message.
    pub message: String,
}

impl core::fmt::Display for WorkerFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the training step on device #{} panicked: {}",
            self.device_id, self.message
        )
    }
}

/// What stopped training or an evaluation before its end.
#[derive(Debug, thiserror::Error)]
pub enum TrainingError {
    /// Metrics could not process the outputs.
    #[error(transparent)]
    EventProcessor(#[from] EventProcessorError),
    /// The data could not be read.
    #[error("dataset: {0}")]
    Dataset(#[from] DatasetError),
    /// Training steps panicked on devices of a multi-device run.
    #[error("{}", workers(.0))]
    Workers(Vec<WorkerFailure>),
    /// A checkpoint could not be saved, restored or deleted.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointerError),
}

fn workers(failures: &[WorkerFailure]) -> String {
    failures
        .iter()
        .map(|failure| failure.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}
