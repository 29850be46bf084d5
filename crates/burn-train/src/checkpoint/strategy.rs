//! When checkpoints are saved and deleted: [`CheckpointingStrategy`] and
//! the strategies that ship.

use std::boxed::Box;
use std::collections::BTreeSet;
use std::vec::Vec;

use crate::metric::store::{Aggregate, Direction, EventStoreClient, Split};
use crate::metric::{Metric, MetricName};

/// What to do with the checkpoints after an epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointingAction {
    /// Delete the checkpoint of this epoch.
    Delete(usize),
    /// Save the epoch that just ended.
    Save,
}

/// Decides after each epoch what to save and what to delete.
pub trait CheckpointingStrategy: Send {
    /// The actions after `epoch`; `collector` holds the run's metric values.
    fn checkpointing(
        &mut self,
        epoch: usize,
        collector: &EventStoreClient,
    ) -> Vec<CheckpointingAction>;
}

impl CheckpointingStrategy for Box<dyn CheckpointingStrategy> {
    fn checkpointing(
        &mut self,
        epoch: usize,
        collector: &EventStoreClient,
    ) -> Vec<CheckpointingAction> {
        (**self).checkpointing(epoch, collector)
    }
}

/// Saves every epoch and keeps the `n` most recent: enough to resume after
/// a crash with little disk.
#[derive(Clone, Debug)]
pub struct KeepLastNCheckpoints {
    num_keep: usize,
}

impl KeepLastNCheckpoints {
    /// Keeps the `num_keep` most recent epochs (at least one).
    pub fn new(num_keep: usize) -> Self {
        Self {
            num_keep: num_keep.max(1),
        }
    }
}

impl CheckpointingStrategy for KeepLastNCheckpoints {
    fn checkpointing(&mut self, epoch: usize, _: &EventStoreClient) -> Vec<CheckpointingAction> {
        let mut actions = std::vec![CheckpointingAction::Save];
        if epoch > self.num_keep {
            actions.push(CheckpointingAction::Delete(epoch - self.num_keep));
        }
        actions
    }
}

/// Keeps only the best epoch of a metric: saves an epoch that is the best
/// so far and deletes the one it replaces. The metric must be registered
/// for `split`; without values, every epoch counts as the best.
#[derive(Clone, Debug)]
pub struct MetricCheckpointingStrategy {
    name: MetricName,
    aggregate: Aggregate,
    direction: Direction,
    split: Split,
    kept: Option<usize>,
}

impl MetricCheckpointingStrategy {
    /// Keeps the best epoch of `metric`'s `aggregate` on `split`.
    pub fn new<M: Metric>(
        metric: &M,
        aggregate: Aggregate,
        direction: Direction,
        split: Split,
    ) -> Self {
        Self {
            name: metric.name(),
            aggregate,
            direction,
            split,
            kept: None,
        }
    }
}

impl CheckpointingStrategy for MetricCheckpointingStrategy {
    fn checkpointing(
        &mut self,
        epoch: usize,
        store: &EventStoreClient,
    ) -> Vec<CheckpointingAction> {
        let best = store
            .find_epoch(&self.name, self.aggregate, self.direction, &self.split)
            .unwrap_or(epoch);
        let mut actions = Vec::new();
        if let Some(kept) = self.kept
            && kept != best
        {
            actions.push(CheckpointingAction::Delete(kept));
        }
        if best == epoch {
            actions.push(CheckpointingAction::Save);
        }
        self.kept = Some(best);
        actions
    }
}

/// Several strategies at once: an epoch is saved when any strategy saves
/// it, and deleted only once every strategy has asked for its deletion (a
/// strategy that did not save an epoch counts as asking).
pub struct ComposedCheckpointingStrategy {
    strategies: Vec<Box<dyn CheckpointingStrategy>>,
    /// The epochs each strategy asked to delete, not deleted yet.
    pending: Vec<BTreeSet<usize>>,
}

impl core::fmt::Debug for ComposedCheckpointingStrategy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ComposedCheckpointingStrategy")
            .field("strategies", &self.strategies.len())
            .finish()
    }
}

/// Builds a [`ComposedCheckpointingStrategy`].
#[derive(Default)]
pub struct ComposedCheckpointingStrategyBuilder {
    strategies: Vec<Box<dyn CheckpointingStrategy>>,
}

impl ComposedCheckpointingStrategyBuilder {
    /// Adds `strategy`.
    #[allow(clippy::should_implement_trait)]
    pub fn add<S: CheckpointingStrategy + 'static>(mut self, strategy: S) -> Self {
        self.strategies.push(Box::new(strategy));
        self
    }

    /// The composed strategy.
    pub fn build(self) -> ComposedCheckpointingStrategy {
        ComposedCheckpointingStrategy {
            pending: self.strategies.iter().map(|_| BTreeSet::new()).collect(),
            strategies: self.strategies,
        }
    }
}

impl ComposedCheckpointingStrategy {
    /// A builder.
    pub fn builder() -> ComposedCheckpointingStrategyBuilder {
        ComposedCheckpointingStrategyBuilder::default()
    }
}

impl CheckpointingStrategy for ComposedCheckpointingStrategy {
    fn checkpointing(
        &mut self,
        epoch: usize,
        collector: &EventStoreClient,
    ) -> Vec<CheckpointingAction> {
        let mut save = false;
        for (strategy, pending) in self.strategies.iter_mut().zip(&mut self.pending) {
            let mut saves = false;
            for action in strategy.checkpointing(epoch, collector) {
                match action {
                    CheckpointingAction::Save => saves = true,
                    CheckpointingAction::Delete(old) => {
                        pending.insert(old);
                    }
                }
            }
            // An epoch a strategy does not save is one it does not need:
            // it may go once the others agree.
            if !saves {
                pending.insert(epoch);
            }
            save |= saves;
        }
        let agreed: Vec<usize> = match self.pending.split_first() {
            Some((first, rest)) => first
                .iter()
                .copied()
                .filter(|old| rest.iter().all(|set| set.contains(old)))
                .collect(),
            None => Vec::new(),
        };
        let mut actions: Vec<CheckpointingAction> = Vec::new();
        for old in agreed {
            for set in &mut self.pending {
                set.remove(&old);
            }
            actions.push(CheckpointingAction::Delete(old));
        }
        if save {
            actions.push(CheckpointingAction::Save);
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logger::InMemoryMetricLogger;
    use crate::metric::store::{
        Event, EventStore, LogEventStore, MetricsUpdate, NumericMetricUpdate,
    };
    use crate::metric::{LossMetric, MetricEntry, MetricId, NumericEntry, SerializedEntry};

    fn store_with_losses(losses: &[f64]) -> EventStoreClient {
        let mut store = LogEventStore::default();
        store.register_logger(InMemoryMetricLogger::new());
        for (i, &loss) in losses.iter().enumerate() {
            store.add_event(Event::StartSplit(i + 1), Split::Valid);
            let entry = MetricEntry::new(
                MetricId::new(Arc::new("Loss".into())),
                SerializedEntry::new(String::new(), NumericEntry::Final(loss).serialize()),
            );
            let update = NumericMetricUpdate::new(entry, None, None);
            store.add_event(
                Event::MetricsUpdate(MetricsUpdate::new(Vec::new(), std::vec![update])),
                Split::Valid,
            );
        }
        EventStoreClient::new(store)
    }

    fn metric() -> MetricCheckpointingStrategy {
        MetricCheckpointingStrategy::new(
            &LossMetric::new(),
            Aggregate::Mean,
            Direction::Lowest,
            Split::Valid,
        )
    }

    use CheckpointingAction::{Delete, Save};

    #[test]
    fn keep_last_n_deletes_the_epoch_n_back() {
        let store = store_with_losses(&[]);
        let mut strategy = KeepLastNCheckpoints::new(2);
        assert_eq!(strategy.checkpointing(1, &store), [Save]);
        assert_eq!(strategy.checkpointing(2, &store), [Save]);
        assert_eq!(strategy.checkpointing(3, &store), [Save, Delete(1)]);
    }

    #[test]
    fn the_metric_strategy_keeps_the_best_epoch_only() {
        // Losses 0.5, 0.3, 0.4: epoch 2 replaces 1, epoch 3 is not kept.
        let mut strategy = metric();
        assert_eq!(
            strategy.checkpointing(1, &store_with_losses(&[0.5])),
            [Save]
        );
        assert_eq!(
            strategy.checkpointing(2, &store_with_losses(&[0.5, 0.3])),
            [Delete(1), Save]
        );
        assert_eq!(
            strategy.checkpointing(3, &store_with_losses(&[0.5, 0.3, 0.4])),
            []
        );
    }

    #[test]
    fn composed_deletes_what_no_strategy_needs() {
        // Keep the last one and the best: losses 0.5, 0.3, 0.4, 0.6.
        let mut strategy = ComposedCheckpointingStrategy::builder()
            .add(KeepLastNCheckpoints::new(1))
            .add(metric())
            .build();
        let losses = [0.5, 0.3, 0.4, 0.6];
        let mut actions = Vec::new();
        for epoch in 1..=4 {
            actions.push(strategy.checkpointing(epoch, &store_with_losses(&losses[..epoch])));
        }
        assert_eq!(actions[0], [Save]);
        // Epoch 2 is the best and the last: epoch 1 is needed by neither.
        assert_eq!(actions[1], [Delete(1), Save]);
        // Epoch 3 is the last; 2 stays as the best.
        assert_eq!(actions[2], [Save]);
        // Epoch 4 is the last; 3 is neither.
        assert_eq!(actions[3], [Delete(3), Save]);
    }
}
