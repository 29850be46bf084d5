//! # burn-store: module snapshots and weight files
//!
//! Saves and loads a module's tensors in three formats, with the tooling a
//! cross-framework import needs:
//!
//! - [`BurnpackStore`]: Burn's own format (`burn-pack`), with parameter ids.
//! - [`SafetensorsStore`] (feature `safetensors`): SafeTensors files or
//!   bytes, memory-mapped; export included.
//! - [`PytorchStore`] (feature `pytorch`): files written by `torch.save`,
//!   zip and legacy formats, read by a pickle reader that understands what
//!   `torch.save` writes and refuses everything else.
//!
//! Every store takes a [`PathFilter`] (which module paths), a
//! [`KeyRemapper`] (ordered regex renames), a [`SplitAdapter`] (packed
//! tensors into several) and [`ModuleAdapter`]s (layouts and dtypes:
//! [`PyTorchToBurnAdapter`], [`BurnToPyTorchAdapter`],
//! [`HalfPrecisionAdapter`], [`FloatCastAdapter`], [`ModuleDTypeAdapter`],
//! chained with [`ModuleAdapter::chain`]). Loading returns an
//! [`ApplyResult`] naming what was applied, skipped, missing, unused and
//! refused; `strict(true)` turns any of the last three into an error.
//!
//! ## Laziness
//!
//! Nothing is read until it is needed. A store's tensors are views of the
//! mapped file ([`StoreTensor`]); adapters compose onto them (a transpose
//! or a split only changes strides and offsets); applying a tensor copies
//! it once into the buffer the parameter then owns: from a file on Unix
//! with `pread` (a contiguous tensor straight into that buffer, a
//! transposed one in strips through a small buffer and an in-register
//! transpose), otherwise out of the map, whose pages are then released.
//! The copies run on up to `burn_std::threads::budget()` threads
//! (`BURN_FLEX_THREADS`, the budget Flex's pool uses); `copy.rs` says what
//! each step costs and why. Saving collects each parameter as a lazy tensor
//! read back from its device when the writer reaches it. Loading a large
//! file into a freshly built (lazy) module therefore holds the module and
//! about one tensor, not the file.
//!
//! ## What it must not depend on
//!
//! No backend: tensors are reached through `burn-core` and `burn-tensor`.
//! No Python: the pickle reader is ours and small.
//!
//! ## Example
//!
//! ```
//! use burn_core as burn;
//! use burn::module::Module;
//! use burn_nn::{Linear, LinearConfig};
//! use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, SafetensorsStore};
//! use burn_tensor::Device;
//!
//! #[derive(Module, Debug)]
//! struct Net {
//!     fc: Linear,
//! }
//!
//! let device = Device::flex();
//! let net = Net { fc: LinearConfig::new(3, 2).init(&device) };
//!
//! // Export in PyTorch's layout: `fc.weight` is [2, 3] in the file.
//! let mut store = SafetensorsStore::from_bytes(None).with_to_adapter(BurnToPyTorchAdapter);
//! net.save_into(&mut store)?;
//! let bytes = store.get_bytes()?;
//!
//! // And back: the weight is transposed to Burn's [3, 2] as it is applied.
//! let mut fresh = Net { fc: LinearConfig::new(3, 2).init(&device) };
//! let mut store = SafetensorsStore::from_bytes(Some(bytes)).with_from_adapter(PyTorchToBurnAdapter);
//! assert_eq!(store.get_tensor("fc.weight")?.unwrap().shape(), [2, 3]);
//! let result = fresh.load_from(&mut store)?;
//! assert_eq!(result.applied, ["fc.weight", "fc.bias"]);
//! assert_eq!(
//!     fresh.fc.weight.val().into_data().to_vec::<f32>()?,
//!     net.fc.weight.val().into_data().to_vec::<f32>()?
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Modules
//!
//! - `snapshot.rs`: [`ModuleSnapshot`] (`collect`, `apply`, `save_into`,
//!   `load_from`) and [`ModuleStore`].
//! - `tensor.rs`: [`StoreTensor`], views and lazy tensors, the strided copy.
//! - `traverse.rs`: [`Collector`] and [`Applier`], the two traversals.
//! - `filter.rs`, `remap.rs`, `split.rs`, `adapter.rs`: the mapping tools.
//! - `apply_result.rs`: [`ApplyResult`], [`ApplyError`]. `error.rs`:
//!   [`StoreError`] and the error policy.
//! - `options.rs`: the options and steps every store shares.
//! - `burnpack.rs`, `safetensors.rs`, [`pytorch`]: the stores.

#![warn(missing_docs)]
#![deny(unsafe_code)]

mod adapter;
mod apply_result;
mod burnpack;
mod copy;
mod error;
mod filter;
mod options;
mod remap;
mod snapshot;
mod split;
mod tensor;
mod traverse;

#[cfg(feature = "pytorch")]
pub mod pytorch;
#[cfg(feature = "safetensors")]
mod safetensors;

pub use adapter::{
    BurnToPyTorchAdapter, ChainAdapter, FloatCastAdapter, HalfPrecisionAdapter, IdentityAdapter,
    ModuleAdapter, ModuleContext, ModuleDTypeAdapter, PyTorchToBurnAdapter,
};
pub use apply_result::{ApplyError, ApplyResult};
pub use burnpack::BurnpackStore;
pub use error::StoreError;
pub use filter::PathFilter;
pub use remap::{KeyRemapper, map_indices_contiguous, map_indices_contiguous_except};
pub use snapshot::{ModuleSnapshot, ModuleStore};
pub use split::SplitAdapter;
pub use tensor::StoreTensor;
pub use traverse::{Applier, Collector};

#[cfg(feature = "pytorch")]
pub use pytorch::{PytorchStore, PytorchStoreError};
#[cfg(feature = "safetensors")]
pub use safetensors::{SafetensorsStore, SafetensorsStoreError};

/// The burnpack format crate, re-exported so its version matches.
pub use burn_pack;
