//! [`TrainingInterrupter`]: asking a running learner to stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag shared between the learner and whoever may ask it to stop (the
/// dashboard's `q` key, a signal handler, another thread).
///
/// The learner checks it after each batch. When set, the current pass ends
/// after the batch in progress and training returns the model as it is.
/// The epoch in progress is not checkpointed (its state is not an epoch
/// boundary, so resuming from it would skip data); the checkpoints of the
/// finished epochs are complete files, since each is written whole before
/// the flag is looked at again.
#[derive(Clone, Debug, Default)]
pub struct TrainingInterrupter {
    flag: Arc<AtomicBool>,
}

impl TrainingInterrupter {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks training to stop.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether training was asked to stop.
    pub fn should_stop(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Clears the request (to train again with the same flag).
    pub fn reset(&self) {
        self.flag.store(false, Ordering::SeqCst);
    }
}
