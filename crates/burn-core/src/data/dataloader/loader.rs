use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use burn_dataset::transform::PartialDataset;
use burn_dataset::{Dataset, DatasetError, SeededRng};
use burn_tensor::Device;

use super::{Batcher, DataLoader, DataLoaderIterator, Progress};

/// The loader [`DataLoaderBuilder`](super::DataLoaderBuilder) builds:
/// batches of consecutive items of an (optionally shuffled) order.
pub struct BatchDataLoader<I, O> {
    dataset: Arc<dyn Dataset<I>>,
    batcher: Arc<dyn Batcher<I, O>>,
    batch_size: usize,
    // Shared by `to_device` copies so their epochs continue one sequence.
    rng: Option<Arc<Mutex<SeededRng>>>,
    num_workers: usize,
    prefetch: usize,
    device: Device,
}

impl<I, O> Clone for BatchDataLoader<I, O> {
    fn clone(&self) -> Self {
        Self {
            dataset: self.dataset.clone(),
            batcher: self.batcher.clone(),
            batch_size: self.batch_size,
            rng: self.rng.clone(),
            num_workers: self.num_workers,
            prefetch: self.prefetch,
            device: self.device.clone(),
        }
    }
}

impl<I, O> BatchDataLoader<I, O>
where
    I: Send + Sync + 'static,
    O: Send + 'static,
{
    /// A loader over `dataset`; see [`DataLoaderBuilder`](super::DataLoaderBuilder)
    /// for the meaning of each setting.
    ///
    /// # Panics
    /// If `batch_size` is zero.
    pub fn new(
        dataset: Arc<dyn Dataset<I>>,
        batcher: Arc<dyn Batcher<I, O>>,
        batch_size: usize,
        shuffle: Option<u64>,
        num_workers: usize,
        prefetch: usize,
        device: Device,
    ) -> Self {
        assert!(
            batch_size > 0,
            "BatchDataLoader: the batch size must be positive"
        );
        Self {
            dataset,
            batcher,
            batch_size,
            rng: shuffle.map(|seed| Arc::new(Mutex::new(SeededRng::new(seed)))),
            num_workers,
            prefetch,
            device,
        }
    }

    /// The item indices of each batch of the next epoch. Drawing the order
    /// here, on the calling thread, is what makes it independent of workers.
    fn plan(&self) -> Vec<Vec<usize>> {
        let len = self.dataset.len();
        let order = match &self.rng {
            Some(rng) => lock(rng).permutation(len),
            None => (0..len).collect(),
        };
        order
            .chunks(self.batch_size)
            .map(<[usize]>::to_vec)
            .collect()
    }
}

fn lock(rng: &Mutex<SeededRng>) -> std::sync::MutexGuard<'_, SeededRng> {
    // The generator is never left mid-update, so a poisoned lock is usable.
    rng.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The items of one batch, then the batch; the first item the dataset
/// fails to produce is the batch's error.
fn build<I, O>(
    dataset: &dyn Dataset<I>,
    batcher: &dyn Batcher<I, O>,
    device: &Device,
    indices: &[usize],
) -> Result<O, DatasetError> {
    let items = dataset.get_many(indices.to_vec())?;
    Ok(batcher.batch(items, device))
}

impl<I, O> DataLoader<O> for BatchDataLoader<I, O>
where
    I: Send + Sync + 'static,
    O: Send + 'static,
{
    fn iter<'a>(&'a self) -> Box<dyn DataLoaderIterator<O> + 'a> {
        let plan = self.plan();
        let total = self.dataset.len();
        if self.num_workers == 0 {
            Box::new(SequentialIter {
                loader: self,
                plan,
                next: 0,
                progress: Progress::new(0, total),
            })
        } else {
            Box::new(WorkerIter::start(self, plan))
        }
    }

    fn num_items(&self) -> usize {
        self.dataset.len()
    }

    fn to_device(&self, device: &Device) -> Arc<dyn DataLoader<O>> {
        let mut loader = self.clone();
        loader.device = device.clone();
        Arc::new(loader)
    }

    fn slice(&self, start: usize, end: usize) -> Arc<dyn DataLoader<O>> {
        let mut loader = self.clone();
        loader.dataset = Arc::new(PartialDataset::new(self.dataset.clone(), start, end));
        loader.rng = self
            .rng
            .as_ref()
            .map(|rng| Arc::new(Mutex::new(lock(rng).clone())));
        Arc::new(loader)
    }
}

/// Builds each batch when asked for it, on the iterating thread.
struct SequentialIter<'a, I, O> {
    loader: &'a BatchDataLoader<I, O>,
    plan: Vec<Vec<usize>>,
    next: usize,
    progress: Progress,
}

impl<I, O> Iterator for SequentialIter<'_, I, O> {
    type Item = Result<O, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        let indices = self.plan.get(self.next)?;
        self.next += 1;
        let loader = self.loader;
        let batch = build(&*loader.dataset, &*loader.batcher, &loader.device, indices);
        self.progress.items_processed += indices.len();
        Some(batch)
    }
}

impl<I, O> DataLoaderIterator<O> for SequentialIter<'_, I, O> {
    fn progress(&self) -> Progress {
        self.progress.clone()
    }
}

/// Worker `w` of `n` builds batches `w, w + n, w + 2n, …` and sends them
/// through its own bounded channel; the iterator reads the channels in
/// turn, so batch `k` always comes from worker `k % n` and the output order
/// is the plan's order. The bound (the prefetch) keeps a fast worker from
/// filling memory ahead of a slow consumer.
struct WorkerIter<O> {
    receivers: Vec<Receiver<Result<O, DatasetError>>>,
    handles: Vec<JoinHandle<()>>,
    batch_sizes: Vec<usize>,
    next: usize,
    progress: Progress,
}

impl<O: Send + 'static> WorkerIter<O> {
    fn start<I: Send + Sync + 'static>(
        loader: &BatchDataLoader<I, O>,
        plan: Vec<Vec<usize>>,
    ) -> Self {
        let workers = loader.num_workers.min(plan.len()).max(1);
        let batch_sizes = plan.iter().map(Vec::len).collect();
        let plan = Arc::new(plan);
        let mut receivers = Vec::with_capacity(workers);
        let mut handles = Vec::with_capacity(workers);
        for worker in 0..workers {
            let (sender, receiver) = sync_channel(loader.prefetch);
            let (dataset, batcher) = (loader.dataset.clone(), loader.batcher.clone());
            let (device, plan) = (loader.device.clone(), plan.clone());
            let handle = std::thread::Builder::new()
                .name(format!("burn-dataloader-{worker}"))
                .spawn(move || {
                    run_worker(
                        worker, workers, &plan, &*dataset, &*batcher, &device, sender,
                    )
                })
                .expect("data loader: could not spawn a worker thread");
            receivers.push(receiver);
            handles.push(handle);
        }
        Self {
            receivers,
            handles,
            batch_sizes,
            next: 0,
            progress: Progress::new(0, loader.dataset.len()),
        }
    }

    /// Waits for every worker; re-raises a worker's panic on this thread.
    fn join_all(&mut self) {
        // Dropping the receivers wakes workers blocked on a full channel:
        // their next send fails and they return.
        self.receivers.clear();
        for handle in self.handles.drain(..) {
            if let Err(panic) = handle.join()
                && !std::thread::panicking()
            {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

fn run_worker<I, O>(
    worker: usize,
    workers: usize,
    plan: &[Vec<usize>],
    dataset: &dyn Dataset<I>,
    batcher: &dyn Batcher<I, O>,
    device: &Device,
    sender: SyncSender<Result<O, DatasetError>>,
) {
    for indices in plan.iter().skip(worker).step_by(workers) {
        let batch = build(dataset, batcher, device, indices);
        if sender.send(batch).is_err() {
            return; // the iterator was dropped
        }
    }
}

impl<O: Send + 'static> Iterator for WorkerIter<O> {
    type Item = Result<O, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.batch_sizes.len() {
            self.join_all();
            return None;
        }
        let worker = self.next % self.receivers.len();
        match self.receivers[worker].recv() {
            Ok(batch) => {
                self.progress.items_processed += self.batch_sizes[self.next];
                self.next += 1;
                Some(batch)
            }
            // The worker hung up before its last batch: it panicked, and
            // `join_all` raises its panic here; the message below is a fallback.
            Err(_) => {
                self.join_all();
                panic!("data loader: worker {worker} stopped without producing its batches");
            }
        }
    }
}

impl<O: Send + 'static> DataLoaderIterator<O> for WorkerIter<O> {
    fn progress(&self) -> Progress {
        self.progress.clone()
    }
}

impl<O> Drop for WorkerIter<O> {
    fn drop(&mut self) {
        self.receivers.clear();
        for handle in self.handles.drain(..) {
            // A worker's panic was already reported by `next`, or nobody is
            // left to see the rest of the batches.
            let _ = handle.join();
        }
    }
}
