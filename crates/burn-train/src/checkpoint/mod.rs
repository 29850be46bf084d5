//! Checkpoints: saving the model, optimizer and scheduler state at the end
//! of each epoch, and loading it back to resume.
//!
//! [`Checkpoint`] is what can be saved to a file and loaded back: the three
//! record types ([`ModuleRecord`], [`OptimizerRecord`],
//! [`LrSchedulerRecord`]) and `()`, the state of something stateless (a
//! constant learning rate), which writes nothing. A [`Checkpointer`] saves
//! one kind of record per epoch; [`FileCheckpointer`] writes
//! `{name}-{epoch}.bpk` in its directory (the learner uses
//! `{experiment}/checkpoint/` with the names `model`, `optim` and
//! `scheduler`).
//!
//! Every record type writes a scratch file and renames it over the target
//! only once it is complete, so a crash or an interrupt never leaves a
//! truncated checkpoint: a file named `{name}-{epoch}.bpk` is whole.

use std::path::{Path, PathBuf};
use std::string::String;

use burn_core::record::{ModuleRecord, RecordError};
use burn_optim::{LrSchedulerRecord, OptimError, OptimizerRecord};

/// Why a checkpoint could not be saved, loaded or deleted.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A module record could not be written or read.
    #[error("checkpoint `{path}`: {source}")]
    Module {
        /// The checkpoint file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: RecordError,
    },
    /// An optimizer or scheduler record could not be written or read.
    #[error("checkpoint `{path}`: {source}")]
    Optim {
        /// The checkpoint file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: OptimError,
    },
    /// A file or directory operation failed.
    #[error("checkpoint `{path}`: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
}

/// State that can be written to a checkpoint file and read back.
pub trait Checkpoint: Sized {
    /// Writes the state to `path` (a `.bpk` file).
    fn save(self, path: &Path) -> Result<(), CheckpointError>;

    /// Reads the state back from `path`.
    fn load(path: &Path) -> Result<Self, CheckpointError>;

    /// Whether the state writes a file (`()` does not).
    fn has_file() -> bool {
        true
    }
}

impl Checkpoint for ModuleRecord {
    fn save(self, path: &Path) -> Result<(), CheckpointError> {
        ModuleRecord::save(self, path).map_err(|source| CheckpointError::Module {
            path: path.to_path_buf(),
            source,
        })
    }

    fn load(path: &Path) -> Result<Self, CheckpointError> {
        ModuleRecord::load(path).map_err(|source| CheckpointError::Module {
            path: path.to_path_buf(),
            source,
        })
    }
}

impl Checkpoint for OptimizerRecord {
    fn save(self, path: &Path) -> Result<(), CheckpointError> {
        OptimizerRecord::save(self, path).map_err(|source| optim_error(path, source))
    }

    fn load(path: &Path) -> Result<Self, CheckpointError> {
        OptimizerRecord::load(path).map_err(|source| optim_error(path, source))
    }
}

impl Checkpoint for LrSchedulerRecord {
    fn save(self, path: &Path) -> Result<(), CheckpointError> {
        LrSchedulerRecord::save(self, path).map_err(|source| optim_error(path, source))
    }

    fn load(path: &Path) -> Result<Self, CheckpointError> {
        LrSchedulerRecord::load(path).map_err(|source| optim_error(path, source))
    }
}

/// Stateless: saving writes nothing and loading always succeeds.
impl Checkpoint for () {
    fn save(self, _path: &Path) -> Result<(), CheckpointError> {
        Ok(())
    }

    fn load(_path: &Path) -> Result<Self, CheckpointError> {
        Ok(())
    }

    fn has_file() -> bool {
        false
    }
}

fn optim_error(path: &Path, source: OptimError) -> CheckpointError {
    CheckpointError::Optim {
        path: path.to_path_buf(),
        source,
    }
}

/// Saves and restores one kind of state, one checkpoint per epoch.
pub trait Checkpointer<R: Checkpoint> {
    /// Saves `record` as the checkpoint of `epoch`.
    fn save(&self, epoch: usize, record: R) -> Result<(), CheckpointError>;

    /// Loads the checkpoint of `epoch`.
    fn restore(&self, epoch: usize) -> Result<R, CheckpointError>;

    /// Deletes the checkpoint of `epoch` (nothing to do if there is none).
    fn delete(&self, epoch: usize) -> Result<(), CheckpointError>;
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
    pub fn new(directory: impl AsRef<Path>, name: impl Into<String>) -> Self {
        Self {
            directory: directory.as_ref().to_path_buf(),
            name: name.into(),
        }
    }

    /// The file of `epoch`'s checkpoint.
    pub fn path(&self, epoch: usize) -> PathBuf {
        self.directory.join(format!("{}-{epoch}.bpk", self.name))
    }
}

impl<R: Checkpoint> Checkpointer<R> for FileCheckpointer {
    fn save(&self, epoch: usize, record: R) -> Result<(), CheckpointError> {
        if R::has_file() {
            std::fs::create_dir_all(&self.directory).map_err(|source| CheckpointError::Io {
                path: self.directory.clone(),
                source,
            })?;
        }
        record.save(&self.path(epoch))
    }

    fn restore(&self, epoch: usize) -> Result<R, CheckpointError> {
        R::load(&self.path(epoch))
    }

    fn delete(&self, epoch: usize) -> Result<(), CheckpointError> {
        let path = self.path(epoch);
        match std::fs::remove_file(&path) {
            Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
                Err(CheckpointError::Io { path, source })
            }
            _ => Ok(()),
        }
    }
}
