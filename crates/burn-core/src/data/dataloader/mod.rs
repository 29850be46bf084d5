//! Data loaders: iterate over a dataset in batches, built by a [`Batcher`]
//! on a chosen device, optionally shuffled and produced by worker threads.
//!
//! - [`DataLoader`]: what a training loop consumes (`iter`, `num_items`,
//!   `to_device`, `slice`).
//! - [`DataLoaderBuilder`]: batch size, seeded shuffle, workers, prefetch,
//!   device.
//! - [`split_dataloader`]: cut a loader into consecutive parts.
//!
//! Each batch comes out of the iterator as a `Result`: `Err` when the
//! dataset failed to produce one of its items (an unreadable image), with
//! that item's error. The iteration continues with the next batch.
//!
//! Determinism: the order of items is decided on the calling thread before
//! any worker starts (a seeded permutation per epoch), batch `k` always holds
//! the same items, and batches come out in order `0, 1, 2, …` whatever the
//! number of workers. With a deterministic batcher, the sequence of batches
//! for a given seed is the same with 0, 1 or 8 workers.

mod base;
pub mod batcher;
mod builder;
mod loader;
mod split;

pub use base::{DataLoader, DataLoaderIterator, Dataset, DatasetIterator, Progress};
pub use batcher::Batcher;
pub use builder::DataLoaderBuilder;
pub use loader::BatchDataLoader;
pub use split::split_dataloader;

#[cfg(test)]
mod tests;
