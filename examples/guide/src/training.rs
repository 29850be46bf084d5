//! Training with `SupervisedTraining`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use burn::data::dataloader::{DataLoaderBuilder, Progress};
use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::train::logger::TrainingProgressLogger;
use burn::train::metric::{
    AccuracyMetric, CpuMemory, CpuUse, IterationSpeedMetric, LearningRateMetric, LossMetric,
};
use burn::train::renderer::CliMetricsRenderer;
use burn::train::renderer::tui::TuiMetricsRendererWrapper;
use burn::train::{ExecutionStrategy, Learner, LearningResult, SupervisedTraining};

use crate::data::{ImageBatcher, Images};
use crate::model::{Model, ModelConfig};

// ANCHOR: config
/// Everything about a training run but the data.
#[derive(Config, Debug)]
pub struct TrainingConfig {
    /// The model.
    pub model: ModelConfig,
    /// The optimizer.
    pub optimizer: AdamConfig,
    /// Epochs.
    #[config(default = 12)]
    pub num_epochs: usize,
    /// Images per batch.
    #[config(default = 32)]
    pub batch_size: usize,
    /// Worker threads preparing batches (0: on the training thread).
    #[config(default = 0)]
    pub num_workers: usize,
    /// Seed of the parameter initialization and the shuffling.
    #[config(default = 42)]
    pub seed: u64,
    /// The learning rate.
    #[config(default = 2e-3)]
    pub learning_rate: f64,
}
// ANCHOR_END: config

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// The dashboard on a terminal, text otherwise.
    Auto,
    /// Always the dashboard.
    Dashboard,
    /// Always text.
    Text,
}

/// How long each training pass took: `(epoch, seconds, images)`.
pub type EpochTimes = Arc<Mutex<Vec<(usize, f64, usize)>>>;

// ANCHOR: timer
/// A progress logger that times the training pass of each epoch.
#[derive(Default)]
pub struct EpochTimer {
    times: EpochTimes,
    epoch: usize,
    started: Option<Instant>,
}

impl EpochTimer {
    /// A timer writing its times to `times`.
    pub fn new(times: EpochTimes) -> Self {
        Self {
            times,
            ..Self::default()
        }
    }
}

impl TrainingProgressLogger for EpochTimer {
    fn start(
        &mut self,
        _total: usize,
        starting_epoch: usize,
        _items: Option<usize>,
        _label: Option<&str>,
    ) {
        self.epoch = starting_epoch;
    }

    fn update_epoch(&mut self, epoch: usize) {
        self.epoch = epoch + 1;
    }

    fn start_split(&mut self, split: &str, _progress: &Progress) {
        self.started = (split == "train").then(Instant::now);
    }

    fn update_split(&mut self, _progress: &Progress) {}

    fn end_split(&mut self, progress: &Progress) {
        if let Some(started) = self.started.take() {
            let seconds = started.elapsed().as_secs_f64();
            let entry = (self.epoch, seconds, progress.items_processed);
            self.times.lock().expect("the timer's lock").push(entry);
        }
    }

    fn end(&mut self) {}

    fn log_event_training(&mut self, _event: String) {}
}
// ANCHOR_END: timer

/// Trains a model on `images`, writing logs and checkpoints under
/// `artifacts`; resumes from the checkpoint of `resume` if given. The time
/// of each training pass goes to `times`.
pub fn train(
    artifacts: &Path,
    config: &TrainingConfig,
    images: &Images,
    device: &Device,
    display: Display,
    resume: Option<usize>,
    times: EpochTimes,
) -> LearningResult<Model> {
    if resume.is_none() {
        // A fresh run starts from an empty directory: no stale logs or
        // checkpoints from an earlier run.
        let _ = std::fs::remove_dir_all(artifacts);
    }
    std::fs::create_dir_all(artifacts).expect("the artifact directory can be created");
    config
        .save(artifacts.join("config.json"))
        .expect("the configuration can be saved");

    // ANCHOR: loaders
    device.seed(config.seed);
    let side = images.source.side();
    let train_loader = DataLoaderBuilder::new(ImageBatcher::new(side))
        .batch_size(config.batch_size)
        .shuffle(config.seed)
        .num_workers(config.num_workers)
        .build(images.train.clone());
    let valid_loader = DataLoaderBuilder::new(ImageBatcher::new(side))
        .batch_size(config.batch_size)
        .num_workers(config.num_workers)
        .build(images.test.clone());
    // ANCHOR_END: loaders

    // ANCHOR: builder
    let mut training = SupervisedTraining::new(artifacts, train_loader, valid_loader)
        .metrics((AccuracyMetric::new(), LossMetric::new()))
        .metric_train_numeric(LearningRateMetric::new())
        .metric_train_numeric(IterationSpeedMetric::new())
        .metric_train_numeric(CpuUse::new())
        .metric_train_numeric(CpuMemory::new())
        .with_default_checkpointers()
        .with_training_strategy(ExecutionStrategy::single(device.clone()).into())
        .with_progress_logger(EpochTimer::new(times))
        .num_epochs(config.num_epochs)
        .summary();
    if let Some(epoch) = resume {
        training = training.checkpoint(epoch);
    }
    // ANCHOR_END: builder
    // ANCHOR: renderer
    training = match display {
        Display::Auto => training,
        Display::Dashboard => {
            let interrupter = training.interrupter();
            training.renderer(Box::new(TuiMetricsRendererWrapper::new(
                interrupter,
                resume,
            )))
        }
        Display::Text => training.renderer(Box::new(CliMetricsRenderer::new())),
    };
    // ANCHOR_END: renderer
    // ANCHOR: fit
    let learner = Learner::new(
        config.model.init(device),
        config.optimizer.init(),
        config.learning_rate,
    );
    training.launch(learner)
    // ANCHOR_END: fit
}

/// Where the trained model is saved.
pub fn model_path(artifacts: &Path) -> PathBuf {
    artifacts.join("model.bpk")
}
