//! [`LearnerBuilder`]: everything about a training run but the model,
//! optimizer, scheduler and data.

use std::boxed::Box;
use std::path::{Path, PathBuf};
use std::vec::Vec;

use burn_core::module::Module;
use burn_optim::{LrScheduler, ModuleOptimizer};
use burn_tensor::Device;

use super::early_stopping::EarlyStoppingStrategy;
use super::learner::Learner;
use super::metrics::{Generic, Metrics, NumericUpdater};
use crate::TrainingInterrupter;
use crate::metric::{Adaptor, Metric, Numeric};
use crate::renderer::{MetricsRenderer, default_renderer};

/// Configures a [`Learner`]: metrics, checkpoints, devices, epochs,
/// gradient accumulation, early stopping, resuming, rendering.
///
/// `TO` and `VO` are the outputs of the model's
/// [`TrainStep`](crate::TrainStep) and [`ValidStep`](crate::ValidStep);
/// a metric can be registered for a split when its output adapts to the
/// metric's input.
///
/// Everything is written under the experiment directory: the metric logs
/// (`train/`, `valid/`) and, with
/// [`with_file_checkpointer`](Self::with_file_checkpointer),
/// `checkpoint/{model,optim,scheduler}-{epoch}.bpk`.
pub struct LearnerBuilder<TO, VO> {
    pub(crate) directory: PathBuf,
    pub(crate) train_metrics: Metrics<TO>,
    pub(crate) valid_metrics: Metrics<VO>,
    pub(crate) num_epochs: usize,
    pub(crate) checkpoints_kept: Option<usize>,
    pub(crate) resume_epoch: Option<usize>,
    pub(crate) devices: Vec<Device>,
    pub(crate) grad_accumulation: usize,
    pub(crate) early_stopping: Option<Box<dyn EarlyStoppingStrategy>>,
    pub(crate) renderer: Option<Box<dyn MetricsRenderer>>,
    pub(crate) interrupter: TrainingInterrupter,
    pub(crate) log_to_file: bool,
}

impl<TO: 'static, VO: 'static> LearnerBuilder<TO, VO> {
    /// A learner writing under `directory`, for one epoch, with no metric,
    /// no checkpoint, and the default renderer.
    pub fn new(directory: impl AsRef<Path>) -> Self {
        Self {
            directory: directory.as_ref().to_path_buf(),
            train_metrics: Metrics::default(),
            valid_metrics: Metrics::default(),
            num_epochs: 1,
            checkpoints_kept: None,
            resume_epoch: None,
            devices: Vec::new(),
            grad_accumulation: 1,
            early_stopping: None,
            renderer: None,
            interrupter: TrainingInterrupter::new(),
            log_to_file: true,
        }
    }

    /// Shows `metric` (as text) during training.
    pub fn metric_train<M>(mut self, metric: M) -> Self
    where
        M: Metric + 'static,
        TO: Adaptor<M::Input>,
    {
        self.train_metrics.list.push(Box::new(Generic(metric)));
        self
    }

    /// Shows `metric` (as text) during validation.
    pub fn metric_valid<M>(mut self, metric: M) -> Self
    where
        M: Metric + 'static,
        VO: Adaptor<M::Input>,
    {
        self.valid_metrics.list.push(Box::new(Generic(metric)));
        self
    }

    /// Plots, logs and aggregates `metric` during training.
    pub fn metric_train_numeric<M>(mut self, metric: M) -> Self
    where
        M: Metric + Numeric + 'static,
        TO: Adaptor<M::Input>,
    {
        self.train_metrics
            .list
            .push(Box::new(NumericUpdater(metric)));
        self
    }

    /// Plots, logs and aggregates `metric` during validation.
    pub fn metric_valid_numeric<M>(mut self, metric: M) -> Self
    where
        M: Metric + Numeric + 'static,
        VO: Adaptor<M::Input>,
    {
        self.valid_metrics
            .list
            .push(Box::new(NumericUpdater(metric)));
        self
    }

    /// Saves the model, optimizer and scheduler after each epoch to
    /// `{directory}/checkpoint/{model,optim,scheduler}-{epoch}.bpk`,
    /// keeping the `keep` most recent epochs (at least one).
    pub fn with_file_checkpointer(mut self, keep: usize) -> Self {
        self.checkpoints_kept = Some(keep.max(1));
        self
    }

    /// Trains on `devices`. The model is forked to the first one (with an
    /// autodiff context), training batches are produced there and
    /// validation batches on the same device without autodiff. Without
    /// this call, the model and the loaders stay where they are.
    ///
    /// # Panics
    /// If `devices` is empty or has more than one device: data-parallel
    /// training over several devices is not implemented yet.
    pub fn devices(mut self, devices: Vec<Device>) -> Self {
        assert!(
            devices.len() == 1,
            "LearnerBuilder::devices: expected exactly one device, got {} \
             (data-parallel training over several devices is not implemented yet)",
            devices.len()
        );
        self.devices = devices;
        self
    }

    /// Trains for `num_epochs` epochs (counting those a resumed run skips).
    pub fn num_epochs(mut self, num_epochs: usize) -> Self {
        self.num_epochs = num_epochs;
        self
    }

    /// Sums the gradients of `steps` consecutive batches before each
    /// optimizer step (and scheduler step). Gradients left over at the end
    /// of an epoch are applied then.
    ///
    /// # Panics
    /// If `steps` is 0.
    pub fn grads_accumulation(mut self, steps: usize) -> Self {
        assert!(
            steps > 0,
            "LearnerBuilder::grads_accumulation: steps must be at least 1"
        );
        self.grad_accumulation = steps;
        self
    }

    /// Stops training when `strategy` says so (checked after each epoch).
    pub fn early_stopping(mut self, strategy: impl EarlyStoppingStrategy + 'static) -> Self {
        self.early_stopping = Some(Box::new(strategy));
        self
    }

    /// Resumes from the checkpoint of `epoch`: the model, optimizer and
    /// scheduler are loaded from it, training continues at `epoch + 1`, and
    /// the shuffling of the training loader is advanced past the skipped
    /// epochs so the batches are those an uninterrupted run would see.
    pub fn checkpoint(mut self, epoch: usize) -> Self {
        self.resume_epoch = Some(epoch);
        self
    }

    /// Shows progress with `renderer` instead of the default (the dashboard
    /// on a terminal with the `tui` feature, text otherwise).
    pub fn renderer(mut self, renderer: impl MetricsRenderer + 'static) -> Self {
        self.renderer = Some(Box::new(renderer));
        self
    }

    /// Stops when `interrupter` is set, instead of the builder's own flag.
    pub fn with_interrupter(mut self, interrupter: TrainingInterrupter) -> Self {
        self.interrupter = interrupter;
        self
    }

    /// The flag that stops training when set (the dashboard's `q` sets it).
    pub fn interrupter(&self) -> TrainingInterrupter {
        self.interrupter.clone()
    }

    /// Whether to write the metric logs (default: yes).
    pub fn log_to_file(mut self, enabled: bool) -> Self {
        self.log_to_file = enabled;
        self
    }

    /// The learner for `model`, updated by `optim` with learning rates from
    /// `scheduler` (a plain `f64` is a constant rate).
    pub fn build<M, S>(
        mut self,
        model: M,
        optim: ModuleOptimizer,
        scheduler: S,
    ) -> Learner<M, S, TO, VO>
    where
        M: Module,
        S: LrScheduler,
    {
        let renderer = self
            .renderer
            .take()
            .unwrap_or_else(|| default_renderer(&self.interrupter));
        Learner::new(self, model, optim, scheduler, renderer)
    }
}
