//! The progress loggers: [`TrainingProgressLogger`] and
//! [`EvaluationProgressLogger`].

use std::string::String;

use burn_core::data::dataloader::Progress;

/// Follows the progress of a training run.
///
/// The calls of a run, in order:
///
/// ```text
/// start(total_epochs, starting_epoch, total_items, label)
///   for each epoch:
///     start_split("train", progress)
///       update_split(progress)       once per batch
///     end_split(progress)
///     start_split("valid", progress)
///       update_split(progress)       once per batch
///     end_split(progress)
///     update_epoch(epoch)
/// end()
/// ```
///
/// `end_split` and `end` come also when a pass or the run stops early
/// (interrupted, failed). A renderer is a training progress logger;
/// `SupervisedTraining::with_progress_logger` adds one more.
pub trait TrainingProgressLogger: Send {
    /// The run starts at `starting_epoch` (after the epochs a resumed run
    /// skips) of `total_epochs`; `total_items` when it is known up front.
    fn start(
        &mut self,
        total_epochs: usize,
        starting_epoch: usize,
        total_items: Option<usize>,
        label: Option<&str>,
    );

    /// Both passes of `epoch` are done.
    fn update_epoch(&mut self, epoch: usize);

    /// A pass (`"train"` or `"valid"`) starts.
    fn start_split(&mut self, split: &str, progress: &Progress);

    /// A batch of the current pass is done.
    fn update_split(&mut self, progress: &Progress);

    /// The current pass ended, completed or not.
    fn end_split(&mut self, progress: &Progress);

    /// The run ended, completed or not.
    fn end(&mut self);

    /// Something else happened (`"Iteration"` after each batch).
    fn log_event_training(&mut self, event: String);
}

/// Follows the progress of an evaluation.
///
/// ```text
/// start_global_progress(total_tests)
///   for each named test set:
///     start_test(name, progress)
///       update_test_progress(progress)   once per batch
///     end_test(progress)
/// end_global_progress()
/// ```
pub trait EvaluationProgressLogger: Send {
    /// An evaluation of `total_tests` test sets starts.
    fn start_global_progress(&mut self, total_tests: usize);

    /// The test set `name` starts.
    fn start_test(&mut self, name: &str, progress: &Progress);

    /// A batch of the current test set is done.
    fn update_test_progress(&mut self, progress: &Progress);

    /// The current test set ended, completed or not.
    fn end_test(&mut self, progress: &Progress);

    /// The evaluation ended.
    fn end_global_progress(&mut self);

    /// Something else happened (`"Iteration"` after each batch).
    fn log_event_evaluation(&mut self, event: String);
}

/// Two levels of progress: the run (epochs, or test sets) and the current
/// pass (items).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Across the run.
    pub global: Progress,
    /// Within the current pass.
    pub split: Progress,
}

impl ProgressSnapshot {
    /// Bundles the two levels.
    pub fn new(global: Progress, split: Progress) -> Self {
        Self { global, split }
    }
}
