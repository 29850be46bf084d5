//! The built-in loop on one device, and the epoch loop it shares with the
//! multi-device one.

use burn_core::module::AutodiffModule;
use std::sync::Arc;

use burn_core::data::dataloader::DataLoader;
use burn_optim::{GradientsAccumulator, GradientsParams};
use burn_tensor::Device;

use super::{SupervisedTrainingEventProcessor, TrainLoader, ValidLoader};
use crate::SupervisedLearningStrategy;
use crate::learner::{InferenceStep, Interrupter, Learner, LearnerModel, TrainingComponents};
use crate::metric::processor::{EventProcessorTraining, LearnerEvent, TrainingItem};

/// Trains and validates on one device.
pub(crate) struct SingleDeviceTrainingStrategy {
    device: Device,
}

impl SingleDeviceTrainingStrategy {
    /// On `device` (an autodiff device).
    pub(crate) fn new(device: Device) -> Self {
        Self { device }
    }
}

/// Applies gradients as they come, or summed over groups of batches.
pub(crate) struct Updater {
    accumulation: usize,
    accumulator: GradientsAccumulator,
}

impl Updater {
    pub(crate) fn new(accumulation: Option<usize>) -> Self {
        Self {
            accumulation: accumulation.unwrap_or(1).max(1),
            accumulator: GradientsAccumulator::new(),
        }
    }

    /// Adds a batch's gradients; updates when a group is complete.
    pub(crate) fn add<M: LearnerModel>(
        &mut self,
        learner: &mut Learner<M>,
        grads: GradientsParams,
    ) {
        if self.accumulation == 1 {
            learner.lr_step();
            learner.optimizer_step(grads);
            return;
        }
        self.accumulator.accumulate(&learner.model, grads);
        if self.accumulator.count() >= self.accumulation {
            self.flush(learner);
        }
    }

    /// Applies what is left of an incomplete group (end of an epoch).
    pub(crate) fn flush<M: LearnerModel>(&mut self, learner: &mut Learner<M>) {
        if self.accumulator.count() > 0 {
            learner.lr_step();
            learner.optimizer_step(self.accumulator.grads());
        }
    }
}

/// Runs the validation pass of `epoch` on a `valid()` snapshot.
pub(crate) fn valid_epoch<M: LearnerModel>(
    learner: &Learner<M>,
    loader: &ValidLoader<M>,
    epoch: usize,
    processor: &mut SupervisedTrainingEventProcessor<M>,
    interrupter: &Interrupter,
) {
    let model = learner.model.valid();
    let mut iterator = loader.iter();
    interrupter.fail_on_error(processor.process_valid(LearnerEvent::StartSplit {
        epoch_number: epoch,
        progress: iterator.progress(),
    }));
    let mut iteration = 0;
    while !interrupter.should_stop() {
        let Some(batch) = interrupter.batch(iterator.next()) else {
            break;
        };
        iteration += 1;
        let output = InferenceStep::step(&model, batch);
        let item = TrainingItem::new(output, iterator.progress(), Some(iteration), None);
        interrupter.fail_on_error(processor.process_valid(LearnerEvent::ProcessedItem(item)));
    }
    interrupter.fail_on_error(processor.process_valid(LearnerEvent::EndSplit {
        epoch,
        progress: iterator.progress(),
    }));
}

/// The epochs from `starting_epoch`: a training pass (by `train_pass`), a
/// validation pass, the epoch's end, the checkpoint and the early stopping
/// check, until the last epoch or a stop.
pub(crate) fn run_epochs<M: LearnerModel>(
    components: TrainingComponents<M>,
    mut learner: Learner<M>,
    valid: &ValidLoader<M>,
    starting_epoch: usize,
    mut train_pass: impl FnMut(
        &mut Learner<M>,
        usize,
        &mut SupervisedTrainingEventProcessor<M>,
        &Interrupter,
    ),
) -> (M, SupervisedTrainingEventProcessor<M>) {
    let TrainingComponents {
        num_epochs,
        mut checkpointer,
        interrupter,
        mut early_stopping,
        mut event_processor,
        event_store,
        ..
    } = components;
    for epoch in starting_epoch..=num_epochs {
        train_pass(&mut learner, epoch, &mut event_processor, &interrupter);
        if interrupter.should_stop() {
            break;
        }
        valid_epoch(&learner, valid, epoch, &mut event_processor, &interrupter);
        if interrupter.should_stop() {
            break;
        }
        interrupter.fail_on_error(event_processor.process_train(LearnerEvent::EndEpoch(epoch)));
        if checkpointer.is_some() || early_stopping.is_some() {
            // The store must hold this epoch's values before it is asked.
            interrupter.fail_on_error(event_processor.flush());
        }
        if interrupter.should_stop() {
            break;
        }
        if let Some(checkpointer) = &mut checkpointer {
            interrupter.fail_on_error(checkpointer.checkpoint(&learner, epoch, &event_store));
        }
        if let Some(strategy) = &mut early_stopping
            && strategy.should_stop(epoch, &event_store)
        {
            break;
        }
    }
    (learner.model, event_processor)
}

/// Draws (and drops) the shuffles of the epochs a resumed run skips, so it
/// sees the batches an uninterrupted run would: each `iter` call draws the
/// next epoch's order.
pub(crate) fn skip_epochs<I>(loader: &Arc<dyn DataLoader<I>>, epochs: usize) {
    for _ in 0..epochs {
        drop(loader.iter());
    }
}

impl<M: LearnerModel> SupervisedLearningStrategy<M> for SingleDeviceTrainingStrategy {
    fn fit(
        &self,
        components: TrainingComponents<M>,
        mut learner: Learner<M>,
        dataloader_train: TrainLoader<M>,
        dataloader_valid: ValidLoader<M>,
        starting_epoch: usize,
    ) -> (M, SupervisedTrainingEventProcessor<M>) {
        let train = dataloader_train.to_device(&self.device);
        let valid = dataloader_valid.to_device(&self.device.clone().without_autodiff());
        learner.fork(&self.device);
        skip_epochs(&train, starting_epoch - 1);
        let mut updater = Updater::new(components.grad_accumulation);
        run_epochs(
            components,
            learner,
            &valid,
            starting_epoch,
            |learner, epoch, processor, interrupter| {
                let mut iterator = train.iter();
                interrupter.fail_on_error(processor.process_train(LearnerEvent::StartSplit {
                    epoch_number: epoch,
                    progress: iterator.progress(),
                }));
                let mut iteration = 0;
                while !interrupter.should_stop() {
                    let Some(batch) = interrupter.batch(iterator.next()) else {
                        break;
                    };
                    iteration += 1;
                    let output = learner.train_step(batch);
                    updater.add(learner, output.grads);
                    let item = TrainingItem::new(
                        output.item,
                        iterator.progress(),
                        Some(iteration),
                        Some(learner.lr_current()),
                    );
                    interrupter
                        .fail_on_error(processor.process_train(LearnerEvent::ProcessedItem(item)));
                }
                if !interrupter.should_stop() {
                    updater.flush(learner);
                }
                interrupter.fail_on_error(processor.process_train(LearnerEvent::EndSplit {
                    epoch,
                    progress: iterator.progress(),
                }));
            },
        )
    }
}
