//! The processors a run uses: metrics, renderer, store and progress logger.
//!
//! Only the metric updates are generic over the output types; everything
//! around them (the store, the renderer, the progress logger) is reached
//! through the non-generic helpers at the bottom, compiled once here
//! rather than in every program that trains a model.

use std::boxed::Box;
use std::sync::Arc;
use std::vec::Vec;

use super::{
    EvaluatorEvent, EventProcessorError, EventProcessorEvaluation, EventProcessorTraining,
    ItemLazy, LearnerEvent, MetricError, MetricsEvaluation, MetricsTraining,
};
use crate::learner::LearnerSummary;
use crate::logger::{EvaluationProgressLogger, TrainingProgressLogger};
use crate::metric::store::{EpochSummary, Event, EventStoreClient, MetricsUpdate, Split};
use crate::metric::{MetricDefinition, MetricMetadata};
use crate::renderer::{EvaluationName, MetricState, MetricsRenderer};
use burn_core::data::dataloader::Progress;

/// Computes the metrics of training and validation, records them in the
/// store and shows them with the renderer.
pub(crate) struct FullEventProcessorTraining<T, V> {
    metrics: MetricsTraining<T, V>,
    core: TrainingCore,
}

/// Everything of the training processor that does not depend on the
/// output types.
struct TrainingCore {
    renderer: Box<dyn MetricsRenderer>,
    store: Arc<EventStoreClient>,
    progress_logger: Option<Box<dyn TrainingProgressLogger>>,
}

impl<T, V> FullEventProcessorTraining<T, V> {
    pub(crate) fn new(
        metrics: MetricsTraining<T, V>,
        renderer: Box<dyn MetricsRenderer>,
        store: Arc<EventStoreClient>,
        progress_logger: Option<Box<dyn TrainingProgressLogger>>,
    ) -> Self {
        Self {
            metrics,
            core: TrainingCore {
                renderer,
                store,
                progress_logger,
            },
        }
    }
}

impl<T: ItemLazy + 'static, V: ItemLazy + 'static>
    EventProcessorTraining<LearnerEvent<T>, LearnerEvent<V>> for FullEventProcessorTraining<T, V>
{
    fn process_train(&mut self, event: LearnerEvent<T>) -> Result<(), EventProcessorError> {
        let failures = match event {
            LearnerEvent::Start {
                total_epochs,
                starting_epoch,
                label,
            } => {
                let definitions = self.metrics.metric_definitions();
                self.core
                    .start(definitions, total_epochs, starting_epoch, label.as_deref());
                Vec::new()
            }
            LearnerEvent::StartSplit {
                epoch_number,
                progress,
            } => {
                self.core.start_split(Split::Train, epoch_number, &progress);
                Vec::new()
            }
            LearnerEvent::ProcessedItem(item) => {
                let item = item
                    .sync()
                    .map_err(|err| EventProcessorError::sync(Split::Train, err))?;
                let metadata = MetricMetadata {
                    progress: item.progress.clone(),
                    iteration: item.iteration,
                    lr: item.lr,
                };
                let (update, failures) =
                    self.metrics
                        .train
                        .update(&item.item, &metadata, &Split::Train);
                self.core.item(Split::Train, update, &item.progress);
                failures
            }
            LearnerEvent::EndSplit { epoch, progress } => {
                let (update, failures) = self.metrics.train.end(&Split::Train);
                self.core.end_split(Split::Train, epoch, update, &progress);
                failures
            }
            LearnerEvent::EndEpoch(epoch) => {
                self.core.end_epoch(epoch);
                Vec::new()
            }
            LearnerEvent::End(summary) => {
                self.core.end(summary);
                Vec::new()
            }
        };
        EventProcessorError::from_errors(failures)
    }

    fn process_valid(&mut self, event: LearnerEvent<V>) -> Result<(), EventProcessorError> {
        let failures = match event {
            LearnerEvent::StartSplit {
                epoch_number,
                progress,
            } => {
                self.core.start_split(Split::Valid, epoch_number, &progress);
                Vec::new()
            }
            LearnerEvent::ProcessedItem(item) => {
                let item = item
                    .sync()
                    .map_err(|err| EventProcessorError::sync(Split::Valid, err))?;
                let metadata = MetricMetadata {
                    progress: item.progress.clone(),
                    iteration: item.iteration,
                    lr: item.lr,
                };
                let (update, failures) =
                    self.metrics
                        .valid
                        .update(&item.item, &metadata, &Split::Valid);
                self.core.item(Split::Valid, update, &item.progress);
                failures
            }
            LearnerEvent::EndSplit { epoch, progress } => {
                let (update, failures) = self.metrics.valid.end(&Split::Valid);
                self.core.end_split(Split::Valid, epoch, update, &progress);
                failures
            }
            // The run's start, epochs and end are training events.
            LearnerEvent::Start { .. } | LearnerEvent::EndEpoch(_) | LearnerEvent::End(_) => {
                Vec::new()
            }
        };
        EventProcessorError::from_errors(failures)
    }

    fn renderer(self) -> Box<dyn MetricsRenderer> {
        self.core.renderer
    }
}

/// Hands a metrics update to the store and the renderer.
fn publish(
    renderer: &mut dyn MetricsRenderer,
    store: &EventStoreClient,
    split: &Split,
    update: MetricsUpdate,
) {
    let event = Event::MetricsUpdate(update.clone());
    match split {
        Split::Train => store.add_event_train(event),
        Split::Valid => store.add_event_valid(event),
        Split::Test(tag) => store.add_event_test(event, tag.clone().unwrap_or_default()),
    }
    for entry in update.entries {
        let state = MetricState::Generic(entry);
        match split {
            Split::Train => renderer.update_train(state),
            Split::Valid => renderer.update_valid(state),
            Split::Test(tag) => renderer.update_test(test_name(tag), state),
        }
    }
    for numeric in update.entries_numeric {
        let state = MetricState::Numeric(numeric.entry, numeric.numeric_entry);
        match split {
            Split::Train => renderer.update_train(state),
            Split::Valid => renderer.update_valid(state),
            Split::Test(tag) => renderer.update_test(test_name(tag), state),
        }
    }
}

fn test_name(tag: &Option<Arc<std::string::String>>) -> EvaluationName {
    EvaluationName {
        name: tag.clone().unwrap_or_default(),
    }
}

impl TrainingCore {
    fn start(
        &mut self,
        definitions: Vec<MetricDefinition>,
        total_epochs: usize,
        starting_epoch: usize,
        label: Option<&str>,
    ) {
        for definition in &definitions {
            self.renderer.register_metric(definition.clone());
        }
        self.store
            .add_event_train(Event::MetricsInit(definitions.clone()));
        self.store.add_event_valid(Event::MetricsInit(definitions));
        self.renderer
            .start(total_epochs, starting_epoch, None, label);
        if let Some(logger) = &mut self.progress_logger {
            logger.start(total_epochs, starting_epoch, None, label);
        }
    }

    fn start_split(&mut self, split: Split, epoch: usize, progress: &Progress) {
        let name: &'static str = split.clone().into();
        match split {
            Split::Valid => self.store.add_event_valid(Event::StartSplit(epoch)),
            _ => self.store.add_event_train(Event::StartSplit(epoch)),
        }
        self.renderer.start_split(name, progress);
        if let Some(logger) = &mut self.progress_logger {
            logger.start_split(name, progress);
        }
    }

    fn item(&mut self, split: Split, update: MetricsUpdate, progress: &Progress) {
        publish(self.renderer.as_mut(), &self.store, &split, update);
        self.renderer.update_split(progress);
        self.renderer.log_event_training("Iteration".into());
        if let Some(logger) = &mut self.progress_logger {
            logger.update_split(progress);
            logger.log_event_training("Iteration".into());
        }
    }

    fn end_split(
        &mut self,
        split: Split,
        epoch: usize,
        update: MetricsUpdate,
        progress: &Progress,
    ) {
        publish(self.renderer.as_mut(), &self.store, &split, update);
        let event = Event::EndEpoch(EpochSummary::new(epoch, split.clone()));
        match split {
            Split::Valid => self.store.add_event_valid(event),
            _ => self.store.add_event_train(event),
        }
        self.renderer.end_split(progress);
        if let Some(logger) = &mut self.progress_logger {
            logger.end_split(progress);
        }
    }

    fn end_epoch(&mut self, epoch: usize) {
        self.renderer.update_epoch(epoch);
        if let Some(logger) = &mut self.progress_logger {
            logger.update_epoch(epoch);
        }
    }

    fn end(&mut self, summary: Option<LearnerSummary>) {
        self.renderer.end();
        if let Some(logger) = &mut self.progress_logger {
            logger.end();
        }
        if let Err(error) = self.renderer.on_train_end(summary) {
            eprintln!("burn-train: the renderer could not end cleanly: {error}");
        }
    }
}

/// Computes the metrics of an evaluation, records them in the store and
/// shows them with the renderer.
pub(crate) struct FullEventProcessorEvaluation<T> {
    metrics: MetricsEvaluation<T>,
    core: EvaluationCore,
}

struct EvaluationCore {
    renderer: Box<dyn MetricsRenderer>,
    store: Arc<EventStoreClient>,
    progress_logger: Option<Box<dyn EvaluationProgressLogger>>,
    /// The test set being evaluated.
    current: Option<EvaluationName>,
}

impl<T> FullEventProcessorEvaluation<T> {
    pub(crate) fn new(
        metrics: MetricsEvaluation<T>,
        renderer: Box<dyn MetricsRenderer>,
        store: Arc<EventStoreClient>,
        progress_logger: Option<Box<dyn EvaluationProgressLogger>>,
    ) -> Self {
        Self {
            metrics,
            core: EvaluationCore {
                renderer,
                store,
                progress_logger,
                current: None,
            },
        }
    }
}

impl<T: ItemLazy + 'static> EventProcessorEvaluation for FullEventProcessorEvaluation<T> {
    type ItemTest = T;

    fn process_test(&mut self, event: EvaluatorEvent<T>) -> Result<(), EventProcessorError> {
        let failures: Vec<MetricError> = match event {
            EvaluatorEvent::Start { total_tests } => {
                let definitions: Vec<_> = self.metrics.test.definitions().collect();
                self.core.start(definitions, total_tests);
                Vec::new()
            }
            EvaluatorEvent::StartTest(name, progress) => {
                self.core.start_test(name, &progress);
                Vec::new()
            }
            EvaluatorEvent::ProcessedItem(name, item) => {
                let split = Split::Test(Some(name.name.clone()));
                let item = item
                    .sync()
                    .map_err(|err| EventProcessorError::sync(split.clone(), err))?;
                let metadata = MetricMetadata {
                    progress: item.progress.clone(),
                    iteration: item.iteration,
                    lr: None,
                };
                let (update, failures) = self.metrics.test.update(&item.item, &metadata, &split);
                self.core.item(&split, update, &item.progress);
                failures
            }
            EvaluatorEvent::EndTest { progress } => {
                let split = Split::Test(self.core.current.as_ref().map(|n| n.name.clone()));
                let (update, failures) = self.metrics.test.end(&split);
                self.core.end_test(&split, update, &progress);
                failures
            }
            EvaluatorEvent::End(summary) => {
                self.core.end(summary);
                Vec::new()
            }
        };
        EventProcessorError::from_errors(failures)
    }

    fn renderer(self) -> Box<dyn MetricsRenderer> {
        self.core.renderer
    }
}

impl EvaluationCore {
    fn start(&mut self, definitions: Vec<MetricDefinition>, total_tests: usize) {
        for definition in &definitions {
            self.renderer.register_metric(definition.clone());
        }
        self.store
            .add_event_test(Event::MetricsInit(definitions), Arc::default());
        self.renderer.start_global_progress(total_tests);
        if let Some(logger) = &mut self.progress_logger {
            logger.start_global_progress(total_tests);
        }
    }

    fn start_test(&mut self, name: EvaluationName, progress: &Progress) {
        self.store
            .add_event_test(Event::StartSplit(1), name.name.clone());
        self.renderer.start_test(name.as_str(), progress);
        if let Some(logger) = &mut self.progress_logger {
            logger.start_test(name.as_str(), progress);
        }
        self.current = Some(name);
    }

    fn item(&mut self, split: &Split, update: MetricsUpdate, progress: &Progress) {
        publish(self.renderer.as_mut(), &self.store, split, update);
        self.renderer.update_test_progress(progress);
        self.renderer.log_event_evaluation("Iteration".into());
        if let Some(logger) = &mut self.progress_logger {
            logger.update_test_progress(progress);
            logger.log_event_evaluation("Iteration".into());
        }
    }

    fn end_test(&mut self, split: &Split, update: MetricsUpdate, progress: &Progress) {
        publish(self.renderer.as_mut(), &self.store, split, update);
        let tag = self
            .current
            .as_ref()
            .map(|name| name.name.clone())
            .unwrap_or_default();
        self.store
            .add_event_test(Event::EndEpoch(EpochSummary::new(1, split.clone())), tag);
        self.renderer.end_test(progress);
        if let Some(logger) = &mut self.progress_logger {
            logger.end_test(progress);
        }
    }

    fn end(&mut self, summary: Option<LearnerSummary>) {
        self.renderer.end_global_progress();
        if let Some(logger) = &mut self.progress_logger {
            logger.end_global_progress();
        }
        if let Err(error) = self.renderer.on_test_end(summary) {
            eprintln!("burn-train: the renderer could not end cleanly: {error}");
        }
    }
}
