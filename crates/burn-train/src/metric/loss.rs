//! [`LossMetric`]: the mean loss.

use std::string::String;

use super::{LossInput, Metric, MetricEntry, MetricMetadata, Numeric, NumericState};

/// The loss of each batch, and its mean over the epoch weighted by batch
/// size (a batch's size is its share of the epoch's items).
#[derive(Clone, Debug, Default)]
pub struct LossMetric {
    state: NumericState,
    last_processed: usize,
}

impl LossMetric {
    /// A loss metric.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The batch size of an update: items processed since the previous update
/// of the epoch (1 when the metadata carries no progress, as in a custom
/// loop, so the epoch value is then the mean over batches).
pub(crate) fn batch_size(last_processed: &mut usize, metadata: &MetricMetadata) -> usize {
    let processed = metadata.progress.items_processed;
    let size = processed.saturating_sub(*last_processed);
    *last_processed = processed;
    size.max(1)
}

impl Metric for LossMetric {
    type Input = LossInput;

    fn name(&self) -> String {
        "Loss".into()
    }

    fn update(&mut self, item: &LossInput, metadata: &MetricMetadata) -> MetricEntry {
        let loss = item.loss.to_data().iter::<f64>().sum::<f64>();
        let size = batch_size(&mut self.last_processed, metadata);
        self.state.update(&self.name(), loss, size, "")
    }

    fn clear(&mut self) {
        self.state.reset();
        self.last_processed = 0;
    }
}

impl Numeric for LossMetric {
    fn value(&self) -> f64 {
        self.state.value()
    }

    fn running_value(&self) -> f64 {
        self.state.running_value()
    }
}
