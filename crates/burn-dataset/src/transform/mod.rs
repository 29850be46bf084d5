//! Lazy views over another dataset.
//!
//! Each transform wraps a dataset and computes its items on demand from the
//! wrapped one: nothing is copied, so chains are cheap. Freeze a chain with
//! [`InMemDataset::from_dataset`](crate::InMemDataset::from_dataset) when
//! the per-item work should be paid once.
//!
//! | transform | item `i` is |
//! |---|---|
//! | [`MapperDataset`] | `mapper.map(&inner[i])` |
//! | [`PartialDataset`] | `inner[start + i]`, for `i < end - start` |
//! | [`SelectionDataset`] | `inner[indices[i]]` |
//! | [`ShuffledDataset`] | `inner[permutation[i]]`, the permutation fixed by a seed |
//! | [`SamplerDataset`] | a random item of `inner`, drawn when asked |
//! | [`WindowsDataset`] | `inner[i..i + size]` as a `Vec` |
//! | [`ComposedDataset`] | the items of each inner dataset, one after another |

mod composed;
mod mapper;
mod partial;
mod sampler;
mod selection;
mod shuffle;
mod split;
mod window;

pub use composed::ComposedDataset;
pub use mapper::{Mapper, MapperDataset};
pub use partial::PartialDataset;
pub use sampler::SamplerDataset;
pub use selection::SelectionDataset;
pub use shuffle::ShuffledDataset;
pub use split::train_valid_split;
pub use window::{Window, WindowsDataset};
