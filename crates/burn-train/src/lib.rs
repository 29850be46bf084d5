//! # burn-train: supervised training, evaluation, metrics and the dashboard
//!
//! Training a model is a loop of forward, backward, optimizer step, over
//! epochs of batches, with validation, metrics, checkpoints and a way to
//! stop. This crate owns that loop so a model only says what one step is:
//!
//! 1. implement [`TrainStep`] (forward, loss, backward → [`TrainOutput`])
//!    and [`InferenceStep`] (forward, loss) for the model;
//! 2. bundle the model, a `ModuleOptimizer` and a learning rate scheduler
//!    in a [`Learner`];
//! 3. configure a [`SupervisedTraining`] with the two data loaders,
//!    metrics, checkpoints, epochs, devices and renderer, and
//!    [`launch`](SupervisedTraining::launch) it on the learner.
//!
//! A trained model is evaluated on test sets with an [`EvaluatorBuilder`].
//! A loop of one's own plugs in as a [`SupervisedLearningStrategy`]
//! (`TrainingStrategy::Custom`), reusing the metrics, checkpoints and
//! dashboard.
//!
//! Everything a run writes goes under its experiment directory: metric logs
//! (`train/epoch-{n}/{Metric}.log`, the same under `valid/`), checkpoints
//! (`checkpoint/{model,optim,scheduler}-{n}.bpk`) and the `log` records
//! (`experiment.log`). Metrics are computed on a thread of their own (an
//! [`AsyncProcessorTraining`]), so reading them back from the device does
//! not hold up the next step.
//!
//! Failures do not panic: an error that stops a run (a metric that cannot
//! read its input, a checkpoint that cannot be written) comes back in
//! [`LearningResult::error`].
//!
//! ## What it must not depend on
//!
//! No backend crate: tensors come through `burn-tensor`, modules and data
//! loaders through `burn-core`, optimizers through `burn-optim`. The
//! dashboard's `ratatui` is optional (feature `tui`, default), and so is
//! NVIDIA's management library behind `CudaMetric` (feature `sys-metrics`,
//! default; loaded at run time, never linked).
//!
//! ## Example
//!
//! ```
//! use std::sync::Arc;
//! use burn_core as burn; // what the derives name
//! use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
//! use burn::data::dataset::InMemDataset;
//! use burn::module::{Module, Param};
//! use burn::tensor::activation::log_softmax;
//! use burn::tensor::{Device, Int, Tensor};
//! use burn_optim::AdamConfig;
//! use burn_train::metric::{AccuracyMetric, LossMetric};
//! use burn_train::renderer::CliMetricsRenderer;
//! use burn_train::{
//!     ClassificationOutput, InferenceStep, Learner, SupervisedTraining, TrainOutput, TrainStep,
//! };
//!
//! /// Logistic regression on one feature: class 1 when x > 0.
//! #[derive(Module, Debug)]
//! struct Classifier {
//!     w: Param<Tensor<2>>,
//! }
//!
//! type Batch = (Tensor<2>, Tensor<1, Int>);
//!
//! impl Classifier {
//!     fn forward(&self, (x, targets): Batch) -> ClassificationOutput {
//!         let logits = x.matmul(self.w.val()); // [batch, 2]
//!         // Cross-entropy: −log softmax of the target column.
//!         let picked = targets.clone().unsqueeze_dim::<2>(1);
//!         let loss = -log_softmax(logits.clone(), 1).gather(1, picked).mean();
//!         ClassificationOutput::new(loss, logits, targets)
//!     }
//! }
//!
//! impl TrainStep for Classifier {
//!     type Input = Batch;
//!     type Output = ClassificationOutput;
//!
//!     fn step(&self, batch: Batch) -> TrainOutput<ClassificationOutput> {
//!         let item = self.forward(batch);
//!         TrainOutput::new(self, item.loss.backward(), item)
//!     }
//! }
//!
//! impl InferenceStep for Classifier {
//!     type Input = Batch;
//!     type Output = ClassificationOutput;
//!
//!     fn step(&self, batch: Batch) -> ClassificationOutput {
//!         self.forward(batch)
//!     }
//! }
//!
//! let loader = |xs: Vec<f32>| -> Arc<dyn DataLoader<Batch>> {
//!     DataLoaderBuilder::new(|xs: Vec<f32>, device: &Device| {
//!         let targets: Vec<i64> = xs.iter().map(|&x| i64::from(x > 0.0)).collect();
//!         let x = Tensor::<1>::from_floats(xs.as_slice(), device).unsqueeze_dim::<2>(1);
//!         (x, Tensor::<1, Int>::from_data(targets.as_slice(), device))
//!     })
//!     .batch_size(8)
//!     .build(InMemDataset::new(xs))
//! };
//! let points = |offset: f32| (0..32).map(|i| (i as f32 - 15.5 + offset) / 8.0).collect();
//!
//! let device = Device::flex();
//! let dir = std::env::temp_dir().join(format!("burn-train-lib-doc-{}", std::process::id()));
//! let model = Classifier { w: Param::from_tensor(Tensor::zeros([1, 2], &device)) };
//! let result = SupervisedTraining::new(&dir, loader(points(0.0)), loader(points(0.25)))
//!     .metrics((AccuracyMetric::new(), LossMetric::new()))
//!     .num_epochs(8)
//!     .renderer(Box::new(CliMetricsRenderer::new()))
//!     .with_application_logger(None)
//!     .launch(Learner::new(model, AdamConfig::new().init(), 0.1));
//! assert!(result.error.is_none(), "{:?}", result.error);
//!
//! // The validation accuracy of the last epoch, from its log.
//! let log = std::fs::read_to_string(dir.join("valid/epoch-8/Accuracy.log"))?;
//! let last = log.lines().last().unwrap(); // "100,final"
//! let accuracy: f64 = last.split(',').next().unwrap().parse()?;
//! assert!(accuracy > 90.0, "{accuracy}");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Map
//! - `learner` (flattened at the root): [`Learner`],
//!   [`SupervisedTraining`], the step traits and outputs, the strategies,
//!   early stopping, [`Interrupter`], [`LearnerSummary`].
//! - `evaluator` (flattened at the root): [`EvaluatorBuilder`],
//!   [`Evaluator`].
//! - [`metric`]: the [`Metric`](metric::Metric) trait, the built-in
//!   metrics, [`metric::state`] and [`metric::store`]; the event processors
//!   ([`LearnerEvent`], [`EventProcessorTraining`], …) are at the root.
//! - [`checkpoint`]: checkpointers and checkpointing strategies.
//! - [`logger`]: metric loggers and progress loggers.
//! - [`renderer`]: the renderer traits, the text renderer and the
//!   dashboard.

extern crate burn_core as burn;

pub mod checkpoint;
mod evaluator;
mod learner;
pub mod logger;
pub mod metric;
pub mod renderer;

pub use evaluator::*;
pub use learner::*;
pub use metric::processor::*;
