//! How a supervised run is carried out: where ([`ExecutionStrategy`]), by
//! which loop ([`TrainingStrategy`], [`SupervisedLearningStrategy`]), with
//! which parts ([`TrainingComponents`]).

use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use burn_core::module::{AutodiffModule, Module};
use burn_tensor::Device;

use super::{SupervisedTrainingEventProcessor, TrainLoader, ValidLoader};
use crate::learner::{
    CloneEarlyStoppingStrategy, Interrupter, Learner, LearnerModel, LearnerSummaryConfig,
    LearningCheckpointer, LearningResult,
};
use crate::metric::processor::{EventProcessorTraining, LearnerEvent};
use crate::metric::store::EventStoreClient;

/// A custom learning strategy, shared.
pub type CustomLearningStrategy<M> = Arc<dyn SupervisedLearningStrategy<M>>;

/// Where the optimizer runs in a multi-device run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiDeviceOptim {
    /// On the first device: every device's gradients are brought there and
    /// averaged, and one update is made there.
    OptimMainDevice,
    /// Sharded over the devices in Burn 0.23. This workspace has no sharded
    /// optimizer state: runs the same update as
    /// [`OptimMainDevice`](Self::OptimMainDevice).
    OptimSharded,
}

/// Where training runs.
///
/// Burn 0.23 also has a `DistributedDataParallel` variant (collective
/// operations between devices and nodes); this workspace has no
/// distributed runtime, so it is not offered.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecutionStrategy {
    /// On one device.
    SingleDevice(Device),
    /// Data-parallel on several devices: each step takes one batch per
    /// device, runs the training steps at once (a thread per device) and
    /// makes one update from their averaged gradients, so a step equals one
    /// on the batches put together (for a mean loss). Validation runs on
    /// the first device.
    MultiDevice(Vec<Device>, MultiDeviceOptim),
}

impl ExecutionStrategy {
    /// The device that coordinates: the only one, or the first.
    ///
    /// # Panics
    /// If a multi-device strategy has no device.
    pub fn main_device(&self) -> &Device {
        match self {
            ExecutionStrategy::SingleDevice(device) => device,
            ExecutionStrategy::MultiDevice(devices, _) => devices
                .first()
                .expect("ExecutionStrategy::MultiDevice needs at least one device"),
        }
    }

    /// Training on `device`.
    pub fn single(device: Device) -> Self {
        Self::SingleDevice(device)
    }

    /// Training on `devices`, the optimizer as `optim` says.
    pub fn multi(devices: Vec<Device>, optim: MultiDeviceOptim) -> Self {
        Self::MultiDevice(devices, optim)
    }
}

/// Which loop trains the model.
pub enum TrainingStrategy<M: LearnerModel> {
    /// The built-in loop, on the given devices.
    Default(ExecutionStrategy),
    /// A loop of one's own.
    Custom(CustomLearningStrategy<M>),
}

impl<M: LearnerModel> From<ExecutionStrategy> for TrainingStrategy<M> {
    fn from(strategy: ExecutionStrategy) -> Self {
        Self::Default(strategy)
    }
}

impl<M: LearnerModel> Default for TrainingStrategy<M> {
    /// The built-in loop on the default device.
    fn default() -> Self {
        Self::Default(ExecutionStrategy::SingleDevice(Device::default()))
    }
}

/// The parts of a run a learning strategy works with.
pub struct TrainingComponents<M: LearnerModel> {
    /// The run's label, if it has one.
    pub label: Option<String>,
    /// Epochs of the run, counting those a resumed run skips.
    pub num_epochs: usize,
    /// The epoch the run resumes after, if it does.
    pub checkpoint: Option<usize>,
    /// Saves (and restored) the learner, if checkpoints were asked for.
    pub checkpointer: Option<LearningCheckpointer<M>>,
    /// Batches whose gradients are summed before each update.
    pub grad_accumulation: Option<usize>,
    /// Stops the run; check it after each batch.
    pub interrupter: Interrupter,
    /// Asked after each epoch, if set.
    pub early_stopping: Option<Box<dyn CloneEarlyStoppingStrategy>>,
    /// Where the loop sends its [`LearnerEvent`]s.
    pub event_processor: SupervisedTrainingEventProcessor<M>,
    /// The run's metric values, for checkpointing and early stopping.
    pub event_store: Arc<EventStoreClient>,
    /// The summary to show at the end, if asked for.
    pub summary: Option<LearnerSummaryConfig>,
}

/// A training loop.
///
/// Implement [`fit`](Self::fit): train the learner for the epochs from
/// `starting_epoch` to `training_components.num_epochs`, sending every
/// pass's events to the event processor, and return the model and the
/// processor. [`train`](Self::train) wraps it: the start and end events,
/// the summary, and the [`LearningResult`].
pub trait SupervisedLearningStrategy<M: LearnerModel> {
    /// Runs the whole training with [`fit`](Self::fit).
    fn train(
        &self,
        learner: Learner<M>,
        dataloader_train: TrainLoader<M>,
        dataloader_valid: ValidLoader<M>,
        training_components: TrainingComponents<M>,
    ) -> LearningResult<M> {
        let mut components = training_components;
        let starting_epoch = components.checkpoint.unwrap_or(0) + 1;
        let interrupter = components.interrupter.clone();
        let summary = components.summary.clone();
        interrupter.fail_on_error(
            components
                .event_processor
                .process_train(LearnerEvent::Start {
                    total_epochs: components.num_epochs,
                    starting_epoch,
                    label: components.label.clone(),
                }),
        );
        let (model, mut processor) = self.fit(
            components,
            learner,
            dataloader_train,
            dataloader_valid,
            starting_epoch,
        );
        // The logs are complete only once the processor caught up.
        interrupter.fail_on_error(processor.flush());
        let summary = summary
            .and_then(|config| config.init().ok())
            .map(|summary| summary.with_model(describe(&model)));
        interrupter.fail_on_error(processor.process_train(LearnerEvent::End(summary)));
        interrupter.fail_on_error(processor.flush());
        LearningResult {
            model: model.valid(),
            renderer: processor.renderer(),
            interrupted: interrupter.interruption(),
            error: interrupter.error(),
        }
    }

    /// Trains the learner from `starting_epoch`; returns the trained model
    /// and the event processor.
    fn fit(
        &self,
        training_components: TrainingComponents<M>,
        learner: Learner<M>,
        dataloader_train: TrainLoader<M>,
        dataloader_valid: ValidLoader<M>,
        starting_epoch: usize,
    ) -> (M, SupervisedTrainingEventProcessor<M>);
}

/// `crate::path::Model (1234 parameters)`.
fn describe<M: Module>(model: &M) -> String {
    format!(
        "{} ({} parameters)",
        core::any::type_name::<M>(),
        model.num_params()
    )
}
