use std::sync::Arc;

use burn_dataset::{InMemDataset, SeededRng};
use burn_tensor::Device;

use super::*;

/// A batcher that keeps the items: the batches are the item lists.
fn identity(items: Vec<u32>, _: &Device) -> Vec<u32> {
    items
}

fn numbers(n: u32) -> InMemDataset<u32> {
    InMemDataset::new((0..n).collect())
}

/// One epoch's batches; every batch must have loaded.
fn batches<O>(loader: &dyn DataLoader<O>) -> Vec<O> {
    loader.iter().map(|batch| batch.unwrap()).collect()
}

/// One epoch's items, in order.
fn items(loader: &dyn DataLoader<Vec<u32>>) -> Vec<u32> {
    batches(loader).concat()
}

fn epochs(loader: &Arc<dyn DataLoader<Vec<u32>>>, count: usize) -> Vec<Vec<Vec<u32>>> {
    (0..count).map(|_| batches(&**loader)).collect()
}

#[test]
fn unshuffled_batches_follow_the_dataset_order() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(3)
        .set_device(Device::flex())
        .build(numbers(10));
    assert_eq!(
        batches(&*loader),
        [vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8], vec![9]]
    );
    assert_eq!(loader.num_items(), 10);
}

#[test]
fn shuffled_epochs_are_successive_seeded_permutations() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(4)
        .shuffle(17)
        .set_device(Device::flex())
        .build(numbers(10));
    // Each epoch draws the next permutation from one generator seeded by 17.
    let mut rng = SeededRng::new(17);
    for _ in 0..3 {
        let expected: Vec<u32> = rng.permutation(10).iter().map(|&i| i as u32).collect();
        let batches = batches(&*loader);
        assert_eq!(batches.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 2]);
        assert_eq!(batches.concat(), expected);
    }
}

#[test]
fn the_worker_count_does_not_change_the_batches() {
    let build = |workers: usize, prefetch: usize| {
        DataLoaderBuilder::new(identity)
            .batch_size(7)
            .shuffle(3)
            .num_workers(workers)
            .prefetch(prefetch)
            .set_device(Device::flex())
            .build(numbers(100))
    };
    let reference = epochs(&build(0, 2), 3);
    assert_ne!(reference[0], reference[1], "epochs must be reshuffled");
    for (workers, prefetch) in [(1, 0), (2, 2), (3, 1), (8, 4), (32, 2)] {
        assert_eq!(
            epochs(&build(workers, prefetch), 3),
            reference,
            "{workers} workers, prefetch {prefetch}"
        );
    }
}

#[test]
fn workers_build_batches_off_the_iterating_thread() {
    let loader = DataLoaderBuilder::new(|items: Vec<u32>, _: &Device| {
        (items, std::thread::current().name().map(str::to_string))
    })
    .batch_size(2)
    .num_workers(2)
    .set_device(Device::flex())
    .build(numbers(6));
    let names: Vec<Option<String>> = batches(&*loader)
        .into_iter()
        .map(|(_, name)| name)
        .collect();
    assert_eq!(
        names,
        ["0", "1", "0"].map(|w| Some(format!("burn-dataloader-{w}")))
    );
}

#[test]
fn progress_counts_items() {
    for workers in [0, 2] {
        let loader = DataLoaderBuilder::new(identity)
            .batch_size(4)
            .num_workers(workers)
            .set_device(Device::flex())
            .build(numbers(10));
        let mut iter = loader.iter();
        assert_eq!(iter.progress(), Progress::new(0, 10));
        let mut seen = Vec::new();
        while iter.next().is_some() {
            seen.push(iter.progress().items_processed);
        }
        assert_eq!(seen, [4, 8, 10]);
        assert!(iter.progress().is_completed());
    }
}

#[test]
fn dropping_an_iterator_early_stops_the_workers() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(1)
        .num_workers(3)
        .prefetch(0)
        .set_device(Device::flex())
        .build(numbers(1000));
    let first: Vec<Vec<u32>> = loader.iter().take(2).map(Result::unwrap).collect();
    assert_eq!(first, [vec![0], vec![1]]);
    // A second epoch starts cleanly after the first was abandoned.
    assert_eq!(loader.iter().count(), 1000);
}

#[test]
// The worker's own panic is raised again on the iterating thread.
#[should_panic(expected = "item five is cursed")]
fn a_panicking_batcher_is_reported() {
    let loader = DataLoaderBuilder::new(|items: Vec<u32>, _: &Device| {
        assert!(items[0] != 5, "item five is cursed");
        items
    })
    .batch_size(1)
    .num_workers(2)
    .set_device(Device::flex())
    .build(numbers(8));
    loader.iter().for_each(|batch| drop(batch.unwrap()));
}

#[test]
fn slices_and_splits_cover_the_items() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(2)
        .set_device(Device::flex())
        .build(numbers(9));
    let middle = batches(&*loader.slice(3, 8));
    assert_eq!(middle, [vec![3, 4], vec![5, 6], vec![7]]);
    assert_eq!(loader.slice(7, 100).num_items(), 2);

    let parts = split_dataloader(&loader, 2);
    assert_eq!(
        parts.iter().map(|p| p.num_items()).collect::<Vec<_>>(),
        [5, 4]
    );
    let joined: Vec<u32> = parts.iter().flat_map(|p| items(&**p)).collect();
    assert_eq!(joined, (0..9).collect::<Vec<_>>());
}

#[test]
fn a_shuffled_slice_permutes_only_its_range() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(3)
        .shuffle(8)
        .set_device(Device::flex())
        .build(numbers(20));
    let mut items: Vec<u32> = items(&*loader.slice(10, 15));
    let expected: Vec<u32> = SeededRng::new(8)
        .permutation(5)
        .iter()
        .map(|&i| 10 + i as u32)
        .collect();
    assert_eq!(items, expected);
    items.sort();
    assert_eq!(items, [10, 11, 12, 13, 14]);
}

#[test]
fn to_device_continues_the_epoch_sequence() {
    let loader = DataLoaderBuilder::new(identity)
        .batch_size(5)
        .shuffle(1)
        .set_device(Device::flex())
        .build(numbers(5));
    let first: Vec<u32> = items(&*loader);
    let moved = loader.to_device(&Device::flex());
    let second: Vec<u32> = items(&*moved);
    let mut rng = SeededRng::new(1);
    let as_u32 = |p: Vec<usize>| p.into_iter().map(|i| i as u32).collect::<Vec<_>>();
    assert_eq!(first, as_u32(rng.permutation(5)));
    assert_eq!(second, as_u32(rng.permutation(5)));
}

#[test]
fn the_batcher_receives_the_configured_device() {
    let device = Device::flex();
    let expected = device.clone();
    let loader = DataLoaderBuilder::new(move |_: Vec<u32>, d: &Device| *d == expected)
        .batch_size(4)
        .num_workers(1)
        .set_device(device)
        .build(numbers(8));
    assert!(batches(&*loader).into_iter().all(|same| same));
}

#[test]
#[should_panic(expected = "batch size must be positive")]
fn zero_batch_size_panics() {
    let _ = DataLoaderBuilder::new(identity).batch_size(0);
}

#[test]
fn an_empty_dataset_gives_no_batch() {
    for workers in [0, 3] {
        let loader = DataLoaderBuilder::new(identity)
            .batch_size(4)
            .shuffle(0)
            .num_workers(workers)
            .set_device(Device::flex())
            .build(numbers(0));
        let mut iter = loader.iter();
        assert!(iter.next().is_none());
        assert!(iter.next().is_none());
        assert!(iter.progress().is_completed());
    }
}

/// An item the dataset cannot produce makes its batch an `Err` carrying
/// that item's error; the other batches load, with and without workers.
#[test]
fn a_failing_item_fails_only_its_batch() {
    use burn_dataset::{DatasetError, check_index};

    struct Flaky;
    impl Dataset<u32> for Flaky {
        fn get(&self, index: usize) -> Result<u32, DatasetError> {
            check_index("Flaky", index, 6);
            if index == 3 {
                Err(DatasetError::new(std::io::Error::other(
                    "item 3 is unreadable",
                )))
            } else {
                Ok(index as u32)
            }
        }
        fn len(&self) -> usize {
            6
        }
    }

    for workers in [0, 2] {
        let loader = DataLoaderBuilder::new(identity)
            .batch_size(2)
            .num_workers(workers)
            .set_device(Device::flex())
            .build(Flaky);
        let results: Vec<_> = loader.iter().collect();
        assert_eq!(results.len(), 3, "{workers} workers");
        assert_eq!(results[0].as_ref().unwrap(), &[0, 1]);
        let error = results[1].as_ref().unwrap_err().to_string();
        assert_eq!(error, "item 3 is unreadable");
        assert_eq!(results[2].as_ref().unwrap(), &[4, 5]);
    }
}
