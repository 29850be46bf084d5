use std::sync::Arc;

use burn_dataset::Dataset;
use burn_tensor::Device;

use super::{BatchDataLoader, Batcher, DataLoader};

/// Configures and builds a [`DataLoader`].
///
/// ```
/// use burn_core::data::dataloader::{DataLoader, DataLoaderBuilder};
/// use burn_core::data::dataset::InMemDataset;
/// use burn_core::tensor::Device;
///
/// // A batcher can be a closure; this one just sums the items.
/// let loader = DataLoaderBuilder::new(|items: Vec<u32>, _: &Device| items.iter().sum::<u32>())
///     .batch_size(3)
///     .set_device(Device::flex())
///     .build(InMemDataset::new(vec![1, 2, 3, 4, 5]));
/// let sums: Vec<u32> = loader.iter().collect::<Result<_, _>>()?;
/// assert_eq!(sums, [6, 9]);
/// # Ok::<(), burn_core::data::dataset::DatasetError>(())
/// ```
///
/// Defaults: batch size 1, no shuffle (dataset order), no worker thread
/// (batches are built on the iterating thread), prefetch 2, and
/// `Device::default()` when no device is set.
pub struct DataLoaderBuilder<I, O> {
    batcher: Arc<dyn Batcher<I, O>>,
    batch_size: usize,
    shuffle: Option<u64>,
    num_workers: usize,
    prefetch: usize,
    device: Option<Device>,
}

impl<I, O> DataLoaderBuilder<I, O>
where
    I: Send + Sync + 'static,
    O: Send + 'static,
{
    /// A builder for loaders whose batches `batcher` makes.
    pub fn new(batcher: impl Batcher<I, O> + 'static) -> Self {
        Self {
            batcher: Arc::new(batcher),
            batch_size: 1,
            shuffle: None,
            num_workers: 0,
            prefetch: 2,
            device: None,
        }
    }

    /// Items per batch; the last batch of an epoch holds the remainder.
    ///
    /// # Panics
    /// If `batch_size` is zero.
    pub fn batch_size(mut self, batch_size: usize) -> Self {
        assert!(
            batch_size > 0,
            "DataLoaderBuilder: the batch size must be positive"
        );
        self.batch_size = batch_size;
        self
    }

    /// Shuffles the items at the start of every epoch, with a generator
    /// seeded by `seed`: the same seed gives the same sequence of epochs.
    pub fn shuffle(mut self, seed: u64) -> Self {
        self.shuffle = Some(seed);
        self
    }

    /// Builds batches on `num_workers` threads (0: on the iterating
    /// thread). The batch order does not depend on it.
    pub fn num_workers(mut self, num_workers: usize) -> Self {
        self.num_workers = num_workers;
        self
    }

    /// How many finished batches each worker may hold ahead of the
    /// iterator (0: a worker waits until its batch is taken).
    pub fn prefetch(mut self, prefetch: usize) -> Self {
        self.prefetch = prefetch;
        self
    }

    /// The device the batcher receives.
    pub fn set_device(mut self, device: Device) -> Self {
        self.device = Some(device);
        self
    }

    /// Builds the loader over `dataset`.
    ///
    /// # Panics
    /// If no device was set and `Device::default()` finds no backend.
    pub fn build<D>(self, dataset: D) -> Arc<dyn DataLoader<O>>
    where
        D: Dataset<I> + 'static,
    {
        let device = self.device.unwrap_or_default();
        Arc::new(BatchDataLoader::new(
            Arc::new(dataset),
            self.batcher,
            self.batch_size,
            self.shuffle,
            self.num_workers,
            self.prefetch,
            device,
        ))
    }
}
