//! Evaluation: running a trained model over named test sets with metrics,
//! [`EvaluatorBuilder`] and [`Evaluator`].

use std::boxed::Box;
use std::collections::BTreeSet;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use burn_core::data::dataloader::DataLoader;
use burn_core::module::{AutodiffModule, Module};

use crate::learner::{
    ApplicationLoggerInstaller, FileApplicationLoggerInstaller, InferenceStep, Interrupter,
    Interruption, LearnerSummaryConfig, TrainingError,
};
use crate::logger::{EvaluationProgressLogger, FileMetricLogger};
use crate::metric::processor::{
    AsyncProcessorEvaluation, EvaluationItem, EvaluatorEvent, EventProcessorEvaluation,
    FullEventProcessorEvaluation, MetricsEvaluation,
};
use crate::metric::store::{EventStoreClient, LogEventStore};
use crate::metric::{Adaptor, Metric, Numeric};
use crate::renderer::{EvaluationName, MetricsRenderer, default_renderer};

/// The types an evaluation works with, gathered for inference.
pub trait EvaluatorComponentTypes {
    /// The evaluated model.
    type Model: Module + InferenceStep + 'static;
}

/// Names the model type of an [`EvaluatorBuilder`].
pub struct EvaluatorComponentTypesMarker<M> {
    _model: PhantomData<fn() -> M>,
}

impl<M: Module + InferenceStep + 'static> EvaluatorComponentTypes
    for EvaluatorComponentTypesMarker<M>
{
    type Model = M;
}

type TestInput<EC> = <<EC as EvaluatorComponentTypes>::Model as InferenceStep>::Input;
type TestOutput<EC> = <<EC as EvaluatorComponentTypes>::Model as InferenceStep>::Output;

/// What an evaluation returns.
pub struct EvaluationResult {
    /// The renderer, to go on showing on the same screen.
    pub renderer: Box<dyn MetricsRenderer>,
    /// The stop that ended the evaluation early, without an error.
    pub interrupted: Option<Interruption>,
    /// The error that ended the evaluation early.
    pub error: Option<Arc<TrainingError>>,
}

impl core::fmt::Debug for EvaluationResult {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EvaluationResult")
            .field("interrupted", &self.interrupted)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// Configures an [`Evaluator`]: metrics, renderer, summary, progress
/// logger. The type parameter is inferred from the model given to
/// [`build`](Self::build).
pub struct EvaluatorBuilder<EC: EvaluatorComponentTypes> {
    directory: PathBuf,
    metrics: MetricsEvaluation<TestOutput<EC>>,
    summary_metrics: BTreeSet<String>,
    renderer: Option<Box<dyn MetricsRenderer>>,
    interrupter: Interrupter,
    summary: bool,
    progress_logger: Option<Box<dyn EvaluationProgressLogger>>,
    application_logger: Option<Box<dyn ApplicationLoggerInstaller>>,
}

impl<M: Module + InferenceStep + 'static> EvaluatorBuilder<EvaluatorComponentTypesMarker<M>> {
    /// An evaluation writing its logs under `directory` (`test/{name}/`),
    /// and `log` records to `directory/evaluation.log`.
    pub fn new(directory: impl AsRef<Path>) -> Self {
        let directory = directory.as_ref().to_path_buf();
        let application_logger: Box<dyn ApplicationLoggerInstaller> = Box::new(
            FileApplicationLoggerInstaller::new(directory.join("evaluation.log")),
        );
        Self {
            directory,
            metrics: MetricsEvaluation::default(),
            summary_metrics: BTreeSet::new(),
            renderer: None,
            interrupter: Interrupter::new(),
            summary: false,
            progress_logger: None,
            application_logger: Some(application_logger),
        }
    }
}

impl<EC: EvaluatorComponentTypes> EvaluatorBuilder<EC> {
    /// Registers numeric metrics: a tuple of up to six.
    pub fn metrics<Me: EvalMetricRegistration<EC>>(self, metrics: Me) -> Self {
        metrics.register(self)
    }

    /// Registers text metrics: a tuple of up to six.
    pub fn metrics_text<Me: EvalTextMetricRegistration<EC>>(self, metrics: Me) -> Self {
        metrics.register(self)
    }

    /// Plots, logs and aggregates `metric`.
    pub fn metric_numeric<Me>(mut self, metric: Me) -> Self
    where
        Me: Metric + Numeric + 'static,
        TestOutput<EC>: Adaptor<Me::Input>,
    {
        self.summary_metrics.insert(metric.name().to_string());
        self.metrics.test.register_numeric(metric);
        self
    }

    /// Shows `metric` as text.
    pub fn metric<Me>(mut self, metric: Me) -> Self
    where
        Me: Metric + 'static,
        TestOutput<EC>: Adaptor<Me::Input>,
    {
        self.metrics.test.register(metric);
        self
    }

    /// Shows progress with `renderer` (a training run's, to go on with its
    /// screen) instead of the default.
    pub fn renderer(mut self, renderer: Box<dyn MetricsRenderer + 'static>) -> Self {
        self.renderer = Some(renderer);
        self
    }

    /// Shows a summary of the numeric metrics at the end.
    pub fn summary(mut self) -> Self {
        self.summary = true;
        self
    }

    /// Also reports the progress to `logger`.
    pub fn with_progress_logger<PL: EvaluationProgressLogger + 'static>(
        mut self,
        logger: PL,
    ) -> Self {
        self.progress_logger = Some(Box::new(logger));
        self
    }

    /// Installs `logger` for the `log` records instead of the default file
    /// (`None`: leave logging as the program set it up).
    pub fn with_application_logger(
        mut self,
        logger: Option<Box<dyn ApplicationLoggerInstaller>>,
    ) -> Self {
        self.application_logger = logger;
        self
    }

    /// The evaluator of `model`.
    pub fn build(self, model: EC::Model) -> Evaluator<EC> {
        if let Some(installer) = &self.application_logger
            && let Err(error) = installer.install()
        {
            log::warn!("the evaluation logger was not installed: {error}");
        }
        let renderer = self
            .renderer
            .unwrap_or_else(|| default_renderer(self.interrupter.clone(), None));
        let mut store = LogEventStore::default();
        store.register_logger(FileMetricLogger::new_eval(&self.directory));
        let store = Arc::new(EventStoreClient::new(store));
        let processor =
            FullEventProcessorEvaluation::new(self.metrics, renderer, store, self.progress_logger);
        Evaluator {
            model,
            interrupter: self.interrupter,
            processor: AsyncProcessorEvaluation::new(processor),
            summary: self.summary.then(|| LearnerSummaryConfig {
                directory: self.directory,
                metrics: self.summary_metrics.into_iter().collect(),
            }),
        }
    }
}

/// Runs a model over named test sets and computes the metrics of each.
pub struct Evaluator<EC: EvaluatorComponentTypes> {
    model: EC::Model,
    interrupter: Interrupter,
    processor: AsyncProcessorEvaluation<FullEventProcessorEvaluation<TestOutput<EC>>>,
    /// The summary to show at the end, if asked for.
    pub summary: Option<LearnerSummaryConfig>,
}

impl<EC: EvaluatorComponentTypes> Evaluator<EC> {
    /// Evaluates on `dataloader`, under `name`.
    pub fn eval<S: core::fmt::Display>(
        self,
        name: S,
        dataloader: Arc<dyn DataLoader<TestInput<EC>>>,
    ) -> EvaluationResult {
        self.eval_all([(name, dataloader)])
    }

    /// Evaluates on each named test set in turn.
    ///
    /// The model runs as a [`valid`](burn_core::module::AutodiffModule::valid) snapshot on its device;
    /// each loader is moved there.
    pub fn eval_all<S: core::fmt::Display>(
        mut self,
        splits: impl IntoIterator<Item = (S, Arc<dyn DataLoader<TestInput<EC>>>)>,
    ) -> EvaluationResult {
        let splits: Vec<_> = splits.into_iter().collect();
        let interrupter = self.interrupter.clone();
        let model = self.model.valid();
        let device = model.devices().into_iter().next();
        interrupter.fail_on_error(self.processor.process_test(EvaluatorEvent::Start {
            total_tests: splits.len(),
        }));
        for (name, loader) in splits {
            let loader = match &device {
                Some(device) => loader.to_device(&device.clone().without_autodiff()),
                None => loader,
            };
            let name = EvaluationName::new(name);
            let mut iterator = loader.iter();
            interrupter.fail_on_error(
                self.processor
                    .process_test(EvaluatorEvent::StartTest(name.clone(), iterator.progress())),
            );
            let mut iteration = 0;
            while !interrupter.should_stop() {
                let Some(batch) = interrupter.batch(iterator.next()) else {
                    break;
                };
                iteration += 1;
                let output = InferenceStep::step(&model, batch);
                let item = EvaluationItem::new(output, iterator.progress(), Some(iteration));
                interrupter.fail_on_error(
                    self.processor
                        .process_test(EvaluatorEvent::ProcessedItem(name.clone(), item)),
                );
            }
            interrupter.fail_on_error(self.processor.process_test(EvaluatorEvent::EndTest {
                progress: iterator.progress(),
            }));
            if interrupter.should_stop() {
                break;
            }
        }
        interrupter.fail_on_error(self.processor.flush());
        let summary = self.summary.take().and_then(|config| config.init().ok());
        interrupter.fail_on_error(self.processor.process_test(EvaluatorEvent::End(summary)));
        interrupter.fail_on_error(self.processor.flush());
        EvaluationResult {
            renderer: self.processor.renderer(),
            interrupted: interrupter.interruption(),
            error: interrupter.error(),
        }
    }
}

/// Registers a tuple of numeric metrics with an [`EvaluatorBuilder`].
pub trait EvalMetricRegistration<EC: EvaluatorComponentTypes>: Sized {
    /// Registers them.
    fn register(self, builder: EvaluatorBuilder<EC>) -> EvaluatorBuilder<EC>;
}

/// Registers a tuple of text metrics with an [`EvaluatorBuilder`].
pub trait EvalTextMetricRegistration<EC: EvaluatorComponentTypes>: Sized {
    /// Registers them.
    fn register(self, builder: EvaluatorBuilder<EC>) -> EvaluatorBuilder<EC>;
}

macro_rules! eval_registration_for_tuple {
    ($($Me:ident),*) => {
        impl<$($Me,)* EC: EvaluatorComponentTypes> EvalMetricRegistration<EC> for ($($Me,)*)
        where
            $($Me: Metric + Numeric + 'static,)*
            $(TestOutput<EC>: Adaptor<$Me::Input>,)*
        {
            #[allow(non_snake_case)]
            fn register(self, builder: EvaluatorBuilder<EC>) -> EvaluatorBuilder<EC> {
                let ($($Me,)*) = self;
                $(let builder = builder.metric_numeric($Me);)*
                builder
            }
        }

        impl<$($Me,)* EC: EvaluatorComponentTypes> EvalTextMetricRegistration<EC> for ($($Me,)*)
        where
            $($Me: Metric + 'static,)*
            $(TestOutput<EC>: Adaptor<$Me::Input>,)*
        {
            #[allow(non_snake_case)]
            fn register(self, builder: EvaluatorBuilder<EC>) -> EvaluatorBuilder<EC> {
                let ($($Me,)*) = self;
                $(let builder = builder.metric($Me);)*
                builder
            }
        }
    };
}

eval_registration_for_tuple!(M1);
eval_registration_for_tuple!(M1, M2);
eval_registration_for_tuple!(M1, M2, M3);
eval_registration_for_tuple!(M1, M2, M3, M4);
eval_registration_for_tuple!(M1, M2, M3, M4, M5);
eval_registration_for_tuple!(M1, M2, M3, M4, M5, M6);
