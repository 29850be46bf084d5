//! Loggers: where the values and the progress of a run go besides the
//! screen.
//!
//! - [`MetricLogger`] records metric updates and reads epoch values back
//!   (what early stopping and checkpoint selection ask for):
//!   [`FileMetricLogger`], the default, writes one file per metric and
//!   epoch; [`InMemoryMetricLogger`] keeps them in memory.
//! - [`TrainingProgressLogger`] and [`EvaluationProgressLogger`] follow the
//!   progress of a run (epochs, passes, batches); a renderer is one, and
//!   `SupervisedTraining::with_progress_logger` adds another.
//! - [`Logger`] is the plain sink the file loggers write through.

mod metric;
mod progress;

pub use metric::{FileMetricLogger, InMemoryMetricLogger, MetricLogger};
pub use progress::{EvaluationProgressLogger, ProgressSnapshot, TrainingProgressLogger};

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::string::String;
use std::vec::Vec;

/// A sink of items.
pub trait Logger<T>: Send {
    /// Records `item`.
    fn log(&mut self, item: T);
}

/// Writes each item on its own line of a file (created, or truncated, when
/// the logger is made; buffered, flushed on drop and by
/// [`flush`](FileLogger::flush)).
#[derive(Debug)]
pub struct FileLogger {
    writer: Option<BufWriter<File>>,
}

impl FileLogger {
    /// A logger writing to `path`, creating its directory.
    ///
    /// A file that cannot be created leaves a logger that drops every item
    /// and says so once on stderr: a run is not stopped for a log file.
    pub fn new(path: impl AsRef<Path>) -> Self {
        let path = path.as_ref();
        let file = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| File::create(path));
        match file {
            Ok(file) => Self {
                writer: Some(BufWriter::new(file)),
            },
            Err(error) => {
                eprintln!("burn-train: cannot write `{}`: {error}", path.display());
                Self { writer: None }
            }
        }
    }

    /// Writes what is buffered.
    pub fn flush(&mut self) {
        if let Some(writer) = &mut self.writer {
            let _ = writer.flush();
        }
    }
}

impl<T: core::fmt::Display> Logger<T> for FileLogger {
    fn log(&mut self, item: T) {
        if let Some(writer) = &mut self.writer
            && writeln!(writer, "{item}").is_err()
        {
            self.writer = None;
        }
    }
}

/// Keeps each item as a line of text.
#[derive(Clone, Debug, Default)]
pub struct InMemoryLogger {
    /// The lines, in order.
    pub values: Vec<String>,
}

impl<T: core::fmt::Display> Logger<T> for InMemoryLogger {
    fn log(&mut self, item: T) {
        self.values.push(item.to_string());
    }
}
