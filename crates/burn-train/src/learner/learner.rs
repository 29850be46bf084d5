//! [`Learner`]: the training loop.

use std::boxed::Box;
use std::path::PathBuf;
use std::string::String;
use std::sync::Arc;
use std::time::Instant;
use std::vec::Vec;

use burn_core::data::dataloader::DataLoader;
use burn_core::module::Module;
use burn_core::record::{ModuleRecord, RecordError};
use burn_optim::{
    GradientsAccumulator, GradientsParams, LrScheduler, ModuleOptimizer, OptimError,
    OptimizerRecord,
};
use burn_tensor::Device;

use super::builder::LearnerBuilder;
use super::early_stopping::EarlyStoppingStrategy;
use super::metrics::{MetricHistory, MetricLogger, Metrics};
use super::step::{TrainStep, ValidStep};
use crate::TrainingInterrupter;
use crate::checkpoint::{CheckpointError, Checkpointer, FileCheckpointer};
use crate::metric::{MetricMetadata, Progress};
use crate::renderer::{MetricState, MetricsRenderer, Split, TrainingProgress};

/// Why training could not run or finish.
#[derive(Debug, thiserror::Error)]
pub enum LearnerError {
    /// A checkpoint could not be written, read or deleted.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The checkpointed model does not fit the model being resumed.
    #[error("resuming from epoch {epoch}: the model checkpoint does not fit the model: {source}")]
    ModelRecord {
        /// The epoch resumed from.
        epoch: usize,
        /// What did not fit.
        #[source]
        source: RecordError,
    },
    /// The checkpointed optimizer or scheduler state does not fit.
    #[error("resuming from epoch {epoch}: {source}")]
    OptimRecord {
        /// The epoch resumed from.
        epoch: usize,
        /// What did not fit.
        #[source]
        source: OptimError,
    },
    /// The dataset failed to produce an item of a batch.
    #[error("dataset: {0}")]
    Dataset(#[from] burn_core::data::dataset::DatasetError),
    /// A metric log could not be written.
    #[error("metric log under `{directory}`: {source}")]
    Log {
        /// The experiment directory.
        directory: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// Resuming needs checkpoints.
    #[error(
        "resuming from epoch {0} needs `with_file_checkpointer`: there is nothing to load otherwise"
    )]
    ResumeWithoutCheckpointer(usize),
}

/// How a training run ended, and what it measured.
#[derive(Debug)]
pub struct TrainingResult<M> {
    /// The trained model (as it was when training stopped).
    pub model: M,
    /// The epoch values of every numeric metric (of earlier runs too, when
    /// resumed).
    pub history: MetricHistory,
    /// The last epoch that ran to its end (0 if none did).
    pub last_epoch: usize,
    /// Whether training was interrupted (by `q` or the interrupter).
    pub interrupted: bool,
    /// Whether early stopping ended training.
    pub stopped_early: bool,
    /// Seconds each training pass took, `(epoch, seconds, items)`.
    pub train_times: Vec<(usize, f64, usize)>,
}

impl<M> TrainingResult<M> {
    /// A table of the epoch values: for each metric and split, the last
    /// epoch's value and the best one with its epoch.
    pub fn summary(&self) -> String {
        let mut out = String::from(
            "| split | metric | last | min (epoch) | max (epoch) |\n|---|---|---|---|---|\n",
        );
        for split in [Split::Train, Split::Valid] {
            for name in self.history.names(split) {
                let series = self.history.series(split, &name);
                let Some(&(last_epoch, last)) = series.last() else {
                    continue;
                };
                let min = series
                    .iter()
                    .cloned()
                    .fold((last_epoch, last), |a, b| if b.1 < a.1 { b } else { a });
                let max = series
                    .iter()
                    .cloned()
                    .fold((last_epoch, last), |a, b| if b.1 > a.1 { b } else { a });
                out.push_str(&format!(
                    "| {} | {name} | {last:.4} | {:.4} ({}) | {:.4} ({}) |\n",
                    split.as_str(),
                    min.1,
                    min.0,
                    max.1,
                    max.0
                ));
            }
        }
        out
    }
}

/// The training loop: built by a [`LearnerBuilder`], run by
/// [`fit`](Self::fit).
///
/// Each epoch runs a training pass (forward, backward, optimizer step per
/// batch, or per `n` batches with gradient accumulation), then a
/// validation pass on a [`valid`](Module::valid) snapshot, then saves a
/// checkpoint and asks the early stopping strategy. After every batch the
/// metrics are updated, logged and rendered, and the interrupter is read.
pub struct Learner<M, S, TO, VO> {
    model: M,
    optim: ModuleOptimizer,
    scheduler: S,
    directory: PathBuf,
    train_metrics: Metrics<TO>,
    valid_metrics: Metrics<VO>,
    num_epochs: usize,
    checkpoints_kept: Option<usize>,
    resume_epoch: Option<usize>,
    device: Option<Device>,
    grad_accumulation: usize,
    early_stopping: Option<Box<dyn EarlyStoppingStrategy>>,
    renderer: Box<dyn MetricsRenderer>,
    interrupter: TrainingInterrupter,
    log_to_file: bool,
}

/// The three checkpointers of a learner.
struct Checkpointers {
    model: FileCheckpointer,
    optim: FileCheckpointer,
    scheduler: FileCheckpointer,
    keep: usize,
}

impl Checkpointers {
    fn new(directory: &std::path::Path, keep: usize) -> Self {
        let dir = directory.join("checkpoint");
        Self {
            model: FileCheckpointer::new(&dir, "model"),
            optim: FileCheckpointer::new(&dir, "optim"),
            scheduler: FileCheckpointer::new(&dir, "scheduler"),
            keep,
        }
    }

    fn save<M: Module, S: LrScheduler>(
        &self,
        epoch: usize,
        model: &M,
        optim: &ModuleOptimizer,
        scheduler: &S,
    ) -> Result<(), CheckpointError> {
        self.model.save(epoch, model.clone().into_record())?;
        self.optim.save(epoch, optim.to_record())?;
        self.scheduler.save(epoch, scheduler.to_record())?;
        if epoch > self.keep {
            let old = epoch - self.keep;
            Checkpointer::<ModuleRecord>::delete(&self.model, old)?;
            Checkpointer::<OptimizerRecord>::delete(&self.optim, old)?;
            Checkpointer::<burn_optim::LrSchedulerRecord>::delete(&self.scheduler, old)?;
        }
        Ok(())
    }
}

/// Accumulates, steps and reports the learning rate of a training pass.
struct Updater {
    accumulator: GradientsAccumulator,
    steps: usize,
    lr: Option<f64>,
}

impl Updater {
    fn apply<M: Module, S: LrScheduler>(
        &mut self,
        model: M,
        grads: GradientsParams,
        optim: &mut ModuleOptimizer,
        scheduler: &mut S,
    ) -> M {
        if self.steps == 1 {
            let lr = scheduler.step();
            self.lr = Some(lr);
            return optim.step(lr, model, grads);
        }
        self.accumulator.accumulate(&model, grads);
        if self.accumulator.count() >= self.steps {
            self.flush(model, optim, scheduler)
        } else {
            model
        }
    }

    /// Applies gradients still accumulated (end of an epoch).
    fn flush<M: Module, S: LrScheduler>(
        &mut self,
        model: M,
        optim: &mut ModuleOptimizer,
        scheduler: &mut S,
    ) -> M {
        if self.accumulator.count() == 0 {
            return model;
        }
        let lr = scheduler.step();
        self.lr = Some(lr);
        let grads = self.accumulator.grads();
        optim.step(lr, model, grads)
    }
}

fn progress_of(progress: burn_core::data::dataloader::Progress) -> Progress {
    Progress {
        items_processed: progress.items_processed,
        items_total: progress.items_total,
    }
}

impl<M, S, TO, VO> Learner<M, S, TO, VO>
where
    M: Module,
    S: LrScheduler,
{
    pub(crate) fn new(
        builder: LearnerBuilder<TO, VO>,
        model: M,
        optim: ModuleOptimizer,
        scheduler: S,
        renderer: Box<dyn MetricsRenderer>,
    ) -> Self {
        Self {
            model,
            optim,
            scheduler,
            directory: builder.directory,
            train_metrics: builder.train_metrics,
            valid_metrics: builder.valid_metrics,
            num_epochs: builder.num_epochs,
            checkpoints_kept: builder.checkpoints_kept,
            resume_epoch: builder.resume_epoch,
            device: builder.devices.into_iter().next(),
            grad_accumulation: builder.grad_accumulation,
            early_stopping: builder.early_stopping,
            renderer,
            interrupter: builder.interrupter,
            log_to_file: builder.log_to_file,
        }
    }

    /// Trains on the batches of `train`, validating on those of `valid`
    /// after each epoch; returns the trained model and the metric history.
    ///
    /// The renderer is released (the terminal restored) whether training
    /// succeeds or fails.
    pub fn fit<TI, VI>(
        mut self,
        train: Arc<dyn DataLoader<TI>>,
        valid: Arc<dyn DataLoader<VI>>,
    ) -> Result<TrainingResult<M>, LearnerError>
    where
        M: TrainStep<TI, TO> + ValidStep<VI, VO>,
    {
        let mut renderer = std::mem::replace(
            &mut self.renderer,
            Box::new(crate::renderer::TextRenderer::new()),
        );
        let result = self.run(train, valid, renderer.as_mut());
        renderer.on_train_end();
        result
    }

    fn run<TI, VI>(
        self,
        train: Arc<dyn DataLoader<TI>>,
        valid: Arc<dyn DataLoader<VI>>,
        renderer: &mut dyn MetricsRenderer,
    ) -> Result<TrainingResult<M>, LearnerError>
    where
        M: TrainStep<TI, TO> + ValidStep<VI, VO>,
    {
        let Self {
            mut model,
            mut optim,
            mut scheduler,
            directory,
            mut train_metrics,
            mut valid_metrics,
            num_epochs,
            checkpoints_kept,
            resume_epoch,
            device,
            grad_accumulation,
            mut early_stopping,
            interrupter,
            log_to_file,
            ..
        } = self;

        let (train, valid) = match &device {
            Some(device) => {
                model = model.fork(&device.clone().autodiff());
                (
                    train.to_device(&device.clone().autodiff()),
                    valid.to_device(&device.clone().without_autodiff()),
                )
            }
            None => (train, valid),
        };
        model = model.train();

        let checkpointers = checkpoints_kept.map(|keep| Checkpointers::new(&directory, keep));
        let mut logger = MetricLogger::new(&directory);
        let log_error = |source| LearnerError::Log {
            directory: directory.clone(),
            source,
        };

        let mut history = MetricHistory::default();
        let mut start_epoch = 1;
        if let Some(epoch) = resume_epoch {
            let Some(checkpointers) = &checkpointers else {
                return Err(LearnerError::ResumeWithoutCheckpointer(epoch));
            };
            let record: ModuleRecord = checkpointers.model.restore(epoch)?;
            model = model
                .try_load_record(record)
                .map_err(|source| LearnerError::ModelRecord { epoch, source })?;
            let record: OptimizerRecord = checkpointers.optim.restore(epoch)?;
            optim = optim
                .try_load_record(record)
                .map_err(|source| LearnerError::OptimRecord { epoch, source })?;
            let record: burn_optim::LrSchedulerRecord = checkpointers.scheduler.restore(epoch)?;
            scheduler
                .apply_record(&record)
                .map_err(|source| LearnerError::OptimRecord { epoch, source })?;
            history = logger.read_history(epoch);
            if log_to_file {
                logger.truncate_after(epoch).map_err(log_error)?;
            }
            // Each `iter` call draws the next epoch's order: draw (and drop)
            // those of the epochs already done.
            for _ in 0..epoch {
                drop(train.iter());
            }
            start_epoch = epoch + 1;
        }

        let mut last_epoch = start_epoch - 1;
        let mut interrupted = false;
        let mut stopped_early = false;
        let mut train_times = Vec::new();

        for epoch in start_epoch..=num_epochs {
            // Training pass.
            let started = Instant::now();
            let mut updater = Updater {
                accumulator: GradientsAccumulator::new(),
                steps: grad_accumulation,
                lr: None,
            };
            let mut iterator = train.iter();
            let mut iteration = 0;
            let mut items = 0;
            while let Some(item) = iterator.next() {
                let item = item?;
                iteration += 1;
                let progress = progress_of(iterator.progress());
                items = progress.items_processed;
                let output = TrainStep::step(&model, item);
                model = updater.apply(model, output.grads, &mut optim, &mut scheduler);
                let metadata = MetricMetadata {
                    progress,
                    epoch,
                    epoch_total: num_epochs,
                    iteration,
                    lr: updater.lr,
                };
                let states = train_metrics.update(&output.item, &metadata);
                report(
                    &mut logger,
                    log_to_file,
                    renderer,
                    Split::Train,
                    epoch,
                    states,
                )
                .map_err(log_error)?;
                renderer.render_train(TrainingProgress {
                    progress,
                    epoch,
                    epoch_total: num_epochs,
                    iteration,
                });
                if interrupter.should_stop() {
                    break;
                }
            }
            drop(iterator);
            if interrupter.should_stop() {
                interrupted = true;
                break;
            }
            model = updater.flush(model, &mut optim, &mut scheduler);
            train_times.push((epoch, started.elapsed().as_secs_f64(), items));
            end_pass(
                &mut train_metrics,
                &mut history,
                &mut logger,
                log_to_file,
                renderer,
                Split::Train,
                epoch,
            )
            .map_err(log_error)?;

            // Validation pass.
            let snapshot = model.valid();
            let mut iterator = valid.iter();
            let mut iteration = 0;
            while let Some(item) = iterator.next() {
                let item = item?;
                iteration += 1;
                let progress = progress_of(iterator.progress());
                let output = ValidStep::step(&snapshot, item);
                let metadata = MetricMetadata {
                    progress,
                    epoch,
                    epoch_total: num_epochs,
                    iteration,
                    lr: None,
                };
                let states = valid_metrics.update(&output, &metadata);
                report(
                    &mut logger,
                    log_to_file,
                    renderer,
                    Split::Valid,
                    epoch,
                    states,
                )
                .map_err(log_error)?;
                renderer.render_valid(TrainingProgress {
                    progress,
                    epoch,
                    epoch_total: num_epochs,
                    iteration,
                });
                if interrupter.should_stop() {
                    break;
                }
            }
            drop(iterator);
            if interrupter.should_stop() {
                interrupted = true;
                break;
            }
            end_pass(
                &mut valid_metrics,
                &mut history,
                &mut logger,
                log_to_file,
                renderer,
                Split::Valid,
                epoch,
            )
            .map_err(log_error)?;

            // The epoch is complete: checkpoint it, then maybe stop.
            if let Some(checkpointers) = &checkpointers {
                checkpointers.save(epoch, &model, &optim, &scheduler)?;
            }
            last_epoch = epoch;
            if let Some(strategy) = &mut early_stopping
                && strategy.should_stop(epoch, &history)
            {
                stopped_early = true;
                break;
            }
        }

        Ok(TrainingResult {
            model,
            history,
            last_epoch,
            interrupted,
            stopped_early,
            train_times,
        })
    }
}

/// Logs and renders the metric updates of one batch.
fn report(
    logger: &mut MetricLogger,
    log_to_file: bool,
    renderer: &mut dyn MetricsRenderer,
    split: Split,
    epoch: usize,
    states: Vec<MetricState>,
) -> std::io::Result<()> {
    for state in states {
        if log_to_file {
            let entry = state.entry();
            logger.log_batch(split, epoch, &entry.name, &entry.serialized)?;
        }
        match split {
            Split::Train => renderer.update_train(state),
            Split::Valid => renderer.update_valid(state),
        }
    }
    Ok(())
}

/// Records, logs and renders the epoch values of a pass, and clears the
/// metrics for the next one.
fn end_pass<T>(
    metrics: &mut Metrics<T>,
    history: &mut MetricHistory,
    logger: &mut MetricLogger,
    log_to_file: bool,
    renderer: &mut dyn MetricsRenderer,
    split: Split,
    epoch: usize,
) -> std::io::Result<()> {
    let summary = metrics.end_epoch();
    for (name, value) in &summary {
        history.record(split, epoch, name, *value);
    }
    if log_to_file {
        logger.log_epoch(split, epoch, &summary)?;
    }
    renderer.on_epoch_end(split, epoch, &summary);
    Ok(())
}
