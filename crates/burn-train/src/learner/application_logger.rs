//! Capturing the `log` records of a run in a file: [`ApplicationLoggerInstaller`].

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Mutex;

/// Installs the process's logger for a run.
pub trait ApplicationLoggerInstaller {
    /// Installs it.
    ///
    /// # Errors
    /// When a logger is installed already (the `log` crate allows one per
    /// process) or the log cannot be opened.
    fn install(&self) -> Result<(), String>;
}

/// Writes the records of the `log` crate at level `info` and above to a
/// file (appended to), one line each: `LEVEL target: message`.
///
/// A run installs one by default, at `{experiment}/experiment.log`; only
/// the first install of a process takes (the `log` crate has one global
/// logger), and later runs keep writing to the first file.
#[derive(Clone, Debug)]
pub struct FileApplicationLoggerInstaller {
    path: PathBuf,
}

impl FileApplicationLoggerInstaller {
    /// An installer of a logger writing to `path`.
    pub fn new(path: impl AsRef<Path>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
        }
    }
}

struct FileLog {
    file: Mutex<File>,
}

impl log::Log for FileLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Info
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata())
            && let Ok(mut file) = self.file.lock()
        {
            let _ = writeln!(
                file,
                "{} {}: {}",
                record.level(),
                record.target(),
                record.args()
            );
        }
    }

    fn flush(&self) {
        if let Ok(mut file) = self.file.lock() {
            let _ = file.flush();
        }
    }
}

impl ApplicationLoggerInstaller for FileApplicationLoggerInstaller {
    fn install(&self) -> Result<(), String> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        log::set_boxed_logger(Box::new(FileLog {
            file: Mutex::new(file),
        }))
        .map_err(|_| "a logger is installed already".to_string())?;
        log::set_max_level(log::LevelFilter::Info);
        Ok(())
    }
}
