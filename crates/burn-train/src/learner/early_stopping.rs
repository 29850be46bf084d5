//! Early stopping: ending training when a metric stops improving.

use std::boxed::Box;

use crate::metric::store::{Aggregate, Direction, EventStoreClient, Split};
use crate::metric::{Metric, MetricName};

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoppingCondition {
    /// Stop once the best epoch value is `n_epochs` epochs old.
    NoImprovementSince {
        /// Epochs without a new best value before stopping.
        n_epochs: usize,
    },
}

/// Decides after each epoch whether training should stop.
pub trait EarlyStoppingStrategy: Send {
    /// Whether to stop after `epoch`; `store` holds the run's metric values.
    fn should_stop(&mut self, epoch: usize, store: &EventStoreClient) -> bool;
}

/// An [`EarlyStoppingStrategy`] that can be cloned behind a box (a run
/// keeps its strategy as `Box<dyn CloneEarlyStoppingStrategy>`).
pub trait CloneEarlyStoppingStrategy: EarlyStoppingStrategy {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn CloneEarlyStoppingStrategy>;
}

impl<T> CloneEarlyStoppingStrategy for T
where
    T: EarlyStoppingStrategy + Clone + 'static,
{
    fn clone_box(&self) -> Box<dyn CloneEarlyStoppingStrategy> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn CloneEarlyStoppingStrategy> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Stops when a numeric metric's epoch value has not improved for a number
/// of epochs.
///
/// The metric must be registered for the split it watches; an epoch
/// without a value (a metric never registered, or NaN) is no improvement
/// and, with no value at all, never a reason to stop.
#[derive(Clone, Debug)]
pub struct MetricEarlyStoppingStrategy {
    name: MetricName,
    aggregate: Aggregate,
    direction: Direction,
    split: Split,
    condition: StoppingCondition,
    best: Option<(usize, f64)>,
    warmup_epochs: Option<usize>,
}

impl MetricEarlyStoppingStrategy {
    /// Watches `metric`'s epoch `aggregate` on `split`.
    pub fn new<Me: Metric>(
        metric: &Me,
        aggregate: Aggregate,
        direction: Direction,
        split: Split,
        condition: StoppingCondition,
    ) -> Self {
        Self {
            name: metric.name(),
            aggregate,
            direction,
            split,
            condition,
            best: None,
            warmup_epochs: None,
        }
    }

    /// Never stops during the first `warmup` epochs.
    pub fn with_warmup_epochs(mut self, warmup: Option<usize>) -> Self {
        self.warmup_epochs = warmup;
        self
    }

    /// The warmup, if any.
    pub fn warmup_epochs(&self) -> Option<usize> {
        self.warmup_epochs
    }
}

impl EarlyStoppingStrategy for MetricEarlyStoppingStrategy {
    fn should_stop(&mut self, epoch: usize, store: &EventStoreClient) -> bool {
        let value = store
            .find_metric(&self.name, epoch, self.aggregate, &self.split)
            .filter(|value| !value.is_nan());
        if let Some(value) = value {
            // The first epoch reaching the best value counts: a tie later is
            // no improvement.
            let improves = match (self.best, self.direction) {
                (None, _) => true,
                (Some((_, best)), Direction::Lowest) => value < best,
                (Some((_, best)), Direction::Highest) => value > best,
            };
            if improves {
                self.best = Some((epoch, value));
                return false;
            }
        }
        if self.warmup_epochs.is_some_and(|warmup| epoch <= warmup) {
            return false;
        }
        match (self.condition, self.best) {
            (StoppingCondition::NoImprovementSince { n_epochs }, Some((best_epoch, _))) => {
                epoch.saturating_sub(best_epoch) >= n_epochs
            }
            (StoppingCondition::NoImprovementSince { .. }, None) => false,
        }
    }
}
