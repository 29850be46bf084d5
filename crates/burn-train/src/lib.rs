//! # burn-train: the Learner, metrics, checkpoints and the dashboard
//!
//! Training a model is a loop of forward, backward, optimizer step, over
//! epochs of batches, with validation, metrics, checkpoints and a way to
//! stop. This crate owns that loop so a model only says what one step is:
//!
//! 1. implement [`TrainStep`] (forward, loss, backward → [`TrainOutput`])
//!    and [`ValidStep`] (forward, loss) for the model;
//! 2. configure a [`LearnerBuilder`]: metrics, checkpoints, epochs,
//!    gradient accumulation, early stopping, resuming, the renderer;
//! 3. [`build`](LearnerBuilder::build) it with the model, a
//!    `ModuleOptimizer` and a learning rate scheduler, and
//!    [`fit`](Learner::fit) it on two data loaders.
//!
//! Everything a run writes goes under its experiment directory: metric logs
//! (`train/epoch-{n}/{Metric}.log`, `train/epochs.log`, the same under
//! `valid/`) and checkpoints (`checkpoint/{model,optim,scheduler}-{n}.bpk`,
//! written by a [`FileCheckpointer`](checkpoint::FileCheckpointer) through the
//! [`Checkpoint`](checkpoint::Checkpoint) trait).
//!
//! ## What it must not depend on
//!
//! No backend crate: tensors come through `burn-tensor`, modules and data
//! loaders through `burn-core`, optimizers through `burn-optim`. The
//! dashboard's `ratatui` is optional (feature `tui`, default).
//!
//! ## Example
//!
//! ```
//! use std::sync::Arc;
//! use burn_core as burn; // what the derives name
//! use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
//! use burn::data::dataset::InMemDataset;
//! use burn::module::{Module, Param};
//! use burn::tensor::{Device, Tensor};
//! use burn_optim::SgdConfig;
//! use burn_train::metric::LossMetric;
//! use burn_train::renderer::TextRenderer;
//! use burn_train::{LearnerBuilder, RegressionOutput, TrainOutput, TrainStep, ValidStep};
//!
//! /// y = w·x, to learn w = 2.
//! #[derive(Module, Debug)]
//! struct Line {
//!     w: Param<Tensor<1>>,
//! }
//!
//! impl Line {
//!     fn forward(&self, (x, y): (Tensor<2>, Tensor<2>)) -> RegressionOutput {
//!         let output = x * self.w.val().unsqueeze();
//!         let loss = (output.clone() - y.clone()).square().mean();
//!         RegressionOutput::new(loss, output, y)
//!     }
//! }
//!
//! impl TrainStep<(Tensor<2>, Tensor<2>), RegressionOutput> for Line {
//!     fn step(&self, batch: (Tensor<2>, Tensor<2>)) -> TrainOutput<RegressionOutput> {
//!         let output = self.forward(batch);
//!         TrainOutput::new(self, output.loss.backward(), output)
//!     }
//! }
//!
//! impl ValidStep<(Tensor<2>, Tensor<2>), RegressionOutput> for Line {
//!     fn step(&self, batch: (Tensor<2>, Tensor<2>)) -> RegressionOutput {
//!         self.forward(batch)
//!     }
//! }
//!
//! let device = Device::flex();
//! let points: Vec<f32> = (0..32).map(|i| i as f32 / 32.0).collect();
//! let loader = |device: Device| -> Arc<dyn DataLoader<(Tensor<2>, Tensor<2>)>> {
//!     DataLoaderBuilder::new(|xs: Vec<f32>, device: &Device| {
//!         let x = Tensor::<1>::from_floats(xs.as_slice(), device).unsqueeze_dim::<2>(1);
//!         (x.clone(), x * 2.0)
//!     })
//!     .batch_size(8)
//!     .set_device(device)
//!     .build(InMemDataset::new(points.clone()))
//! };
//!
//! let dir = std::env::temp_dir().join(format!("burn-train-lib-doc-{}", std::process::id()));
//! let model = Line { w: Param::from_tensor(Tensor::zeros([1], &device)) };
//! let learner = LearnerBuilder::new(&dir)
//!     .metric_train_numeric(LossMetric::new())
//!     .metric_valid_numeric(LossMetric::new())
//!     .num_epochs(20)
//!     .renderer(TextRenderer::new())
//!     .build(model, SgdConfig::new().init(), 0.5);
//! let result = learner.fit(loader(device.clone().autodiff()), loader(device))?;
//!
//! let w = result.model.w.val().into_scalar::<f32>();
//! assert!((w - 2.0).abs() < 1e-2, "{w}");
//! assert!(dir.join("valid/epoch-20/Loss.log").is_file());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Map
//! - [`learner`] holds [`LearnerBuilder`], [`Learner`], the step traits and
//!   outputs, early stopping, [`TrainingInterrupter`].
//! - [`metric`] holds the [`Metric`](metric::Metric) trait and the built-in
//!   metrics.
//! - [`checkpoint`] holds [`Checkpoint`](checkpoint::Checkpoint),
//!   [`Checkpointer`](checkpoint::Checkpointer),
//!   [`FileCheckpointer`](checkpoint::FileCheckpointer).
//! - [`renderer`] holds [`MetricsRenderer`](renderer::MetricsRenderer), the
//!   text renderer and the dashboard.

extern crate burn_core as burn;

pub mod checkpoint;
pub mod learner;
pub mod metric;
pub mod renderer;

pub use learner::{
    ClassificationOutput, Direction, EarlyStoppingStrategy, Learner, LearnerBuilder, LearnerError,
    MetricEarlyStoppingStrategy, MetricHistory, RegressionOutput, StoppingCondition, TrainOutput,
    TrainStep, TrainingInterrupter, TrainingResult, ValidStep,
};
pub use renderer::Split;
