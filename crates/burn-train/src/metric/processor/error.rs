//! What an event processor reports: [`EventProcessorError`].

use std::vec::Vec;

use burn_tensor::{ExecutionError, TensorReadError};

use crate::metric::MetricName;
use crate::metric::store::Split;

/// A metric that could not process an event.
#[derive(Debug)]
pub struct MetricError {
    /// The metric.
    pub metric: MetricName,
    /// The split of the event.
    pub split: Split,
    /// Why.
    pub source: TensorReadError,
}

impl core::fmt::Display for MetricError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.split {
            Split::Test(Some(name)) => write!(f, "test/{name}/{}: {}", self.metric, self.source),
            split => write!(f, "{split}/{}: {}", self.metric, self.source),
        }
    }
}

impl core::error::Error for MetricError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// One failure of an event processor.
#[derive(Debug)]
pub enum EventProcessorFailure {
    /// A metric failed.
    Metric(MetricError),
    /// An item could not be synced.
    Sync {
        /// The split of the item.
        split: Split,
        /// Why.
        source: ExecutionError,
    },
}

impl core::fmt::Display for EventProcessorFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Metric(error) => write!(f, "{error}"),
            Self::Sync { split, source } => {
                write!(f, "{split}: the item could not be synced: {source}")
            }
        }
    }
}

impl core::error::Error for EventProcessorFailure {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Metric(error) => Some(error),
            Self::Sync { source, .. } => Some(source),
        }
    }
}

impl From<MetricError> for EventProcessorFailure {
    fn from(error: MetricError) -> Self {
        Self::Metric(error)
    }
}

/// Every failure a processor reported at once, oldest first.
#[derive(Debug)]
pub struct EventProcessorError {
    failures: Vec<EventProcessorFailure>,
}

impl EventProcessorError {
    /// `Ok` without failures, else one error holding them all.
    pub(crate) fn from_errors(errors: Vec<MetricError>) -> Result<(), Self> {
        if errors.is_empty() {
            return Ok(());
        }
        Err(Self {
            failures: errors
                .into_iter()
                .map(EventProcessorFailure::Metric)
                .collect(),
        })
    }

    /// An item of `split` could not be synced.
    pub(crate) fn sync(split: Split, source: ExecutionError) -> Self {
        Self {
            failures: std::vec![EventProcessorFailure::Sync { split, source }],
        }
    }

    /// Appends `other`'s failures.
    pub(crate) fn merge(&mut self, other: Self) {
        self.failures.extend(other.failures);
    }

    /// Every failure, oldest first.
    pub fn failures(&self) -> &[EventProcessorFailure] {
        &self.failures
    }

    /// Every failure, oldest first.
    pub fn into_failures(self) -> Vec<EventProcessorFailure> {
        self.failures
    }
}

impl core::fmt::Display for EventProcessorError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.failures.as_slice() {
            [failure] => write!(f, "event processing failed: {failure}"),
            failures => {
                write!(f, "event processing failed {} times:", failures.len())?;
                for failure in failures {
                    write!(f, "\n  {failure}")?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for EventProcessorError {}
