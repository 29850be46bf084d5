//! Supervised training: [`SupervisedTraining`] and the strategies that run
//! it.
//!
//! ## Map
//! - `paradigm.rs`: [`SupervisedTraining`], the metric tuple registrations.
//! - `strategy.rs`: [`ExecutionStrategy`], [`TrainingStrategy`],
//!   [`TrainingComponents`], [`SupervisedLearningStrategy`].
//! - `single.rs`: the built-in loop on one device (and the epoch loop).
//! - `multi.rs`: the built-in loop on several devices.

mod multi;
mod paradigm;
mod single;
mod strategy;

pub use paradigm::{MetricRegistration, SupervisedTraining, TextMetricRegistration};
pub use strategy::{
    CustomLearningStrategy, ExecutionStrategy, MultiDeviceOptim, SupervisedLearningStrategy,
    TrainingComponents, TrainingStrategy,
};

use std::sync::Arc;

use burn_core::data::dataloader::DataLoader;

use crate::learner::{InferenceStep, TrainStep};
use crate::metric::processor::{AsyncProcessorTraining, LearnerEvent};

/// The training loader of model `M`.
pub type TrainLoader<M> = Arc<dyn DataLoader<<M as TrainStep>::Input>>;
/// The validation loader of model `M`.
pub type ValidLoader<M> = Arc<dyn DataLoader<<M as InferenceStep>::Input>>;
/// The event processor a supervised run of model `M` sends its events to.
pub type SupervisedTrainingEventProcessor<M> = AsyncProcessorTraining<
    LearnerEvent<<M as TrainStep>::Output>,
    LearnerEvent<<M as InferenceStep>::Output>,
>;
