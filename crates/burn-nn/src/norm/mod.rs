//! Normalization layers.
//!
//! - [`LayerNorm`], [`RmsNorm`]: over the last dim (features of a token).
//! - [`GroupNorm`], [`InstanceNorm`]: over groups of channels (dim 1) and
//!   every spatial position of one sample.
//! - [`BatchNorm`]: per channel over the batch and positions, with running
//!   statistics for inference.

mod batch;
mod group;
mod layer;

pub use batch::{BatchNorm, BatchNormConfig, RunningState};
pub use group::{GroupNorm, GroupNormConfig, InstanceNorm, InstanceNormConfig};
pub use layer::{LayerNorm, LayerNormConfig, RmsNorm, RmsNormConfig};

use burn::tensor::Tensor;

/// `[C]` → `[1, C, 1, …, 1]` of rank `D`, to broadcast over dim 1.
pub(crate) fn per_channel<const D: usize>(t: Tensor<1>) -> Tensor<D> {
    let mut shape = [1usize; D];
    shape[1] = t.dims()[0];
    t.reshape(shape)
}
