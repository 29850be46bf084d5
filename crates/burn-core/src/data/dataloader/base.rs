use std::sync::Arc;

use burn_dataset::DatasetError;
use burn_tensor::Device;

pub use burn_dataset::{Dataset, DatasetIterator};

/// How far an iteration over a data loader has gone, in items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Items in the batches handed out so far.
    pub items_processed: usize,
    /// Items in the whole iteration ([`DataLoader::num_items`]).
    pub items_total: usize,
}

impl Progress {
    /// A progress of `items_processed` out of `items_total`.
    pub fn new(items_processed: usize, items_total: usize) -> Self {
        Self {
            items_processed,
            items_total,
        }
    }

    /// Whether every item has been handed out.
    pub fn is_completed(&self) -> bool {
        self.items_processed >= self.items_total
    }
}

/// An iterator over the batches of a data loader that also reports its
/// [`Progress`].
///
/// A batch whose items the dataset failed to produce is an `Err` (the
/// first failing item's error), so the loop decides what to do with it;
/// the iteration goes on with the next batch.
pub trait DataLoaderIterator<O>: Iterator<Item = Result<O, DatasetError>> {
    /// The items handed out so far and the total for this iteration.
    fn progress(&self) -> Progress;
}

/// A source of batches: what a training or validation loop iterates over.
///
/// Each call to [`iter`](Self::iter) is one epoch; a shuffling loader draws
/// a new order for each epoch from its seeded generator, so epoch `k` of two
/// loaders built with the same seed is the same.
pub trait DataLoader<O>: Send + Sync {
    /// Starts an iteration (an epoch) over the batches.
    fn iter<'a>(&'a self) -> Box<dyn DataLoaderIterator<O> + 'a>;

    /// The number of items (not batches) one iteration hands out; the
    /// `items_total` of its [`Progress`].
    fn num_items(&self) -> usize;

    /// The same loader producing its batches on `device`. The copy shares
    /// the dataset, the batcher and the shuffle generator.
    fn to_device(&self, device: &Device) -> Arc<dyn DataLoader<O>>;

    /// A loader over the items `start..end` of this one's dataset (before
    /// shuffling), with the same batch size, batcher, device and workers;
    /// `end` is clamped to the number of items. A shuffling loader's slice
    /// shuffles within the slice, with a generator that starts from this
    /// loader's current state.
    fn slice(&self, start: usize, end: usize) -> Arc<dyn DataLoader<O>>;
}
