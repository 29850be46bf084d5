//! Early stopping: ending training when a metric stops improving.

use std::string::String;

use super::metrics::MetricHistory;
use crate::metric::Metric;
use crate::renderer::Split;

/// Whether lower or higher values of a metric are better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Lower is better (a loss).
    Lowest,
    /// Higher is better (an accuracy).
    Highest,
}

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
    /// Whether to stop after `epoch`, given every epoch value so far.
    fn should_stop(&mut self, epoch: usize, history: &MetricHistory) -> bool;
}

/// Stops when a numeric metric's epoch value has not improved for a number
/// of epochs.
///
/// ```
/// use burn_train::metric::LossMetric;
/// use burn_train::{Direction, EarlyStoppingStrategy, MetricEarlyStoppingStrategy, MetricHistory, Split, StoppingCondition};
///
/// let mut strategy = MetricEarlyStoppingStrategy::new(
///     &LossMetric::new(),
///     Direction::Lowest,
///     Split::Valid,
///     StoppingCondition::NoImprovementSince { n_epochs: 2 },
/// );
/// let mut history = MetricHistory::default();
/// for (epoch, loss) in [(1, 0.9), (2, 0.5), (3, 0.6), (4, 0.55)] {
///     history.record(Split::Valid, epoch, "Loss", loss);
///     // The best loss, 0.5 at epoch 2, is two epochs old at epoch 4.
///     assert_eq!(strategy.should_stop(epoch, &history), epoch == 4);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct MetricEarlyStoppingStrategy {
    name: String,
    direction: Direction,
    split: Split,
    condition: StoppingCondition,
}

impl MetricEarlyStoppingStrategy {
    /// Watches the epoch value of `metric` (by name) on `split`.
    pub fn new<M: Metric>(
        metric: &M,
        direction: Direction,
        split: Split,
        condition: StoppingCondition,
    ) -> Self {
        Self {
            name: metric.name(),
            direction,
            split,
            condition,
        }
    }
}

impl EarlyStoppingStrategy for MetricEarlyStoppingStrategy {
    fn should_stop(&mut self, epoch: usize, history: &MetricHistory) -> bool {
        let series = history.series(self.split, &self.name);
        let better = |a: f64, b: f64| match self.direction {
            Direction::Lowest => a < b,
            Direction::Highest => a > b,
        };
        // The first epoch reaching the best value (a later tie is no
        // improvement); NaN values never improve.
        let best = series.iter().filter(|(_, value)| !value.is_nan()).fold(
            None::<(usize, f64)>,
            |best, &(e, v)| match best {
                Some((_, b)) if !better(v, b) => best,
                _ => Some((e, v)),
            },
        );
        match (self.condition, best) {
            (StoppingCondition::NoImprovementSince { n_epochs }, Some((best_epoch, _))) => {
                epoch.saturating_sub(best_epoch) >= n_epochs
            }
            // A metric never recorded on this split (a name that matches no
            // registered metric, or only NaN values) cannot justify stopping.
            (StoppingCondition::NoImprovementSince { .. }, None) => false,
        }
    }
}
