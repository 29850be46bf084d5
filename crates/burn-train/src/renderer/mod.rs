//! Renderers: how a person follows training and evaluation.
//!
//! A [`MetricsRenderer`] learns of every metric when a run starts
//! ([`register_metric`](MetricsRenderer::register_metric)), receives each
//! metric update ([`MetricsRendererTraining`], [`MetricsRendererEvaluation`])
//! and follows the progress as a progress logger
//! ([`TrainingProgressLogger`], [`EvaluationProgressLogger`]). Two ship
//! here:
//!
//! - [`CliMetricsRenderer`]: plain lines on stdout, for logs, pipes and CI
//!   (a progress line every few seconds and a line per pass with its epoch
//!   values);
//! - [`tui::TuiMetricsRendererWrapper`] (feature `tui`): the ratatui
//!   dashboard, with live plots of the training and validation metrics,
//!   progress bars, the arrow keys to pick a metric and the span of
//!   history, and `q` to stop cleanly.
//!
//! [`default_renderer`] picks the dashboard when the `tui` feature is on and
//! stdout is a terminal, and the text otherwise.

mod cli;
#[cfg(feature = "tui")]
pub mod tui;

pub use cli::CliMetricsRenderer;

use std::boxed::Box;
use std::string::String;
use std::sync::Arc;

use crate::learner::Interrupter;
use crate::learner::LearnerSummary;
use crate::logger::{EvaluationProgressLogger, TrainingProgressLogger};
use crate::metric::{MetricDefinition, MetricEntry, NumericEntry};

/// A metric update as a renderer receives it.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricState {
    /// A text metric's entry.
    Generic(MetricEntry),
    /// A numeric metric's entry and the value to plot, if it has one for
    /// this update ([`NumericEntry::Final`] at the end of a pass: the
    /// epoch value).
    Numeric(MetricEntry, Option<NumericEntry>),
}

impl MetricState {
    /// The update's entry.
    pub fn entry(&self) -> &MetricEntry {
        match self {
            MetricState::Generic(entry) | MetricState::Numeric(entry, _) => entry,
        }
    }
}

/// The name of an evaluation (a test set), grouping its metrics.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EvaluationName {
    pub(crate) name: Arc<String>,
}

impl EvaluationName {
    /// The name `name` (anything that displays).
    pub fn new<S: core::fmt::Display>(name: S) -> Self {
        Self {
            name: Arc::new(name.to_string()),
        }
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.name
    }
}

impl core::fmt::Display for EvaluationName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name)
    }
}

/// Prints the summary, if there is one.
fn print_summary(summary: Option<LearnerSummary>) {
    if let Some(summary) = summary {
        println!("{summary}");
    }
}

/// What a renderer shows of training.
pub trait MetricsRendererTraining: Send + Sync {
    /// A training metric was updated.
    fn update_train(&mut self, state: MetricState);

    /// A validation metric was updated.
    fn update_valid(&mut self, state: MetricState);

    /// Training ended (finished, stopped or failed): release the screen and
    /// show `summary` (by default, print it).
    ///
    /// # Errors
    /// When the screen cannot be given back.
    fn on_train_end(
        &mut self,
        summary: Option<LearnerSummary>,
    ) -> Result<(), Box<dyn core::error::Error>> {
        print_summary(summary);
        Ok(())
    }
}

/// What a renderer shows of an evaluation.
pub trait MetricsRendererEvaluation: Send + Sync {
    /// A metric of evaluation `name` was updated.
    fn update_test(&mut self, name: EvaluationName, state: MetricState);

    /// The evaluation ended: release the screen and show `summary` (by
    /// default, print it).
    ///
    /// # Errors
    /// When the screen cannot be given back.
    fn on_test_end(
        &mut self,
        summary: Option<LearnerSummary>,
    ) -> Result<(), Box<dyn core::error::Error>> {
        print_summary(summary);
        Ok(())
    }
}

/// A renderer for training and evaluation: it receives the metric updates
/// and follows the progress of both.
pub trait MetricsRenderer:
    MetricsRendererEvaluation
    + MetricsRendererTraining
    + TrainingProgressLogger
    + EvaluationProgressLogger
{
    /// Keeps the display until the user closes it (the dashboard waits for
    /// `q`); the text renderer has nothing to keep.
    fn manual_close(&mut self);

    /// A metric of the run, before its first update.
    fn register_metric(&mut self, definition: MetricDefinition);
}

/// The dashboard when the `tui` feature is on and stdout is a terminal, the
/// text renderer otherwise. The dashboard stops training through
/// `interrupter` when the user presses `q`; `checkpoint` is the epoch a
/// resumed run starts after.
pub fn default_renderer(
    interrupter: Interrupter,
    checkpoint: Option<usize>,
) -> Box<dyn MetricsRenderer> {
    #[cfg(feature = "tui")]
    {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() {
            return Box::new(tui::TuiMetricsRendererWrapper::new(interrupter, checkpoint));
        }
    }
    let _ = (interrupter, checkpoint);
    Box::new(CliMetricsRenderer::new())
}
