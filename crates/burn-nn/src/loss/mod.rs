//! Loss functions.
//!
//! Each is a module (so it can live in a model struct) built from tensor
//! ops, hence differentiable with no extra code. Conventions follow
//! PyTorch's, whose values the tests compare against:
//!
//! - classification: [`CrossEntropyLoss`] (logits or probabilities, class
//!   weights, label smoothing, ignored ("pad") targets), [`NllLoss`],
//!   [`BinaryCrossEntropyLoss`] (probabilities or logits);
//! - regression: [`MseLoss`], [`HuberLoss`], [`SmoothL1Loss`];
//! - distributions: [`KLDivLoss`];
//! - metric learning: [`CosineEmbeddingLoss`], [`TripletMarginLoss`].
//!
//! Losses that take a [`Reduction`] return a one-element tensor for every
//! reduction; use the `forward_no_reduction` forms for per-element losses.

mod binary_cross_entropy;
mod cross_entropy;
mod embedding;
mod kldiv;
mod reduction;
mod regression;

pub use binary_cross_entropy::{BinaryCrossEntropyLoss, BinaryCrossEntropyLossConfig};
pub use cross_entropy::{CrossEntropyLoss, CrossEntropyLossConfig, NllLoss, NllLossConfig};
pub use embedding::{
    CosineEmbeddingLoss, CosineEmbeddingLossConfig, TripletMarginLoss, TripletMarginLossConfig,
};
pub use kldiv::{KLDivLoss, KLDivLossConfig};
pub use reduction::Reduction;
pub use regression::{HuberLoss, HuberLossConfig, MseLoss, SmoothL1Loss, SmoothL1LossConfig};
