//! Training with the Learner.

use std::path::{Path, PathBuf};

use burn::data::dataloader::DataLoaderBuilder;
use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::train::metric::{
    AccuracyMetric, CpuMemory, CpuUse, IterationSpeedMetric, LearningRateMetric, LossMetric,
};
use burn::train::renderer::TextRenderer;
use burn::train::{LearnerBuilder, LearnerError, TrainingResult};

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

/// Trains a model on `images`, writing logs and checkpoints under
/// `artifacts`; resumes from the checkpoint of `resume` if given.
pub fn train(
    artifacts: &Path,
    config: &TrainingConfig,
    images: &Images,
    device: &Device,
    display: Display,
    resume: Option<usize>,
) -> Result<TrainingResult<Model>, LearnerError> {
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
    let mut builder = LearnerBuilder::new(artifacts)
        .metric_train_numeric(AccuracyMetric::new())
        .metric_valid_numeric(AccuracyMetric::new())
        .metric_train_numeric(LossMetric::new())
        .metric_valid_numeric(LossMetric::new())
        .metric_train_numeric(LearningRateMetric::new())
        .metric_train_numeric(IterationSpeedMetric::new())
        .metric_train_numeric(CpuUse::new())
        .metric_train_numeric(CpuMemory::new())
        .with_file_checkpointer(2)
        .devices(vec![device.clone()])
        .num_epochs(config.num_epochs);
    if let Some(epoch) = resume {
        builder = builder.checkpoint(epoch);
    }
    // ANCHOR_END: builder
    // ANCHOR: renderer
    builder = match display {
        Display::Auto => builder,
        Display::Dashboard => {
            let interrupter = builder.interrupter();
            builder.renderer(burn::train::renderer::TuiRenderer::new(interrupter))
        }
        Display::Text => builder.renderer(TextRenderer::new()),
    };
    // ANCHOR_END: renderer
    // ANCHOR: fit
    let learner = builder.build(
        config.model.init(device),
        config.optimizer.init(),
        config.learning_rate,
    );
    learner.fit(train_loader, valid_loader)
    // ANCHOR_END: fit
}

/// Where the trained model is saved.
pub fn model_path(artifacts: &Path) -> PathBuf {
    artifacts.join("model.bpk")
}
