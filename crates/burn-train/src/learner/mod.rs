//! The learner and the supervised training paradigm.
//!
//! ## Map
//! - `base.rs`: [`Learner`], [`LearningCheckpointer`], [`Interrupter`].
//! - `step.rs`: [`TrainStep`], [`InferenceStep`], [`TrainOutput`],
//!   [`LearningResult`], [`LearnerModel`].
//! - `outputs.rs`: [`ClassificationOutput`], [`RegressionOutput`],
//!   [`MultiLabelClassificationOutput`], [`SequenceOutput`].
//! - `supervised/`: [`SupervisedTraining`] and the strategies.
//! - `early_stopping.rs`, `summary.rs`, `application_logger.rs`, `error.rs`.

mod application_logger;
mod base;
mod early_stopping;
mod error;
mod outputs;
mod step;
mod summary;
mod supervised;

pub use application_logger::{ApplicationLoggerInstaller, FileApplicationLoggerInstaller};
pub use base::{Interrupter, Interruption, Learner, LearningCheckpointer};
pub use early_stopping::{
    CloneEarlyStoppingStrategy, EarlyStoppingStrategy, MetricEarlyStoppingStrategy,
    StoppingCondition,
};
pub use error::{TrainingError, WorkerFailure};
pub use outputs::{
    ClassificationOutput, MultiLabelClassificationOutput, RegressionOutput, SequenceOutput,
};
pub use step::{InferenceStep, LearnerModel, LearningResult, TrainOutput, TrainStep};
pub use summary::{
    LearnerSummary, LearnerSummaryConfig, MetricEntry, MetricSummary, SummaryMetrics,
};
pub use supervised::*;
