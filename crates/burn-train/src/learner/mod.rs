//! The learner: [`LearnerBuilder`], [`Learner`], the step traits, early
//! stopping and the interrupter.
//!
//! ## Map
//! - `builder.rs`: [`LearnerBuilder`].
//! - `learner.rs`: [`Learner`], its `fit` loop, [`TrainingResult`],
//!   [`LearnerError`].
//! - `step.rs`: [`TrainStep`], [`ValidStep`], [`TrainOutput`],
//!   [`ClassificationOutput`], [`RegressionOutput`].
//! - `metrics.rs`: registered metrics, [`MetricHistory`], the log files.
//! - `early_stopping.rs`: [`MetricEarlyStoppingStrategy`] and friends.
//! - `interrupter.rs`: [`TrainingInterrupter`].

mod builder;
mod early_stopping;
mod interrupter;
#[allow(clippy::module_inception)]
mod learner;
mod metrics;
mod step;

pub use builder::LearnerBuilder;
pub use early_stopping::{
    Direction, EarlyStoppingStrategy, MetricEarlyStoppingStrategy, StoppingCondition,
};
pub use interrupter::TrainingInterrupter;
pub use learner::{Learner, LearnerError, TrainingResult};
pub use metrics::MetricHistory;
pub use step::{ClassificationOutput, RegressionOutput, TrainOutput, TrainStep, ValidStep};
