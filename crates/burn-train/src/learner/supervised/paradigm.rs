//! [`SupervisedTraining`]: configures and runs a supervised training.

use std::boxed::Box;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use burn_core::data::dataloader::DataLoader;
use burn_core::module::AutodiffModule;
use burn_core::record::ModuleRecord;
use burn_optim::{LrSchedulerRecord, OptimizerRecord};
use burn_tensor::{Checkpointing, Device};

use super::multi::MultiDeviceTrainingStrategy;
use super::single::SingleDeviceTrainingStrategy;
use super::{
    ExecutionStrategy, SupervisedLearningStrategy, TrainLoader, TrainingComponents,
    TrainingStrategy, ValidLoader,
};
use crate::checkpoint::{
    AsyncCheckpointer, Checkpointer, CheckpointerError, CheckpointingStrategy,
    ComposedCheckpointingStrategy, FileCheckpointer, KeepLastNCheckpoints,
    MetricCheckpointingStrategy,
};
use crate::learner::{
    ApplicationLoggerInstaller, CloneEarlyStoppingStrategy, EarlyStoppingStrategy,
    FileApplicationLoggerInstaller, InferenceStep, Interrupter, Learner, LearnerModel,
    LearnerSummaryConfig, LearningCheckpointer, LearningResult, TrainStep,
};
use crate::logger::{FileMetricLogger, MetricLogger, TrainingProgressLogger};
use crate::metric::processor::{
    AsyncProcessorTraining, EventProcessorTraining, FullEventProcessorTraining, MetricsTraining,
};
use crate::metric::store::{Aggregate, Direction, EventStoreClient, LogEventStore, Split};
use crate::metric::{Adaptor, LossMetric, Metric, Numeric};
use crate::renderer::{MetricsRenderer, default_renderer};

type TrainOut<M> = <M as TrainStep>::Output;
type ValidOut<M> = <M as InferenceStep>::Output;

/// Configures and runs a supervised training: the data, the metrics, the
/// checkpoints, the epochs, the devices, how progress is shown.
///
/// ```
/// use std::sync::Arc;
/// use burn_core as burn; // what the derives name
/// use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
/// use burn::data::dataset::InMemDataset;
/// use burn::module::{Module, Param};
/// use burn::tensor::{Device, Tensor};
/// use burn_optim::SgdConfig;
/// use burn_train::metric::LossMetric;
/// use burn_train::renderer::CliMetricsRenderer;
/// use burn_train::{InferenceStep, Learner, RegressionOutput, SupervisedTraining, TrainOutput, TrainStep};
///
/// /// y = w·x, to learn w = 2.
/// #[derive(Module, Debug)]
/// struct Line {
///     w: Param<Tensor<1>>,
/// }
///
/// impl Line {
///     fn forward(&self, (x, y): (Tensor<2>, Tensor<2>)) -> RegressionOutput {
///         let output = x * self.w.val().unsqueeze();
///         let loss = (output.clone() - y.clone()).square().mean();
///         RegressionOutput::new(loss, output, y)
///     }
/// }
///
/// impl TrainStep for Line {
///     type Input = (Tensor<2>, Tensor<2>);
///     type Output = RegressionOutput;
///
///     fn step(&self, batch: Self::Input) -> TrainOutput<RegressionOutput> {
///         let output = self.forward(batch);
///         TrainOutput::new(self, output.loss.backward(), output)
///     }
/// }
///
/// impl InferenceStep for Line {
///     type Input = (Tensor<2>, Tensor<2>);
///     type Output = RegressionOutput;
///
///     fn step(&self, batch: Self::Input) -> RegressionOutput {
///         self.forward(batch)
///     }
/// }
///
/// let device = Device::flex();
/// let points: Vec<f32> = (0..32).map(|i| i as f32 / 32.0).collect();
/// let loader = || -> Arc<dyn DataLoader<(Tensor<2>, Tensor<2>)>> {
///     DataLoaderBuilder::new(|xs: Vec<f32>, device: &Device| {
///         let x = Tensor::<1>::from_floats(xs.as_slice(), device).unsqueeze_dim::<2>(1);
///         (x.clone(), x * 2.0)
///     })
///     .batch_size(8)
///     .build(InMemDataset::new(points.clone()))
/// };
///
/// let dir = std::env::temp_dir().join(format!("burn-train-doc-{}", std::process::id()));
/// let model = Line { w: Param::from_tensor(Tensor::zeros([1], &device)) };
/// let result = SupervisedTraining::new(&dir, loader(), loader())
///     .metric_train_numeric(LossMetric::new())
///     .metric_valid_numeric(LossMetric::new())
///     .num_epochs(20)
///     .renderer(Box::new(CliMetricsRenderer::new()))
///     .with_application_logger(None)
///     .launch(Learner::new(model, SgdConfig::new().init(), 0.5));
///
/// assert!(result.error.is_none());
/// let w = result.model.w.val().into_scalar::<f32>();
/// assert!((w - 2.0).abs() < 1e-2, "{w}");
/// assert!(dir.join("valid/epoch-20/Loss.log").is_file());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SupervisedTraining<M: LearnerModel> {
    directory: PathBuf,
    dataloader_train: TrainLoader<M>,
    dataloader_valid: ValidLoader<M>,
    num_epochs: usize,
    checkpoint: Option<usize>,
    #[allow(clippy::type_complexity)]
    checkpointers: Option<(
        AsyncCheckpointer<ModuleRecord>,
        AsyncCheckpointer<OptimizerRecord>,
        AsyncCheckpointer<LrSchedulerRecord>,
    )>,
    checkpointing_strategy: Box<dyn CheckpointingStrategy>,
    grad_accumulation: Option<usize>,
    grad_checkpointing: bool,
    renderer: Option<Box<dyn MetricsRenderer>>,
    metrics: MetricsTraining<TrainOut<M>, ValidOut<M>>,
    event_store: LogEventStore,
    interrupter: Interrupter,
    application_logger: Option<Box<dyn ApplicationLoggerInstaller>>,
    early_stopping: Option<Box<dyn CloneEarlyStoppingStrategy>>,
    training_strategy: Option<TrainingStrategy<M>>,
    summary_metrics: BTreeSet<String>,
    summary: bool,
    progress_logger: Option<Box<dyn TrainingProgressLogger>>,
    label: Option<String>,
}

impl<M: LearnerModel> SupervisedTraining<M> {
    /// A run writing under `directory`, on the batches of
    /// `dataloader_train` (training) and `dataloader_valid` (validation):
    /// one epoch, no metric, no checkpoint, the default renderer, metric
    /// logs under `directory`, `log` records in `directory/experiment.log`.
    pub fn new(
        directory: impl AsRef<Path>,
        dataloader_train: Arc<dyn DataLoader<<M as TrainStep>::Input>>,
        dataloader_valid: Arc<dyn DataLoader<<M as InferenceStep>::Input>>,
    ) -> Self {
        let directory = directory.as_ref().to_path_buf();
        let application_logger: Box<dyn ApplicationLoggerInstaller> = Box::new(
            FileApplicationLoggerInstaller::new(directory.join("experiment.log")),
        );
        Self {
            dataloader_train,
            dataloader_valid,
            num_epochs: 1,
            checkpoint: None,
            checkpointers: None,
            // Keep the two latest epochs (to resume) and the best one by
            // validation loss.
            checkpointing_strategy: Box::new(
                ComposedCheckpointingStrategy::builder()
                    .add(KeepLastNCheckpoints::new(2))
                    .add(MetricCheckpointingStrategy::new(
                        &LossMetric::new(),
                        Aggregate::Mean,
                        Direction::Lowest,
                        Split::Valid,
                    ))
                    .build(),
            ),
            grad_accumulation: None,
            grad_checkpointing: false,
            renderer: None,
            metrics: MetricsTraining::default(),
            event_store: LogEventStore::default(),
            interrupter: Interrupter::new(),
            application_logger: Some(application_logger),
            early_stopping: None,
            training_strategy: None,
            summary_metrics: BTreeSet::new(),
            summary: false,
            progress_logger: None,
            label: None,
            directory,
        }
    }

    /// Trains with `training_strategy` instead of the built-in loop on the
    /// model's device.
    pub fn with_training_strategy(mut self, training_strategy: TrainingStrategy<M>) -> Self {
        self.training_strategy = Some(training_strategy);
        self
    }

    /// Records metric values with `logger` (instead of the default file
    /// logger; call again to add more).
    pub fn with_metric_logger<ML: MetricLogger + 'static>(mut self, logger: ML) -> Self {
        self.event_store.register_logger(logger);
        self
    }

    /// Also reports the progress to `logger`.
    pub fn with_progress_logger<PL: TrainingProgressLogger + 'static>(
        mut self,
        logger: PL,
    ) -> Self {
        self.progress_logger = Some(Box::new(logger));
        self
    }

    /// Saves and deletes checkpoints as `strategy` says (by default: the
    /// two latest epochs and the best one by validation loss).
    pub fn with_checkpointing_strategy<CS: CheckpointingStrategy + 'static>(
        mut self,
        strategy: CS,
    ) -> Self {
        self.checkpointing_strategy = Box::new(strategy);
        self
    }

    /// Shows progress with `renderer` instead of the default (the dashboard
    /// on a terminal with the `tui` feature, text otherwise).
    pub fn renderer(mut self, renderer: Box<dyn MetricsRenderer + 'static>) -> Self {
        self.renderer = Some(renderer);
        self
    }

    /// Registers numeric metrics for both splits: a tuple of up to six.
    pub fn metrics<Me: MetricRegistration<M>>(self, metrics: Me) -> Self {
        metrics.register(self)
    }

    /// Registers text metrics for both splits: a tuple of up to six.
    pub fn metrics_text<Me: TextMetricRegistration<M>>(self, metrics: Me) -> Self {
        metrics.register(self)
    }

    /// Shows `metric` (as text) during training.
    pub fn metric_train<Me: Metric + 'static>(mut self, metric: Me) -> Self
    where
        TrainOut<M>: Adaptor<Me::Input>,
    {
        self.metrics.train.register(metric);
        self
    }

    /// Shows `metric` (as text) during validation.
    pub fn metric_valid<Me: Metric + 'static>(mut self, metric: Me) -> Self
    where
        ValidOut<M>: Adaptor<Me::Input>,
    {
        self.metrics.valid.register(metric);
        self
    }

    /// Plots, logs and aggregates `metric` during training.
    pub fn metric_train_numeric<Me>(mut self, metric: Me) -> Self
    where
        Me: Metric + Numeric + 'static,
        TrainOut<M>: Adaptor<Me::Input>,
    {
        self.summary_metrics.insert(metric.name().to_string());
        self.metrics.train.register_numeric(metric);
        self
    }

    /// Plots, logs and aggregates `metric` during validation.
    pub fn metric_valid_numeric<Me>(mut self, metric: Me) -> Self
    where
        Me: Metric + Numeric + 'static,
        ValidOut<M>: Adaptor<Me::Input>,
    {
        self.summary_metrics.insert(metric.name().to_string());
        self.metrics.valid.register_numeric(metric);
        self
    }

    /// Sums the gradients of `accumulation` consecutive batches before each
    /// update (and scheduler step): like a batch that many times larger
    /// with a learning rate that many times larger, so consider lowering
    /// it. Gradients left at the end of an epoch are applied then.
    ///
    /// # Panics
    /// If `accumulation` is 0.
    pub fn grads_accumulation(mut self, accumulation: usize) -> Self {
        assert!(
            accumulation > 0,
            "SupervisedTraining::grads_accumulation: accumulation must be at least 1"
        );
        self.grad_accumulation = Some(accumulation);
        self
    }

    /// Trains with gradient checkpointing: memory-bound operations are
    /// recomputed during backward instead of keeping their outputs
    /// (`Checkpointing::Balanced`), trading compute for memory.
    pub fn gradient_checkpointing(mut self) -> Self {
        self.grad_checkpointing = true;
        self
    }

    /// Trains for `num_epochs` epochs (counting those a resumed run skips).
    pub fn num_epochs(mut self, num_epochs: usize) -> Self {
        self.num_epochs = num_epochs;
        self
    }

    /// Resumes from the checkpoint of `checkpoint`: the model, optimizer
    /// and scheduler are loaded from it, training continues at the next
    /// epoch, and the training loader's shuffling is advanced past the
    /// epochs done, so the batches are those an uninterrupted run would
    /// see. Needs checkpointers ([`with_default_checkpointers`](Self::with_default_checkpointers)).
    pub fn checkpoint(mut self, checkpoint: usize) -> Self {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// The handle that stops this run (the dashboard's `q` uses it).
    pub fn interrupter(&self) -> Interrupter {
        self.interrupter.clone()
    }

    /// Stops when `interrupter` is set, instead of the run's own handle.
    pub fn with_interrupter(mut self, interrupter: Interrupter) -> Self {
        self.interrupter = interrupter;
        self
    }

    /// Stops training when `strategy` says so (asked after each epoch).
    pub fn early_stopping<Strategy>(mut self, strategy: Strategy) -> Self
    where
        Strategy: EarlyStoppingStrategy + Clone + Send + Sync + 'static,
    {
        self.early_stopping = Some(Box::new(strategy));
        self
    }

    /// Installs `logger` for the `log` records of the run instead of the
    /// default file (`None`: leave logging as the program set it up).
    pub fn with_application_logger(
        mut self,
        logger: Option<Box<dyn ApplicationLoggerInstaller>>,
    ) -> Self {
        self.application_logger = logger;
        self
    }

    /// Saves the model, optimizer and scheduler after each epoch (as the
    /// checkpointing strategy says) to
    /// `{directory}/checkpoint/{model,optim,scheduler}-{epoch}.bpk`.
    pub fn with_default_checkpointers(mut self) -> Self {
        let dir = self.directory.join("checkpoint");
        self.checkpointers = Some((
            AsyncCheckpointer::new(FileCheckpointer::new(&dir, "model")),
            AsyncCheckpointer::new(FileCheckpointer::new(&dir, "optim")),
            AsyncCheckpointer::new(FileCheckpointer::new(&dir, "scheduler")),
        ));
        self
    }

    /// Saves the three states with checkpointers of one's own.
    pub fn with_custom_checkpointers<CM, CO, CL>(
        mut self,
        module_checkpointer: CM,
        optimizer_checkpointer: CO,
        lr_checkpointer: CL,
    ) -> Self
    where
        CM: Checkpointer<ModuleRecord> + 'static,
        CO: Checkpointer<OptimizerRecord> + 'static,
        CL: Checkpointer<LrSchedulerRecord> + 'static,
    {
        self.checkpointers = Some((
            AsyncCheckpointer::new(module_checkpointer),
            AsyncCheckpointer::new(optimizer_checkpointer),
            AsyncCheckpointer::new(lr_checkpointer),
        ));
        self
    }

    /// Shows a summary of the numeric metrics when training ends.
    pub fn summary(mut self) -> Self {
        self.summary = true;
        self
    }

    /// Names the run (shown by the renderers).
    pub fn label(mut self, label: &str) -> Self {
        self.label = Some(label.to_string());
        self
    }

    /// Trains `learner` and returns the result.
    ///
    /// Failures do not panic: an error that stops the run (a metric that
    /// cannot read its input, a checkpoint that cannot be written or
    /// resumed from) is in [`LearningResult::error`], with the model as it
    /// was when the run stopped.
    pub fn launch(self, learner: Learner<M>) -> LearningResult<M> {
        let Self {
            directory,
            dataloader_train,
            dataloader_valid,
            num_epochs,
            checkpoint,
            checkpointers,
            checkpointing_strategy,
            grad_accumulation,
            grad_checkpointing,
            renderer,
            metrics,
            mut event_store,
            interrupter,
            application_logger,
            early_stopping,
            training_strategy,
            summary_metrics,
            summary,
            progress_logger,
            label,
        } = self;
        if let Some(installer) = &application_logger
            && let Err(error) = installer.install()
        {
            log::warn!("the experiment logger was not installed: {error}");
        }
        let renderer =
            renderer.unwrap_or_else(|| default_renderer(interrupter.clone(), checkpoint));
        if !event_store.has_loggers() {
            event_store.register_logger(FileMetricLogger::new(&directory));
        }
        let event_store = Arc::new(EventStoreClient::new(event_store));
        let processor = FullEventProcessorTraining::new(
            metrics,
            renderer,
            event_store.clone(),
            progress_logger,
        );
        let checkpointer = checkpointers.map(|(model, optim, scheduler)| {
            LearningCheckpointer::new(
                model.with_interrupter(interrupter.clone()),
                optim.with_interrupter(interrupter.clone()),
                scheduler.with_interrupter(interrupter.clone()),
                checkpointing_strategy,
            )
        });
        let summary = summary.then(|| LearnerSummaryConfig {
            directory: directory.clone(),
            metrics: summary_metrics.into_iter().collect::<Vec<_>>(),
        });

        let mut learner = learner;
        if let Some(epoch) = checkpoint {
            let before = learner.model.clone();
            let restored = match &checkpointer {
                Some(checkpointer) => checkpointer.try_load_checkpoint(learner, epoch),
                None => Err(CheckpointerError::Unknown(format!(
                    "resuming from epoch {epoch} needs checkpointers (`with_default_checkpointers`)"
                ))
                .into()),
            };
            learner = match restored {
                Ok(learner) => learner,
                Err(error) => {
                    interrupter.fail(error);
                    return LearningResult {
                        model: before.valid(),
                        renderer: EventProcessorTraining::renderer(processor),
                        interrupted: None,
                        error: interrupter.error(),
                    };
                }
            };
        }
        let components = TrainingComponents {
            label,
            num_epochs,
            checkpoint,
            checkpointer,
            grad_accumulation,
            interrupter,
            early_stopping,
            event_processor: AsyncProcessorTraining::new(processor),
            event_store,
            summary,
        };

        let with_checkpointing = |device: Device| {
            if grad_checkpointing {
                device.autodiff_with_checkpointing(Checkpointing::Balanced)
            } else if device.is_autodiff() {
                device
            } else {
                device.autodiff()
            }
        };
        let strategy = training_strategy.unwrap_or_else(|| {
            let device = learner
                .model
                .devices()
                .into_iter()
                .next()
                .unwrap_or_default();
            TrainingStrategy::Default(ExecutionStrategy::SingleDevice(device))
        });
        match strategy {
            TrainingStrategy::Custom(strategy) => {
                strategy.train(learner, dataloader_train, dataloader_valid, components)
            }
            TrainingStrategy::Default(ExecutionStrategy::SingleDevice(device)) => {
                SingleDeviceTrainingStrategy::new(with_checkpointing(device)).train(
                    learner,
                    dataloader_train,
                    dataloader_valid,
                    components,
                )
            }
            TrainingStrategy::Default(ExecutionStrategy::MultiDevice(devices, _optim)) => {
                let devices: Vec<Device> = devices.into_iter().map(with_checkpointing).collect();
                let strategy: Box<dyn SupervisedLearningStrategy<M>> = if devices.len() == 1 {
                    Box::new(SingleDeviceTrainingStrategy::new(devices[0].clone()))
                } else {
                    Box::new(MultiDeviceTrainingStrategy::new(devices))
                };
                strategy.train(learner, dataloader_train, dataloader_valid, components)
            }
        }
    }
}

/// Registers a tuple of numeric metrics for both splits.
pub trait MetricRegistration<M: LearnerModel>: Sized {
    /// Registers them.
    fn register(self, builder: SupervisedTraining<M>) -> SupervisedTraining<M>;
}

/// Registers a tuple of text metrics for both splits.
pub trait TextMetricRegistration<M: LearnerModel>: Sized {
    /// Registers them.
    fn register(self, builder: SupervisedTraining<M>) -> SupervisedTraining<M>;
}

macro_rules! registration_for_tuple {
    ($($Me:ident),*) => {
        impl<$($Me,)* M: LearnerModel> MetricRegistration<M> for ($($Me,)*)
        where
            $($Me: Metric + Numeric + 'static,)*
            $(TrainOut<M>: Adaptor<$Me::Input>,)*
            $(ValidOut<M>: Adaptor<$Me::Input>,)*
        {
            #[allow(non_snake_case)]
            fn register(self, builder: SupervisedTraining<M>) -> SupervisedTraining<M> {
                let ($($Me,)*) = self;
                $(let builder = builder.metric_train_numeric($Me.clone()).metric_valid_numeric($Me);)*
                builder
            }
        }

        impl<$($Me,)* M: LearnerModel> TextMetricRegistration<M> for ($($Me,)*)
        where
            $($Me: Metric + 'static,)*
            $(TrainOut<M>: Adaptor<$Me::Input>,)*
            $(ValidOut<M>: Adaptor<$Me::Input>,)*
        {
            #[allow(non_snake_case)]
            fn register(self, builder: SupervisedTraining<M>) -> SupervisedTraining<M> {
                let ($($Me,)*) = self;
                $(let builder = builder.metric_train($Me.clone()).metric_valid($Me);)*
                builder
            }
        }
    };
}

registration_for_tuple!(M1);
registration_for_tuple!(M1, M2);
registration_for_tuple!(M1, M2, M3);
registration_for_tuple!(M1, M2, M3, M4);
registration_for_tuple!(M1, M2, M3, M4, M5);
registration_for_tuple!(M1, M2, M3, M4, M5, M6);
