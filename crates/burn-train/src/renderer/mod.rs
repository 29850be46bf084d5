//! Renderers: how a person follows training.
//!
//! The learner hands a [`MetricsRenderer`] every metric update and, after
//! each batch, where training stands ([`TrainingProgress`]). Two ship here:
//!
//! - [`TextRenderer`]: plain lines on stdout, for logs, pipes and CI (a
//!   progress line every few seconds and a summary line per epoch);
//! - `TuiRenderer` (feature `tui`): the ratatui dashboard, with live plots
//!   of the training and validation metrics, progress bars, the arrow keys
//!   to pick a metric and the span of history, and `q` to stop cleanly.
//!
//! [`default_renderer`] picks the dashboard when the `tui` feature is on and
//! stdout is a terminal, and text otherwise.

mod text;
#[cfg(feature = "tui")]
mod tui;

pub use text::TextRenderer;
#[cfg(feature = "tui")]
pub use tui::TuiRenderer;

use std::boxed::Box;
use std::string::String;
use std::vec::Vec;

use crate::TrainingInterrupter;
use crate::metric::{MetricEntry, Progress};

/// Which part of an epoch an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// The training pass.
    Train,
    /// The validation pass.
    Valid,
}

impl Split {
    /// `"train"` or `"valid"` (also the log directory's name).
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Valid => "valid",
        }
    }
}

/// A metric update as a renderer receives it.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricState {
    /// A metric shown as text only.
    Generic(MetricEntry),
    /// A numeric metric: its entry and the batch's value, to plot.
    Numeric(MetricEntry, f64),
}

impl MetricState {
    /// The metric's entry.
    pub fn entry(&self) -> &MetricEntry {
        match self {
            MetricState::Generic(entry) | MetricState::Numeric(entry, _) => entry,
        }
    }
}

/// Where training stands after a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrainingProgress {
    /// Items processed in this epoch's current pass.
    pub progress: Progress,
    /// The epoch, from 1.
    pub epoch: usize,
    /// The number of epochs configured.
    pub epoch_total: usize,
    /// The iteration within the pass, from 1.
    pub iteration: usize,
}

/// The epoch values of the numeric metrics of one pass, in registration
/// order: `(name, value)`.
pub type EpochSummary = Vec<(String, f64)>;

/// Shows training to a person.
pub trait MetricsRenderer: Send {
    /// A training metric was updated.
    fn update_train(&mut self, state: MetricState);

    /// A validation metric was updated.
    fn update_valid(&mut self, state: MetricState);

    /// A training batch is done.
    fn render_train(&mut self, item: TrainingProgress);

    /// A validation batch is done.
    fn render_valid(&mut self, item: TrainingProgress);

    /// A pass of an epoch is done; `summary` holds its epoch values.
    fn on_epoch_end(&mut self, _split: Split, _epoch: usize, _summary: &EpochSummary) {}

    /// Training is over (finished, stopped early or interrupted): release
    /// the terminal.
    fn on_train_end(&mut self) {}
}

/// The dashboard when the `tui` feature is on and stdout is a terminal,
/// plain text otherwise. The dashboard asks `interrupter` to stop when the
/// user presses `q`.
pub fn default_renderer(interrupter: &TrainingInterrupter) -> Box<dyn MetricsRenderer> {
    #[cfg(feature = "tui")]
    {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() {
            return Box::new(TuiRenderer::new(interrupter.clone()));
        }
    }
    let _ = interrupter;
    Box::new(TextRenderer::new())
}
