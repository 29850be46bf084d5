//! Metrics: what a run measures on each batch and aggregates per epoch.
//!
//! A metric implements [`Metric`] (name, update, compute, clear) and, when
//! its values are numbers, [`Numeric`], which lets the run plot it, log its
//! epoch value and stop early or pick checkpoints on it. A model's output
//! type offers a metric's input by implementing [`Adaptor`]:
//! [`ClassificationOutput`](crate::ClassificationOutput) adapts to
//! [`LossInput`], [`AccuracyInput`], [`TopKAccuracyInput`],
//! [`PerplexityInput`] and [`ConfusionStatsInput`];
//! [`RegressionOutput`](crate::RegressionOutput) to [`LossInput`]; every
//! type to `()`, the input of the metrics that read the metadata or the
//! machine.
//!
//! ## Map
//! - `base.rs`: [`Metric`], [`Numeric`], [`Adaptor`], [`MetricMetadata`],
//!   [`MetricDefinition`], [`MetricId`], [`SerializedEntry`],
//!   [`MetricEntry`], [`NumericEntry`].
//! - [`state`]: [`NumericMetricState`](state::NumericMetricState) and
//!   [`FormatOptions`](state::FormatOptions), for writing metrics.
//! - [`store`]: where values are recorded and searched ([`store::Split`],
//!   [`store::Aggregate`], [`store::Direction`]).
//! - `loss.rs`, `accuracy.rs` (accuracy, top-k), `perplexity.rs`,
//!   `confusion.rs` (precision, recall, F-score), `auroc.rs`,
//!   `training.rs` (learning rate, iteration speed), `sys.rs` (CPU, memory,
//!   GPU; feature `sys-metrics`).
//! - `processor/`: the event processors (re-exported at the crate root).

mod accuracy;
mod auroc;
mod base;
mod confusion;
mod host;
mod loss;
mod perplexity;
pub(crate) mod processor;
pub mod state;
pub mod store;
#[cfg(feature = "sys-metrics")]
mod sys;
mod training;

pub use accuracy::{AccuracyInput, AccuracyMetric, TopKAccuracyInput, TopKAccuracyMetric};
pub use auroc::AurocMetric;
pub use base::{
    Adaptor, Metric, MetricAttributes, MetricDefinition, MetricEntry, MetricId, MetricMetadata,
    MetricName, Numeric, NumericAttributes, NumericEntry, SerializedEntry, format_float,
};
pub use confusion::{
    ClassReduction, ConfusionStatsInput, DecisionRule, FBetaScoreMetric, PrecisionMetric,
    RecallMetric,
};
pub use loss::{LossInput, LossMetric};
pub use perplexity::{PerplexityInput, PerplexityMetric};
pub use processor::ItemLazy;
#[cfg(feature = "sys-metrics")]
pub use sys::{CpuMemory, CpuUse, CudaMetric};
pub use training::{IterationSpeedMetric, LearningRateMetric};
