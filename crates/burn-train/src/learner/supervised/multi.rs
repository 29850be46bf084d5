//! The built-in loop on several devices (data parallel, one update per
//! step on the main device).

use std::string::String;
use std::vec::Vec;

use burn_core::data::dataloader::{DataLoaderIterator, Progress, split_dataloader};
use burn_core::module::{ModuleVisitor, Param};
use burn_optim::GradientsParams;
use burn_tensor::{Device, Tensor};

use super::single::{Updater, run_epochs, skip_epochs};
use super::{SupervisedTrainingEventProcessor, TrainLoader, ValidLoader};
use crate::learner::{
    Learner, LearnerModel, TrainOutput, TrainStep, TrainingComponents, WorkerFailure,
};
use crate::metric::processor::{EventProcessorTraining, LearnerEvent, TrainingItem};
use crate::{SupervisedLearningStrategy, TrainingError};

/// Trains on several devices: each step, every device runs a training step
/// on a batch of its share of the data, and one update is made on the main
/// device from the mean of their gradients.
pub(crate) struct MultiDeviceTrainingStrategy {
    devices: Vec<Device>,
}

impl MultiDeviceTrainingStrategy {
    /// On `devices` (autodiff devices, at least one).
    pub(crate) fn new(devices: Vec<Device>) -> Self {
        assert!(
            !devices.is_empty(),
            "ExecutionStrategy::MultiDevice needs at least one device"
        );
        Self { devices }
    }
}

/// Moves gradients to `device` and scales them by `scale`.
struct Gather<'a> {
    from: &'a mut GradientsParams,
    into: &'a mut GradientsParams,
    device: &'a Device,
    scale: f64,
}

impl ModuleVisitor for Gather<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let Some(grad) = self.from.remove::<D>(param.id) else {
            return;
        };
        let grad = grad.to_device(self.device).mul_scalar(self.scale);
        let sum = match self.into.remove::<D>(param.id) {
            Some(previous) => previous + grad,
            None => grad,
        };
        self.into.register(param.id, sum);
    }
}

/// The progress of every shard together.
fn total_progress<O>(iterators: &[Box<dyn DataLoaderIterator<O> + '_>]) -> Progress {
    let (done, total) = iterators.iter().fold((0, 0), |(done, total), iterator| {
        let progress = iterator.progress();
        (
            done + progress.items_processed,
            total + progress.items_total,
        )
    });
    Progress::new(done, total)
}

/// The panic message of a worker.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".into()
    }
}

/// The training steps of one parallel step: `batches[i]` on `devices[i]`.
fn parallel_steps<M: LearnerModel>(
    model: &M,
    devices: &[Device],
    batches: Vec<(usize, <M as TrainStep>::Input)>,
) -> Result<Vec<TrainOutput<<M as TrainStep>::Output>>, Vec<WorkerFailure>> {
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = batches
            .into_iter()
            .map(|(device_id, batch)| {
                let device = &devices[device_id];
                let model = model.clone();
                let handle = scope.spawn(move || TrainStep::step(&model.fork(device), batch));
                (device_id, handle)
            })
            .collect();
        handles
            .into_iter()
            .map(|(device_id, handle)| (device_id, handle.join()))
            .collect()
    });
    let mut outputs = Vec::with_capacity(results.len());
    let mut failures = Vec::new();
    for (device_id, result) in results {
        match result {
            Ok(output) => outputs.push(output),
            Err(payload) => failures.push(WorkerFailure {
                device_id,
                message: panic_message(payload.as_ref()),
            }),
        }
    }
    if failures.is_empty() {
        Ok(outputs)
    } else {
        Err(failures)
    }
}

impl<M: LearnerModel> SupervisedLearningStrategy<M> for MultiDeviceTrainingStrategy {
    fn fit(
        &self,
        components: TrainingComponents<M>,
        mut learner: Learner<M>,
        dataloader_train: TrainLoader<M>,
        dataloader_valid: ValidLoader<M>,
        starting_epoch: usize,
    ) -> (M, SupervisedTrainingEventProcessor<M>) {
        let main = self.devices[0].clone();
        let shards: Vec<TrainLoader<M>> = split_dataloader(&dataloader_train, self.devices.len())
            .iter()
            .zip(&self.devices)
            .map(|(shard, device)| shard.to_device(device))
            .collect();
        for shard in &shards {
            skip_epochs(shard, starting_epoch - 1);
        }
        let valid = dataloader_valid.to_device(&main.clone().without_autodiff());
        learner.fork(&main);
        let mut updater = Updater::new(components.grad_accumulation);
        let devices = self.devices.clone();
        run_epochs(
            components,
            learner,
            &valid,
            starting_epoch,
            |learner, epoch, processor, interrupter| {
                let mut iterators: Vec<_> = shards.iter().map(|shard| shard.iter()).collect();
                interrupter.fail_on_error(processor.process_train(LearnerEvent::StartSplit {
                    epoch_number: epoch,
                    progress: total_progress(&iterators),
                }));
                let mut iteration = 0;
                while !interrupter.should_stop() {
                    let read: Result<Vec<_>, _> = iterators
                        .iter_mut()
                        .enumerate()
                        .filter_map(|(device_id, it)| {
                            it.next().map(|batch| batch.map(|batch| (device_id, batch)))
                        })
                        .collect();
                    let batches = match read {
                        Ok(batches) => batches,
                        Err(error) => {
                            interrupter.fail(error);
                            break;
                        }
                    };
                    if batches.is_empty() {
                        break;
                    }
                    let scale = 1.0 / batches.len() as f64;
                    let outputs = match parallel_steps(&learner.model, &devices, batches) {
                        Ok(outputs) => outputs,
                        Err(failures) => {
                            interrupter.fail(TrainingError::Workers(failures));
                            break;
                        }
                    };
                    let mut grads = GradientsParams::new();
                    let mut items = Vec::with_capacity(outputs.len());
                    for mut output in outputs {
                        learner.model.visit(&mut Gather {
                            from: &mut output.grads,
                            into: &mut grads,
                            device: &main,
                            scale,
                        });
                        items.push(output.item);
                    }
                    updater.add(learner, grads);
                    let progress = total_progress(&iterators);
                    for item in items {
                        iteration += 1;
                        let item = TrainingItem::new(
                            item,
                            progress.clone(),
                            Some(iteration),
                            Some(learner.lr_current()),
                        );
                        interrupter.fail_on_error(
                            processor.process_train(LearnerEvent::ProcessedItem(item)),
                        );
                    }
                }
                if !interrupter.should_stop() {
                    updater.flush(learner);
                }
                interrupter.fail_on_error(processor.process_train(LearnerEvent::EndSplit {
                    epoch,
                    progress: total_progress(&iterators),
                }));
            },
        )
    }
}
