//! # burn-dataset: datasets for machine learning pipelines
//!
//! A [`Dataset`] is an indexed, read-only collection of items that can be
//! shared between threads. Everything here composes around that one trait:
//!
//! - [`InMemDataset`]: items held in a `Vec`, built from a vector, a CSV file
//!   or a JSON-lines file.
//! - [`transform`]: lazy views over another dataset: [`MapperDataset`](transform::MapperDataset),
//!   [`PartialDataset`](transform::PartialDataset), [`SelectionDataset`](transform::SelectionDataset),
//!   [`ShuffledDataset`](transform::ShuffledDataset), [`SamplerDataset`](transform::SamplerDataset),
//!   [`WindowsDataset`](transform::WindowsDataset), [`ComposedDataset`](transform::ComposedDataset),
//!   and [`train_valid_split`](transform::train_valid_split).
//! - [`vision`] (feature `vision`, default): [`ImageFolderDataset`](vision::ImageFolderDataset)
//!   and [`MnistDataset`](vision::MnistDataset), with its download code behind the
//!   `network` feature.
//! - [`DigitsDataset`]: the 8×8 UCI handwritten digits (1,797 images),
//!   shipped inside the crate, for examples that must run offline.
//! - [`download`]: the cache directory (`$BURN_DATASET_CACHE`, else
//!   `~/.cache/burn-dataset`), mirror lists, a progress line on stderr and
//!   MD5 checks ([`checksum`]); the HTTP client (`ureq`) only with the
//!   `network` feature, so default builds carry no TLS stack.
//! - `network` (feature `network`): [`network::downloader`], a file
//!   downloader with a progress bar, as Burn's `burn::data::network`.
//!
//! Randomness (shuffles, samplers, splits) always comes from a [`SeededRng`]:
//! a fixed seed gives the same order on every machine and every run.
//!
//! ## What it must not depend on
//!
//! No tensor or backend crate: items are plain Rust values. Turning items
//! into tensors is the job of a batcher in `burn-core`'s `data` module.
//!
//! ## Errors
//!
//! Reading files (CSV, JSON lines, IDX, images, downloads) returns
//! `Result<_, DatasetError>`, whose messages name the file and the offending
//! line or field. [`Dataset::get`] returns `Err` when an existing item cannot
//! be produced (an image that does not decode) and panics for an index past
//! the end, as slices do, naming the index and the length. A constructor
//! that receives an impossible argument (an out-of-range selection, a window
//! of size zero) panics with a message saying so.
//!
//! ## Example
//!
//! ```
//! use burn_dataset::transform::{MapperDataset, ShuffledDataset};
//! use burn_dataset::{Dataset, InMemDataset};
//!
//! let numbers = InMemDataset::new(vec![1, 2, 3, 4, 5]);
//! let squares = MapperDataset::new(numbers, |x: &i32| x * x);
//! assert_eq!(squares.get(3)?, 16);
//!
//! let shuffled = ShuffledDataset::with_seed(squares, 42);
//! let mut items: Vec<i32> = shuffled.iter().collect::<Result<_, _>>()?;
//! items.sort();
//! assert_eq!(items, [1, 4, 9, 16, 25]);
//! # Ok::<(), burn_dataset::DatasetError>(())
//! ```

mod dataset;
mod digits;
mod error;
mod in_memory;
mod rng;

pub mod transform;

#[cfg(feature = "vision")]
pub mod vision;

pub mod checksum;
pub mod download;
#[cfg(feature = "network")]
pub mod network;

pub use dataset::{Dataset, DatasetIterator, check_index};
pub use digits::{DigitsDataset, DigitsItem};
pub use error::DatasetError;
pub use in_memory::InMemDataset;
pub use rng::SeededRng;

/// The `csv` crate, for building a [`csv::ReaderBuilder`] to pass to
/// [`InMemDataset::from_csv`].
pub use csv;
