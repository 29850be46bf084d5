//! [`LogEventStore`]: the store that records through metric loggers and
//! reads epoch values back from them.

use std::boxed::Box;
use std::collections::{BTreeMap, HashMap};
use std::string::String;
use std::vec::Vec;

use super::{Aggregate, Direction, Event, EventStore, Split, aggregate_mean};
use crate::logger::MetricLogger;

/// Records every event through its loggers; answers from the first logger
/// that has the values.
#[derive(Default)]
pub(crate) struct LogEventStore {
    loggers: Vec<Box<dyn MetricLogger>>,
    /// The epoch each split is in (from its last `StartSplit`).
    epochs: HashMap<Split, usize>,
    /// Epoch values of finished passes: `(split, name) → epoch → value`.
    cache: HashMap<(Split, String), BTreeMap<usize, Option<f64>>>,
}

impl LogEventStore {
    /// Records through `logger` too.
    pub(crate) fn register_logger(&mut self, logger: impl MetricLogger + 'static) {
        self.loggers.push(Box::new(logger));
    }

    /// Whether a logger was registered.
    pub(crate) fn has_loggers(&self) -> bool {
        !self.loggers.is_empty()
    }

    fn read(&mut self, name: &str, epoch: usize, split: &Split) -> Option<f64> {
        for logger in &mut self.loggers {
            if let Ok(entries) = logger.read_numeric(name, epoch, split)
                && !entries.is_empty()
            {
                return aggregate_mean(&entries);
            }
        }
        None
    }
}

impl EventStore for LogEventStore {
    fn add_event(&mut self, event: Event, split: Split) {
        match event {
            Event::StartSplit(epoch) => {
                self.epochs.insert(split, epoch);
            }
            Event::MetricsInit(definitions) => {
                for logger in &mut self.loggers {
                    for definition in &definitions {
                        logger.log_metric_definition(definition.clone());
                    }
                }
            }
            Event::MetricsUpdate(update) => {
                let epoch = self.epochs.get(&split).copied().unwrap_or(1);
                for logger in &mut self.loggers {
                    logger.log(update.clone(), epoch, &split);
                }
            }
            Event::EndEpoch(summary) => {
                for logger in &mut self.loggers {
                    logger.log_epoch_summary(summary.clone());
                }
            }
        }
    }

    fn find_epoch(
        &mut self,
        name: &str,
        aggregate: Aggregate,
        direction: Direction,
        split: &Split,
    ) -> Option<usize> {
        let last = self.epochs.get(split).copied()?;
        let mut best: Option<(usize, f64)> = None;
        for epoch in 1..=last {
            let Some(value) = self.find_metric(name, epoch, aggregate, split) else {
                continue;
            };
            let better = match (best, direction) {
                (None, _) => true,
                (Some((_, b)), Direction::Lowest) => value < b,
                (Some((_, b)), Direction::Highest) => value > b,
            };
            if better {
                best = Some((epoch, value));
            }
        }
        best.map(|(epoch, _)| epoch)
    }

    fn find_metric(
        &mut self,
        name: &str,
        epoch: usize,
        aggregate: Aggregate,
        split: &Split,
    ) -> Option<f64> {
        let Aggregate::Mean = aggregate;
        let key = (split.clone(), name.to_string());
        if let Some(value) = self.cache.get(&key).and_then(|epochs| epochs.get(&epoch)) {
            return *value;
        }
        let value = self.read(name, epoch, split);
        // Only passes that ended are final; the current one still changes.
        let current = self.epochs.get(split).copied();
        if current.is_some_and(|current| epoch < current) {
            self.cache.entry(key).or_default().insert(epoch, value);
        }
        value
    }
}
