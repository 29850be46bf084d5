//! `cargo run --release -p custom-training-loop --bin custom-strategy`: a
//! loop of one's own plugged into `SupervisedTraining` as a custom learning
//! strategy, so it keeps the metrics, the renderer, the logs and the
//! checkpoints. This one validates only every third epoch (and after the
//! last), on the same 8×8 digits as the hand-written loop.

use std::sync::Arc;

use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::{DigitsDataset, DigitsItem};
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::train::metric::{AccuracyMetric, LossMetric};
use burn::train::renderer::CliMetricsRenderer;
use burn::train::{
    ClassificationOutput, EventProcessorTraining, InferenceStep, Learner, LearnerEvent,
    LearnerModel, SupervisedLearningStrategy, SupervisedTraining, SupervisedTrainingEventProcessor,
    TrainLoader, TrainOutput, TrainStep, TrainingComponents, TrainingItem, TrainingStrategy,
    ValidLoader,
};

#[derive(Clone, Debug)]
struct Batch {
    images: Tensor<2>,
    targets: Tensor<1, Int>,
}

fn batch(items: Vec<DigitsItem>, device: &Device) -> Batch {
    let n = items.len();
    let pixels: Vec<f32> = items
        .iter()
        .flat_map(|item| item.image.iter().flatten().map(|p| p / 16.0))
        .collect();
    let labels: Vec<i64> = items.iter().map(|item| i64::from(item.label)).collect();
    Batch {
        images: Tensor::<1>::from_floats(pixels.as_slice(), device).reshape([n, 64]),
        targets: Tensor::<1, Int>::from_data(labels.as_slice(), device),
    }
}

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(64, 128).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(128, 10).init(device),
        }
    }

    fn forward(&self, batch: Batch) -> ClassificationOutput {
        // [batch, 64] -> logits [batch, 10]
        let logits = self
            .output
            .forward(self.activation.forward(self.hidden.forward(batch.images)));
        let loss = CrossEntropyLossConfig::new()
            .init(&logits.device())
            .forward(logits.clone(), batch.targets.clone());
        ClassificationOutput::new(loss, logits, batch.targets)
    }
}

impl TrainStep for Mlp {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> TrainOutput<ClassificationOutput> {
        let item = self.forward(batch);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl InferenceStep for Mlp {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> ClassificationOutput {
        self.forward(batch)
    }
}

// ANCHOR: strategy
/// Trains every epoch, validates every `every` epochs and after the last.
struct ValidateEvery {
    every: usize,
    device: Device,
}

impl<M: LearnerModel> SupervisedLearningStrategy<M> for ValidateEvery {
    fn fit(
        &self,
        components: TrainingComponents<M>,
        mut learner: Learner<M>,
        train: TrainLoader<M>,
        valid: ValidLoader<M>,
        starting_epoch: usize,
    ) -> (M, SupervisedTrainingEventProcessor<M>) {
        let train = train.to_device(&self.device);
        let valid = valid.to_device(&self.device.clone().without_autodiff());
        learner.fork(&self.device);
        let mut processor = components.event_processor;
        let interrupter = components.interrupter;

        for epoch in starting_epoch..=components.num_epochs {
            // The training pass: step, update, report each batch.
            let mut batches = train.iter();
            let start = LearnerEvent::StartSplit {
                epoch_number: epoch,
                progress: batches.progress(),
            };
            interrupter.fail_on_error(processor.process_train(start));
            let mut iteration = 0;
            // A batch the dataset fails to produce stops the run with
            // that error (`batch` gives `None` then).
            while let Some(batch) = interrupter.batch(batches.next()) {
                iteration += 1;
                let output = learner.train_step(batch);
                learner.lr_step();
                learner.optimizer_step(output.grads);
                let item = TrainingItem::new(
                    output.item,
                    batches.progress(),
                    Some(iteration),
                    Some(learner.lr_current()),
                );
                interrupter
                    .fail_on_error(processor.process_train(LearnerEvent::ProcessedItem(item)));
                if interrupter.should_stop() {
                    break;
                }
            }
            let end = LearnerEvent::EndSplit {
                epoch,
                progress: batches.progress(),
            };
            interrupter.fail_on_error(processor.process_train(end));
            if interrupter.should_stop() {
                break;
            }

            // Validation, only now and then.
            if epoch % self.every == 0 || epoch == components.num_epochs {
                let model = learner.model().valid();
                let mut batches = valid.iter();
                let start = LearnerEvent::StartSplit {
                    epoch_number: epoch,
                    progress: batches.progress(),
                };
                interrupter.fail_on_error(processor.process_valid(start));
                while let Some(batch) = interrupter.batch(batches.next()) {
                    let output = InferenceStep::step(&model, batch);
                    let item = TrainingItem::new(output, batches.progress(), None, None);
                    interrupter
                        .fail_on_error(processor.process_valid(LearnerEvent::ProcessedItem(item)));
                }
                let end = LearnerEvent::EndSplit {
                    epoch,
                    progress: batches.progress(),
                };
                interrupter.fail_on_error(processor.process_valid(end));
            }
            interrupter.fail_on_error(processor.process_train(LearnerEvent::EndEpoch(epoch)));
        }
        (learner.model(), processor)
    }
}
// ANCHOR_END: strategy

fn main() {
    let device = Device::default();
    device.seed(0);
    let train = DataLoaderBuilder::new(batch)
        .batch_size(32)
        .shuffle(0)
        .build(DigitsDataset::train());
    let test = DataLoaderBuilder::new(batch)
        .batch_size(256)
        .build(DigitsDataset::test());
    let artifacts = std::env::temp_dir().join("burn-custom-strategy");
    let _ = std::fs::remove_dir_all(&artifacts);

    // ANCHOR: launch
    let strategy = ValidateEvery {
        every: 3,
        device: device.clone().autodiff(),
    };
    let result = SupervisedTraining::new(&artifacts, train, test)
        .metrics((AccuracyMetric::new(), LossMetric::new()))
        .with_training_strategy(TrainingStrategy::Custom(Arc::new(strategy)))
        .num_epochs(9)
        .renderer(Box::new(CliMetricsRenderer::new()))
        .launch(Learner::new(
            Mlp::new(&device),
            AdamConfig::new().init(),
            2e-3,
        ));
    // ANCHOR_END: launch
    if let Some(error) = result.error {
        panic!("training failed: {error}");
    }
    let validated: Vec<String> = (1..=9)
        .filter(|epoch| artifacts.join(format!("valid/epoch-{epoch}")).exists())
        .map(|epoch| epoch.to_string())
        .collect();
    println!("Validated after epochs {}", validated.join(", "));
    println!("Logs: {}", artifacts.display());
}
