//! Event processors: what happens to the outputs of each step.
//!
//! The training loop (a [`SupervisedLearningStrategy`]) sends a
//! [`LearnerEvent`] for each thing that happens: the start, a pass
//! starting, a processed batch ([`TrainingItem`]), a pass ending, an epoch
//! ending, the end. An [`EventProcessorTraining`] turns those into metric
//! updates, renderer calls, log lines and store records. The one a
//! `SupervisedTraining` run uses is an [`AsyncProcessorTraining`]: it does
//! all of that on a thread of its own, so reading metric values back from
//! the device never holds up the next step. [`EvaluatorEvent`] and
//! [`EventProcessorEvaluation`] are the same for an evaluation.
//!
//! Outputs are [`ItemLazy`]: the processor thread calls
//! [`sync`](ItemLazy::sync) before any metric reads an output, which is
//! where an output drops its autodiff graph.
//!
//! [`SupervisedLearningStrategy`]: crate::SupervisedLearningStrategy

mod async_wrapper;
mod error;
mod full;
mod metrics;

pub use async_wrapper::{AsyncProcessorEvaluation, AsyncProcessorTraining};
pub use error::{EventProcessorError, EventProcessorFailure, MetricError};
pub(crate) use full::{FullEventProcessorEvaluation, FullEventProcessorTraining};
pub(crate) use metrics::{MetricsEvaluation, MetricsTraining};

use std::boxed::Box;
use std::string::String;

use burn_core::data::dataloader::Progress;
use burn_optim::LearningRate;
use burn_tensor::ExecutionError;

use crate::learner::LearnerSummary;
use crate::renderer::{EvaluationName, MetricsRenderer};

/// Something that happened during training or validation.
pub enum LearnerEvent<T> {
    /// The run starts.
    Start {
        /// Epochs of the run, counting those a resumed run skips.
        total_epochs: usize,
        /// The first epoch this run trains.
        starting_epoch: usize,
        /// The run's label, if it has one.
        label: Option<String>,
    },
    /// A batch was processed.
    ProcessedItem(TrainingItem<T>),
    /// A pass starts.
    StartSplit {
        /// Its epoch.
        epoch_number: usize,
        /// Its progress before the first batch.
        progress: Progress,
    },
    /// A pass ended, completed or not.
    EndSplit {
        /// Its epoch.
        epoch: usize,
        /// Its progress at the end.
        progress: Progress,
    },
    /// Both passes of an epoch are done.
    EndEpoch(usize),
    /// The run ended, with its summary if one was asked for.
    End(Option<LearnerSummary>),
}

/// Something that happened during an evaluation.
pub enum EvaluatorEvent<T> {
    /// The evaluation starts.
    Start {
        /// The number of test sets.
        total_tests: usize,
    },
    /// A test set starts.
    StartTest(EvaluationName, Progress),
    /// A batch of a test set was processed.
    ProcessedItem(EvaluationName, EvaluationItem<T>),
    /// The current test set ended.
    EndTest {
        /// Its progress at the end.
        progress: Progress,
    },
    /// The evaluation ended, with its summary if one was asked for.
    End(Option<LearnerSummary>),
}

/// A step's output, which may still be computing on its device.
///
/// The processor calls [`sync`](ItemLazy::sync) on its own thread before
/// the metrics read the item. Implementations take their float tensors off
/// the autodiff graph there (`tensor.without_autodiff()`), so the processor
/// neither keeps the graph alive nor records its reads.
pub trait ItemLazy: Send + Sized {
    /// The item, ready to be read.
    ///
    /// # Errors
    /// When the device fails the work the item waits on.
    fn sync(self) -> Result<Self, ExecutionError>;
}

impl ItemLazy for () {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(())
    }
}

/// Processes the events of training and validation.
pub trait EventProcessorTraining<TrainEvent, ValidEvent>: Send {
    /// Processes a training event.
    ///
    /// # Errors
    /// Every metric that failed on the event (the others processed it). An
    /// asynchronous processor reports an event's failure on a later call.
    fn process_train(&mut self, event: TrainEvent) -> Result<(), EventProcessorError>;

    /// Processes a validation event.
    ///
    /// # Errors
    /// As [`process_train`](Self::process_train).
    fn process_valid(&mut self, event: ValidEvent) -> Result<(), EventProcessorError>;

    /// Waits until every event sent so far is processed (nothing to wait
    /// for in a synchronous processor).
    ///
    /// # Errors
    /// The failures of the events processed since the last report.
    fn flush(&mut self) -> Result<(), EventProcessorError> {
        Ok(())
    }

    /// The renderer, once the run is over.
    fn renderer(self) -> Box<dyn MetricsRenderer>;
}

/// Processes the events of an evaluation.
pub trait EventProcessorEvaluation: Send {
    /// The evaluated items.
    type ItemTest: ItemLazy;

    /// Processes an evaluation event.
    ///
    /// # Errors
    /// Every metric that failed on the event.
    fn process_test(
        &mut self,
        event: EvaluatorEvent<Self::ItemTest>,
    ) -> Result<(), EventProcessorError>;

    /// Waits until every event sent so far is processed.
    ///
    /// # Errors
    /// The failures of the events processed since the last report.
    fn flush(&mut self) -> Result<(), EventProcessorError> {
        Ok(())
    }

    /// The renderer, once the evaluation is over.
    fn renderer(self) -> Box<dyn MetricsRenderer>;
}

/// A processed training or validation batch.
pub struct TrainingItem<T> {
    /// The step's output.
    pub item: T,
    /// The pass's progress after this batch.
    pub progress: Progress,
    /// The batch's number in the pass, from 1.
    pub iteration: Option<usize>,
    /// The learning rate of the update the batch made (training only).
    pub lr: Option<LearningRate>,
}

impl<T> TrainingItem<T> {
    /// Bundles an output with where training stands.
    pub fn new(
        item: T,
        progress: Progress,
        iteration: Option<usize>,
        lr: Option<LearningRate>,
    ) -> Self {
        Self {
            item,
            progress,
            iteration,
            lr,
        }
    }
}

impl<T: ItemLazy> ItemLazy for TrainingItem<T> {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            item: self.item.sync()?,
            ..self
        })
    }
}

/// A processed evaluation batch.
pub struct EvaluationItem<T> {
    /// The step's output.
    pub item: T,
    /// The test set's progress after this batch.
    pub progress: Progress,
    /// The batch's number, from 1.
    pub iteration: Option<usize>,
}

impl<T> EvaluationItem<T> {
    /// Bundles an output with where the evaluation stands.
    pub fn new(item: T, progress: Progress, iteration: Option<usize>) -> Self {
        Self {
            item,
            progress,
            iteration,
        }
    }
}

impl<T: ItemLazy> ItemLazy for EvaluationItem<T> {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            item: self.item.sync()?,
            ..self
        })
    }
}
