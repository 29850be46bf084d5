//! The metrics of a run, per split, behind one object-safe trait so the
//! processing around them is written once.

use std::boxed::Box;
use std::sync::Arc;
use std::vec::Vec;

use burn_tensor::TensorReadError;

use super::MetricError;
use crate::metric::store::{MetricsUpdate, NumericMetricUpdate, Split};
use crate::metric::{
    Adaptor, Metric, MetricDefinition, MetricEntry, MetricId, MetricMetadata, Numeric,
};

/// One metric's update, text or numeric.
pub(crate) enum Update {
    Text(MetricEntry),
    Numeric(NumericMetricUpdate),
}

/// A registered metric, fed with outputs of type `T`.
pub(crate) trait MetricUpdater<T>: Send + Sync {
    fn definition(&self) -> MetricDefinition;
    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> Result<Update, TensorReadError>;
    /// The epoch value, then the metric cleared for the next pass.
    fn end(&mut self) -> Result<Update, TensorReadError>;
}

/// A metric shown as text.
struct Text<M> {
    id: MetricId,
    metric: M,
}

/// A metric that is also plotted and searched.
struct Numbers<M> {
    id: MetricId,
    metric: M,
}

fn id_of<M: Metric>(metric: &M) -> MetricId {
    MetricId::new(Arc::clone(&metric.name()))
}

impl<T, M> MetricUpdater<T> for Text<M>
where
    M: Metric,
    T: Adaptor<M::Input>,
{
    fn definition(&self) -> MetricDefinition {
        MetricDefinition::new(self.id.clone(), &self.metric)
    }

    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> Result<Update, TensorReadError> {
        let entry = self.metric.update(&item.adapt(), metadata)?;
        Ok(Update::Text(MetricEntry::new(self.id.clone(), entry)))
    }

    fn end(&mut self) -> Result<Update, TensorReadError> {
        let entry = self.metric.compute();
        self.metric.clear();
        Ok(Update::Text(MetricEntry::new(self.id.clone(), entry?)))
    }
}

impl<T, M> MetricUpdater<T> for Numbers<M>
where
    M: Metric + Numeric,
    T: Adaptor<M::Input>,
{
    fn definition(&self) -> MetricDefinition {
        MetricDefinition::new(self.id.clone(), &self.metric)
    }

    fn update(&mut self, item: &T, metadata: &MetricMetadata) -> Result<Update, TensorReadError> {
        let entry = self.metric.update(&item.adapt(), metadata)?;
        Ok(Update::Numeric(NumericMetricUpdate::new(
            MetricEntry::new(self.id.clone(), entry),
            self.metric.value(),
            self.metric.running_value(),
        )))
    }

    fn end(&mut self) -> Result<Update, TensorReadError> {
        let entry = self.metric.compute();
        let value = self.metric.final_value();
        self.metric.clear();
        Ok(Update::Numeric(NumericMetricUpdate::new(
            MetricEntry::new(self.id.clone(), entry?),
            Some(value.clone()),
            Some(value),
        )))
    }
}

/// The metrics of one split.
pub(crate) struct SplitMetrics<T> {
    list: Vec<Box<dyn MetricUpdater<T>>>,
}

impl<T> Default for SplitMetrics<T> {
    fn default() -> Self {
        Self { list: Vec::new() }
    }
}

/// Gathers updates into one [`MetricsUpdate`] and the failures apart.
fn gather(
    results: impl Iterator<Item = (MetricDefinition, Result<Update, TensorReadError>)>,
    split: &Split,
) -> (MetricsUpdate, Vec<MetricError>) {
    let mut update = MetricsUpdate::default();
    let mut failures = Vec::new();
    for (definition, result) in results {
        match result {
            Ok(Update::Text(entry)) => update.entries.push(entry),
            Ok(Update::Numeric(numeric)) => update.entries_numeric.push(numeric),
            Err(source) => failures.push(MetricError {
                metric: definition.name,
                split: split.clone(),
                source,
            }),
        }
    }
    (update, failures)
}

impl<T: 'static> SplitMetrics<T> {
    pub(crate) fn register<M>(&mut self, metric: M)
    where
        M: Metric + 'static,
        T: Adaptor<M::Input>,
    {
        let id = id_of(&metric);
        self.list.push(Box::new(Text { id, metric }));
    }

    pub(crate) fn register_numeric<M>(&mut self, metric: M)
    where
        M: Metric + Numeric + 'static,
        T: Adaptor<M::Input>,
    {
        let id = id_of(&metric);
        self.list.push(Box::new(Numbers { id, metric }));
    }

    pub(crate) fn definitions(&self) -> impl Iterator<Item = MetricDefinition> + '_ {
        self.list.iter().map(|m| m.definition())
    }

    pub(crate) fn update(
        &mut self,
        item: &T,
        metadata: &MetricMetadata,
        split: &Split,
    ) -> (MetricsUpdate, Vec<MetricError>) {
        gather(
            self.list
                .iter_mut()
                .map(|m| (m.definition(), m.update(item, metadata))),
            split,
        )
    }

    pub(crate) fn end(&mut self, split: &Split) -> (MetricsUpdate, Vec<MetricError>) {
        gather(
            self.list.iter_mut().map(|m| (m.definition(), m.end())),
            split,
        )
    }
}

/// The training and validation metrics of a run.
pub(crate) struct MetricsTraining<T, V> {
    pub(crate) train: SplitMetrics<T>,
    pub(crate) valid: SplitMetrics<V>,
}

impl<T, V> Default for MetricsTraining<T, V> {
    fn default() -> Self {
        Self {
            train: SplitMetrics::default(),
            valid: SplitMetrics::default(),
        }
    }
}

impl<T: 'static, V: 'static> MetricsTraining<T, V> {
    /// Every metric once, in registration order (training first).
    pub(crate) fn metric_definitions(&self) -> Vec<MetricDefinition> {
        let mut definitions: Vec<MetricDefinition> = Vec::new();
        for definition in self.train.definitions().chain(self.valid.definitions()) {
            if !definitions
                .iter()
                .any(|d| d.metric_id == definition.metric_id)
            {
                definitions.push(definition);
            }
        }
        definitions
    }
}

/// The metrics of an evaluation.
pub(crate) struct MetricsEvaluation<T> {
    pub(crate) test: SplitMetrics<T>,
}

impl<T> Default for MetricsEvaluation<T> {
    fn default() -> Self {
        Self {
            test: SplitMetrics::default(),
        }
    }
}
