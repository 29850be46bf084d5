//! The error type of every fallible reader in this crate.

use std::path::PathBuf;

/// What went wrong while reading, parsing, downloading or decoding data.
///
/// Every variant names the file (or URL) involved and, where it has one,
/// the line or field, so a message alone says where to look.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A CSV record could not be read or did not match the item type.
    #[error("{path}: CSV {}: {message}", line.map_or_else(|| "record".to_string(), |l| format!("line {l}")))]
    Csv {
        /// The CSV file.
        path: PathBuf,
        /// The 1-based line of the bad record, when the reader knows it.
        line: Option<u64>,
        /// What was wrong with it.
        message: String,
    },

    /// A line of a JSON-lines file is not valid JSON for the item type.
    #[error("{path}: JSON line {line}: {source}")]
    Json {
        /// The JSON-lines file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The parser's error (it names the column and the expected field).
        #[source]
        source: serde_json::Error,
    },

    /// A file's content does not follow its format (IDX, PGM, an image
    /// folder layout, a gzip stream, …).
    #[error("{path}: {reason}")]
    Malformed {
        /// The file or directory.
        path: PathBuf,
        /// What was expected and what was found.
        reason: String,
    },

    /// A file's checksum differs from the published one: a truncated or
    /// corrupted download.
    #[error("{path}: {algorithm} checksum {actual} does not match the expected {expected}")]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum algorithm (`MD5`).
        algorithm: &'static str,
        /// The published digest, in lowercase hex.
        expected: String,
        /// The digest of the file, in lowercase hex.
        actual: String,
    },

    /// A file could not be downloaded from any of its mirrors.
    #[error("could not download {file}: {reason}")]
    Download {
        /// The file that was wanted.
        file: String,
        /// Each mirror tried and why it failed.
        reason: String,
    },

    /// An error of another kind, from a dataset of the user's or a source
    /// with its own error type (wrapped with [`DatasetError::new`]).
    #[error(transparent)]
    Other(Box<dyn std::error::Error + Send + Sync + 'static>),
}

impl DatasetError {
    /// Wraps any error, e.g. `result.map_err(DatasetError::new)?` in the
    /// `get` of a dataset whose source has an error type of its own. The
    /// message and `source()` are those of `error`.
    pub fn new<E>(error: E) -> Self
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::Other(Box::new(error))
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn malformed(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Self::Malformed {
            path: path.into(),
            reason: reason.into(),
        }
    }
}
