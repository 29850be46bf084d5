//! Checkpoints: saving the model, optimizer and scheduler state at the end
//! of an epoch, and loading it back to resume.
//!
//! [`Checkpoint`] is what can be saved to a file and loaded back: the three
//! record types ([`ModuleRecord`], [`OptimizerRecord`],
//! [`LrSchedulerRecord`]) and `()`, the state of something stateless. A
//! [`Checkpointer`] saves one kind of record per epoch; [`FileCheckpointer`]
//! writes `{name}-{epoch}.bpk` in its directory (a run's default
//! checkpointers use `{experiment}/checkpoint/` with the names `model`,
//! `optim` and `scheduler`). An [`AsyncCheckpointer`] writes on a thread of
//! its own, so training goes on while a checkpoint is written.
//!
//! A [`CheckpointingStrategy`] decides after each epoch what to save and
//! what to delete: [`KeepLastNCheckpoints`], [`MetricCheckpointingStrategy`]
//! (keep the best epoch of a metric), or several at once with
//! [`ComposedCheckpointingStrategy`].
//!
//! Every record type writes a scratch file and renames it over the target
//! only once it is complete, so a crash or an interrupt never leaves a
//! truncated checkpoint: a file named `{name}-{epoch}.bpk` is whole.

mod async_checkpointer;
mod strategy;

pub use async_checkpointer::AsyncCheckpointer;
pub use strategy::{
    CheckpointingAction, CheckpointingStrategy, ComposedCheckpointingStrategy,
    ComposedCheckpointingStrategyBuilder, KeepLastNCheckpoints, MetricCheckpointingStrategy,
};

use std::path::{Path, PathBuf};
use std::string::String;

use burn_core::record::{ModuleRecord, RecordError};
use burn_optim::{LrSchedulerRecord, OptimError, OptimizerRecord};
use burn_std::Bytes;

/// Why a checkpoint could not be saved, restored or deleted.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointerError {
    /// A file or directory operation failed.
    #[error("checkpoint I/O: {0}")]
    IOError(#[source] std::io::Error),
    /// A module record could not be written or read.
    #[error("checkpoint record: {0}")]
    Record(#[source] RecordError),
    /// An optimizer or scheduler record could not be written or read.
    #[error("checkpoint record: {0}")]
    Optim(#[source] OptimError),
    /// Anything else (a checkpointer thread that went away).
    #[error("checkpoint: {0}")]
    Unknown(String),
}

/// State that can be written to a checkpoint file and read back.
///
/// Records hold no device: a restored model keeps its parameters' devices,
/// and an optimizer's state moves to each parameter's device on the next
/// step.
pub trait Checkpoint: Sized + Send + 'static {
    /// Writes the state to `path` (a `.bpk` file).
    ///
    /// # Errors
    /// When the file cannot be written.
    fn save(self, path: PathBuf) -> Result<(), CheckpointerError>;

    /// Reads the state back from `path`.
    ///
    /// # Errors
    /// When the file is missing or is not such a record.
    fn load(path: PathBuf) -> Result<Self, CheckpointerError>;

    /// The state from the bytes of a `.bpk` file.
    ///
    /// # Errors
    /// When the bytes are not such a record.
    fn checkpoint_from_bytes(bytes: Bytes) -> Result<Self, CheckpointerError>;

    /// The state as the bytes of a `.bpk` file.
    ///
    /// # Errors
    /// When the state cannot be encoded.
    fn checkpoint_into_bytes(self) -> Result<Bytes, CheckpointerError>;
}

impl Checkpoint for ModuleRecord {
    fn save(self, path: PathBuf) -> Result<(), CheckpointerError> {
        ModuleRecord::save(self, path).map_err(CheckpointerError::Record)
    }

    fn load(path: PathBuf) -> Result<Self, CheckpointerError> {
        ModuleRecord::load(path).map_err(CheckpointerError::Record)
    }

    fn checkpoint_from_bytes(bytes: Bytes) -> Result<Self, CheckpointerError> {
        ModuleRecord::from_bytes(bytes).map_err(CheckpointerError::Record)
    }

    fn checkpoint_into_bytes(self) -> Result<Bytes, CheckpointerError> {
        self.into_bytes().map_err(CheckpointerError::Record)
    }
}

impl Checkpoint for OptimizerRecord {
    fn save(self, path: PathBuf) -> Result<(), CheckpointerError> {
        OptimizerRecord::save(self, path).map_err(CheckpointerError::Optim)
    }

    fn load(path: PathBuf) -> Result<Self, CheckpointerError> {
        OptimizerRecord::load(path).map_err(CheckpointerError::Optim)
    }

    fn checkpoint_from_bytes(bytes: Bytes) -> Result<Self, CheckpointerError> {
        OptimizerRecord::from_bytes(bytes).map_err(CheckpointerError::Optim)
    }

    fn checkpoint_into_bytes(self) -> Result<Bytes, CheckpointerError> {
        self.into_bytes().map_err(CheckpointerError::Optim)
    }
}

impl Checkpoint for LrSchedulerRecord {
    fn save(self, path: PathBuf) -> Result<(), CheckpointerError> {
        LrSchedulerRecord::save(self, path).map_err(CheckpointerError::Optim)
    }

    fn load(path: PathBuf) -> Result<Self, CheckpointerError> {
        LrSchedulerRecord::load(path).map_err(CheckpointerError::Optim)
    }

    fn checkpoint_from_bytes(bytes: Bytes) -> Result<Self, CheckpointerError> {
        LrSchedulerRecord::from_bytes(bytes).map_err(CheckpointerError::Optim)
    }

    fn checkpoint_into_bytes(self) -> Result<Bytes, CheckpointerError> {
        self.into_bytes().map_err(CheckpointerError::Optim)
    }
}

/// Stateless: saving writes nothing and loading always succeeds.
impl Checkpoint for () {
    fn save(self, _path: PathBuf) -> Result<(), CheckpointerError> {
        Ok(())
    }

    fn load(_path: PathBuf) -> Result<Self, CheckpointerError> {
        Ok(())
    }

    fn checkpoint_from_bytes(_bytes: Bytes) -> Result<Self, CheckpointerError> {
        Ok(())
    }

    fn checkpoint_into_bytes(self) -> Result<Bytes, CheckpointerError> {
        Ok(Bytes::from_vec(std::vec::Vec::new()))
    }
}

/// Saves and restores one kind of state, one checkpoint per epoch.
pub trait Checkpointer<R: Checkpoint>: Send + Sync {
    /// Saves `record` as the checkpoint of `epoch`.
    ///
    /// # Errors
    /// When the checkpoint cannot be written.
    fn save(&self, epoch: usize, record: R) -> Result<(), CheckpointerError>;

    /// Deletes the checkpoint of `epoch` (nothing to do if there is none).
    ///
    /// # Errors
    /// When an existing checkpoint cannot be removed.
    fn delete(&self, epoch: usize) -> Result<(), CheckpointerError>;

    /// Loads the checkpoint of `epoch`.
    ///
    /// # Errors
    /// When there is none or it cannot be read.
    fn restore(&self, epoch: usize) -> Result<R, CheckpointerError>;
}

/// Writes each epoch's checkpoint to `{directory}/{name}-{epoch}.bpk`.
///
/// ```
/// use burn_train::checkpoint::{Checkpointer, FileCheckpointer};
/// use burn_optim::LrSchedulerRecord;
///
/// let dir = std::env::temp_dir().join(format!("burn-train-doc-{}", std::process::id()));
/// let checkpointer = FileCheckpointer::new(&dir, "scheduler");
/// checkpointer.save(3, LrSchedulerRecord::new().with_scalar("step", 42u64))?;
/// assert!(dir.join("scheduler-3.bpk").is_file());
///
/// let record: LrSchedulerRecord = checkpointer.restore(3)?;
/// assert_eq!(record.get("step").map(|s| s.elem::<u64>()), Some(42));
/// Checkpointer::<LrSchedulerRecord>::delete(&checkpointer, 3)?;
/// assert!(!dir.join("scheduler-3.bpk").exists());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FileCheckpointer {
    directory: PathBuf,
    name: String,
}

impl FileCheckpointer {
    /// A checkpointer writing `{directory}/{name}-{epoch}.bpk`; the
    /// directory is created on the first save.
    pub fn new(directory: impl AsRef<Path>, name: &str) -> Self {
        Self {
            directory: directory.as_ref().to_path_buf(),
            name: name.to_string(),
        }
    }

    /// The file of `epoch`'s checkpoint.
    pub fn path(&self, epoch: usize) -> PathBuf {
        self.directory.join(format!("{}-{epoch}.bpk", self.name))
    }
}

impl<R: Checkpoint> Checkpointer<R> for FileCheckpointer {
    fn save(&self, epoch: usize, record: R) -> Result<(), CheckpointerError> {
        std::fs::create_dir_all(&self.directory).map_err(CheckpointerError::IOError)?;
        record.save(self.path(epoch))
    }

    fn delete(&self, epoch: usize) -> Result<(), CheckpointerError> {
        match std::fs::remove_file(self.path(epoch)) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(CheckpointerError::IOError(error))
            }
            _ => Ok(()),
        }
    }

    fn restore(&self, epoch: usize) -> Result<R, CheckpointerError> {
        R::load(self.path(epoch))
    }
}
