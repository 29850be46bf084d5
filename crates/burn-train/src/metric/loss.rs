//! [`LossMetric`]: the mean loss.

use std::sync::Arc;

use burn_tensor::{Tensor, TensorReadError};

use super::state::{FormatOptions, NumericMetricState};
use super::{
    Metric, MetricAttributes, MetricMetadata, MetricName, Numeric, NumericAttributes, NumericEntry,
    SerializedEntry,
};

/// The input of [`LossMetric`]: a batch's loss.
#[derive(Clone, Debug)]
pub struct LossInput {
    /// The loss: one value, or one per item (their mean is taken).
    pub tensor: Tensor<1>,
}

impl LossInput {
    /// Wraps a loss tensor.
    pub fn new(tensor: Tensor<1>) -> Self {
        Self { tensor }
    }
}

/// The loss of each batch, and its epoch mean weighted by batch size.
///
/// The batch size is the loss tensor's length when it holds one loss per
/// item; a reduced (one-element) loss counts as one item per batch unless
/// the progress says how many items the batch held.
#[derive(Clone, Debug)]
pub struct LossMetric {
    name: MetricName,
    state: NumericMetricState,
    last_processed: usize,
}

impl Default for LossMetric {
    fn default() -> Self {
        Self::new()
    }
}

impl LossMetric {
    /// A loss metric, named `"Loss"`.
    pub fn new() -> Self {
        Self {
            name: Arc::new("Loss".into()),
            state: NumericMetricState::new(),
            last_processed: 0,
        }
    }
}

/// Items processed since the previous update of the pass, from the
/// progress (at least 1: a custom loop may report no progress).
pub(crate) fn batch_items(last_processed: &mut usize, metadata: &MetricMetadata) -> usize {
    let processed = metadata.progress.items_processed;
    let items = processed.saturating_sub(*last_processed);
    *last_processed = processed;
    items.max(1)
}

impl Metric for LossMetric {
    type Input = LossInput;

    fn name(&self) -> MetricName {
        self.name.clone()
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: None,
            higher_is_better: false,
        }
        .into()
    }

    fn update(
        &mut self,
        item: &LossInput,
        metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let values: Vec<f64> = item.tensor.try_to_data()?.iter::<f64>().collect();
        let progress_items = batch_items(&mut self.last_processed, metadata);
        let (loss, items) = match values.len() {
            0 => (f64::NAN, 0),
            1 => (values[0], progress_items),
            n => (values.iter().sum::<f64>() / n as f64, n),
        };
        self.state.update(loss, items);
        Ok(self
            .state
            .compute_update(FormatOptions::new(self.name()).precision(4)))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self
            .state
            .compute_final(FormatOptions::new(self.name()).precision(4)))
    }

    fn clear(&mut self) {
        self.state.reset();
        self.last_processed = 0;
    }
}

impl Numeric for LossMetric {
    fn value(&self) -> Option<NumericEntry> {
        Some(self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        Some(self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}
