//! Data loading: datasets (re-exported from `burn-dataset`) and the data
//! loaders that turn their items into batches on a device.
//!
//! ```
//! use std::sync::Arc;
//! use burn_core::data::dataloader::{Batcher, DataLoader, DataLoaderBuilder};
//! use burn_core::data::dataset::InMemDataset;
//! use burn_core::tensor::{Device, Tensor};
//!
//! // Items are plain values; the batcher makes one tensor per batch.
//! struct Stack;
//!
//! impl Batcher<f32, Tensor<1>> for Stack {
//!     fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<1> {
//!         Tensor::from_floats(items.as_slice(), device)
//!     }
//! }
//!
//! let loader: Arc<dyn DataLoader<Tensor<1>>> = DataLoaderBuilder::new(Stack)
//!     .batch_size(4)
//!     .shuffle(42)
//!     .num_workers(2)
//!     .set_device(Device::flex())
//!     .build(InMemDataset::new((0..10).map(|x| x as f32).collect()));
//!
//! // Each batch is a `Result`: `Err` if the dataset failed to produce an item.
//! let sizes: Vec<usize> = loader.iter().map(|batch| batch.map(|b| b.dims()[0])).collect::<Result<_, _>>()?;
//! assert_eq!(sizes, [4, 4, 2]);
//! assert_eq!(loader.num_items(), 10);
//! # Ok::<(), burn_core::data::dataset::DatasetError>(())
//! ```

pub mod dataloader;

/// Datasets and their transforms (`burn-dataset`).
pub mod dataset {
    pub use burn_dataset::*;
}

/// Network utilities (feature `network`): a file downloader with a
/// progress bar, [`downloader::download_file_as_bytes`](network::downloader::download_file_as_bytes).
#[cfg(feature = "network")]
pub mod network {
    pub use burn_dataset::network::*;
}
