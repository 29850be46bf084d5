//! Metrics: what the learner measures on each batch and aggregates per
//! epoch.
//!
//! A metric implements [`Metric`] (name, update, clear) and, when its value
//! is a number, [`Numeric`] (batch value and epoch value), which lets the
//! learner plot it, write its epoch aggregate and stop early on it. A
//! model's output type offers a metric's input by implementing
//! [`Adaptor`]: [`ClassificationOutput`](crate::ClassificationOutput)
//! adapts to [`LossInput`] and [`ClassificationInput`],
//! [`RegressionOutput`](crate::RegressionOutput) to [`LossInput`], and
//! every type to `()`, the input of the metrics that read the metadata or
//! the machine.
//!
//! ## Map
//! - `base.rs`: [`Metric`], [`Numeric`], [`Adaptor`], [`MetricMetadata`],
//!   [`MetricEntry`], [`Progress`], [`NumericState`].
//! - `input.rs`: [`LossInput`], [`ClassificationInput`], [`HostScores`].
//! - `loss.rs`: [`LossMetric`]. `accuracy.rs`: [`AccuracyMetric`],
//!   [`TopKAccuracyMetric`].
//! - `confusion.rs`: [`PrecisionMetric`], [`RecallMetric`],
//!   [`FBetaScoreMetric`], [`ClassReduction`].
//! - `auroc.rs`: [`AurocMetric`].
//! - `system.rs`: [`LearningRateMetric`], [`IterationSpeedMetric`],
//!   [`CpuUse`], [`CpuMemory`].

mod accuracy;
mod auroc;
pub(crate) mod base;
mod confusion;
mod input;
mod loss;
mod system;

pub use accuracy::{AccuracyMetric, TopKAccuracyMetric};
pub use auroc::AurocMetric;
pub use base::{Adaptor, Metric, MetricEntry, MetricMetadata, Numeric, NumericState, Progress};
pub use confusion::{ClassReduction, FBetaScoreMetric, PrecisionMetric, RecallMetric};
pub use input::{ClassificationInput, HostScores, LossInput};
pub use loss::LossMetric;
pub use system::{CpuMemory, CpuUse, IterationSpeedMetric, LearningRateMetric};
