//! Configurations: serializable structs that describe a module's structure
//! and hyperparameters (a record holds its weights), derived with
//! `#[derive(Config)]`.
//!
//! ```
//! use burn_core as burn;
//! use burn::config::Config;
//!
//! #[derive(Config, Debug, PartialEq)]
//! pub struct MlpConfig {
//!     pub d_input: usize,
//!     pub d_output: usize,
//!     #[config(default = 0.1)]
//!     pub dropout: f64,
//!     pub hidden: Option<usize>,
//! }
//!
//! let config = MlpConfig::new(784, 10).with_hidden(Some(128));
//! assert_eq!(config.dropout, 0.1);
//!
//! let json = config.to_json();
//! assert_eq!(MlpConfig::from_json(&json).unwrap(), config);
//! // Defaulted and optional fields may be left out.
//! let loaded = MlpConfig::from_json(r#"{"d_input": 2, "d_output": 3}"#).unwrap();
//! assert_eq!(loaded, MlpConfig::new(2, 3));
//! ```

use std::path::{Path, PathBuf};
use std::string::String;

/// `#[derive(Config)]`: see the [`Config`](trait@Config) trait and the
/// `burn-derive` crate.
pub use burn_derive::Config;

/// A configuration: `Clone`, serializable as JSON, savable to a file.
///
/// Derived with `#[derive(Config)]`, which also generates `new`, the
/// `with_*` builders and `Display` (the JSON text).
pub trait Config: serde::Serialize + serde::de::DeserializeOwned + Clone {
    /// The configuration as pretty-printed JSON.
    fn to_json(&self) -> String {
        serde_json::to_string_pretty(self)
            .expect("a derived Config serializes to JSON without error")
    }

    /// Reads a configuration from JSON text.
    fn from_json(json: &str) -> Result<Self, ConfigError> {
        serde_json::from_str(json).map_err(|source| ConfigError::Json { path: None, source })
    }

    /// Reads a configuration from JSON bytes.
    fn load_binary(data: &[u8]) -> Result<Self, ConfigError> {
        serde_json::from_slice(data).map_err(|source| ConfigError::Json { path: None, source })
    }

    /// Writes the configuration to `file` as pretty-printed JSON.
    fn save(&self, file: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(file, self.to_json())
    }

    /// Reads a configuration from the JSON file `file`.
    fn load(file: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = file.as_ref();
        let bytes = std::fs::read(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_slice(&bytes).map_err(|source| ConfigError::Json {
            path: Some(path.to_path_buf()),
            source,
        })
    }
}

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text is not valid JSON for this configuration (a required field
    /// missing, a value of the wrong type, …).
    #[error("invalid config{}: {source}", .path.as_ref().map(|p| format!(" in {}", p.display())).unwrap_or_default())]
    Json {
        /// The file, when the text came from one.
        path: Option<PathBuf>,
        /// The cause, with line and column.
        #[source]
        source: serde_json::Error,
    },
}

/// What `#[derive(Config)]` expands to refers to, whatever the user's own
/// dependencies.
#[doc(hidden)]
pub mod __private {
    pub use serde;

    /// Reads a field that is present, `null` included, as `Some`; with
    /// `#[serde(default)]` an absent one is `None`.
    pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        T::deserialize(deserializer).map(Some)
    }
}
