//! [`EventStoreClient`]: the store shared by the processor (which records)
//! and the strategies (which ask).

use std::boxed::Box;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Aggregate, Direction, Event, EventStore, Split};

/// A handle on a run's [`EventStore`]: the event processor records into
/// it, early stopping and checkpointing strategies query it.
///
/// The store sits behind a lock rather than a thread of its own: records
/// come from the one processor thread and queries once per epoch, so they
/// seldom meet.
pub struct EventStoreClient {
    store: Mutex<Box<dyn EventStore>>,
}

impl core::fmt::Debug for EventStoreClient {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EventStoreClient").finish_non_exhaustive()
    }
}

impl EventStoreClient {
    /// A client of `store`.
    pub(crate) fn new(store: impl EventStore + 'static) -> Self {
        Self {
            store: Mutex::new(Box::new(store)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn EventStore>> {
        // A panic while recording leaves nothing half-written worth
        // refusing: keep serving.
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a training event.
    pub(crate) fn add_event_train(&self, event: Event) {
        self.lock().add_event(event, Split::Train);
    }

    /// Records a validation event.
    pub(crate) fn add_event_valid(&self, event: Event) {
        self.lock().add_event(event, Split::Valid);
    }

    /// Records an event of the evaluation named `tag`.
    pub(crate) fn add_event_test(&self, event: Event, tag: Arc<String>) {
        self.lock().add_event(event, Split::Test(Some(tag)));
    }

    /// The epoch whose value of metric `name` on `split` is the best in
    /// `direction`.
    pub fn find_epoch(
        &self,
        name: &str,
        aggregate: Aggregate,
        direction: Direction,
        split: &Split,
    ) -> Option<usize> {
        self.lock().find_epoch(name, aggregate, direction, split)
    }

    /// Metric `name`'s value for `epoch` on `split`.
    pub fn find_metric(
        &self,
        name: &str,
        epoch: usize,
        aggregate: Aggregate,
        split: &Split,
    ) -> Option<f64> {
        self.lock().find_metric(name, epoch, aggregate, split)
    }
}
