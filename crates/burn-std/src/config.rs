//! [`BurnConfig`]: the run-time configuration read from `burn.toml`.
//!
//! The file is looked for in the current directory and then in each
//! parent (`burn.toml`, else `Burn.toml`); a missing file means the
//! defaults. Sections this crate does not know (`[cubecl]`, `[cubek]`, …)
//! are ignored, so one file can configure several libraries.
//!
//! What acts on it: nothing yet. The sections are Burn's (`fusion`,
//! `autodiff`, `remote`) so that a user's file and code carry over, but
//! this workspace has no fusion or remote backend and its autodiff does not
//! log; the values are parsed, validated and handed out by
//! [`config`] / [`BurnConfig::get`], and no behaviour depends on them.

use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// The global configuration: one per process, read on first use.
///
/// ```
/// use burn_std::config::BurnConfig;
///
/// let text = "[fusion.beam_search]\nmax_blocks = 3\n\n[autodiff.logger]\nlevel = \"basic\"\n\n[cubecl.autotune]\nlevel = \"full\"\n";
/// let config = BurnConfig::from_toml(text).unwrap();
/// assert_eq!(config.fusion().beam_search.max_blocks, 3);
/// assert_eq!(config.autodiff().logger.level, burn_std::config::LogLevel::Basic);
/// assert!(BurnConfig::from_toml("[fusion]\nmax_graph_size = \"big\"\n").is_err());
/// ```
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BurnConfig {
    #[serde(default)]
    fusion: FusionConfig,
    #[serde(default)]
    autodiff: AutodiffConfig,
    #[serde(default)]
    remote: RemoteConfig,
}

/// The `[fusion]` section.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct FusionConfig {
    /// `[fusion.logger]`.
    pub logger: LoggerConfig,
    /// `[fusion.beam_search]`.
    pub beam_search: BeamSearchConfig,
    /// The largest graph fused at once (`None`: no limit).
    pub max_graph_size: Option<usize>,
    /// Operations a graph may grow without improving before it is cut.
    pub growth_patience: usize,
}

impl Default for FusionConfig {
    fn default() -> Self {
        Self {
            logger: LoggerConfig::default(),
            beam_search: BeamSearchConfig::default(),
            max_graph_size: None,
            growth_patience: 32,
        }
    }
}

/// The `[fusion.beam_search]` section.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct BeamSearchConfig {
    /// Blocks kept per step of the search.
    pub max_blocks: usize,
    /// Explorations before the search stops (`None`: no limit).
    pub max_explorations: Option<usize>,
}

impl Default for BeamSearchConfig {
    fn default() -> Self {
        Self {
            max_blocks: 5,
            max_explorations: None,
        }
    }
}

/// The `[autodiff]` section.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AutodiffConfig {
    /// `[autodiff.logger]`.
    pub logger: LoggerConfig,
}

/// The `[remote]` section.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct RemoteConfig {
    /// `[remote.logger]`.
    pub logger: LoggerConfig,
    /// Operations queued before the client flushes.
    pub flush_threshold: usize,
    /// Bytes queued before the client flushes.
    pub flush_bytes_threshold: usize,
}

impl Default for RemoteConfig {
    fn default() -> Self {
        Self {
            logger: LoggerConfig::default(),
            flush_threshold: 4,
            flush_bytes_threshold: 1024 * 1024,
        }
    }
}

/// A `logger` table: how much to log and where.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LoggerConfig {
    /// How much to log.
    pub level: LogLevel,
    /// A file to log to.
    pub file: Option<PathBuf>,
    /// Append to `file` instead of truncating it.
    pub append: bool,
    /// Log to stdout.
    pub stdout: bool,
    /// Log to stderr.
    pub stderr: bool,
}

/// How much a subsystem logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Nothing.
    #[default]
    Disabled,
    /// A summary.
    Basic,
    /// More detail.
    Medium,
    /// Everything.
    Full,
}

/// The configuration in use, once read or set.
static GLOBAL: Mutex<Option<Arc<BurnConfig>>> = Mutex::new(None);

/// Why a configuration file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML for the known sections.
    #[error("{origin}: {message}")]
    Parse {
        /// The file, or `<string>`.
        origin: String,
        /// The parser's message (it names the line and the key).
        message: String,
    },
}

impl BurnConfig {
    /// The `[fusion]` section.
    pub fn fusion(&self) -> &FusionConfig {
        &self.fusion
    }

    /// The `[autodiff]` section.
    pub fn autodiff(&self) -> &AutodiffConfig {
        &self.autodiff
    }

    /// The `[remote]` section.
    pub fn remote(&self) -> &RemoteConfig {
        &self.remote
    }

    /// Parses the text of a `burn.toml`.
    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        Self::parse(text, "<string>")
    }

    fn parse(text: &str, origin: &str) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|err| ConfigError::Parse {
            origin: origin.into(),
            message: err.to_string(),
        })
    }

    /// Reads the file at `path`.
    pub fn from_file_path(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The first `burn.toml` (or `Burn.toml`) in the current directory or
    /// a parent, or the defaults when there is none.
    ///
    /// # Panics
    /// If the file found cannot be read or parsed (the message names it):
    /// a configuration that is silently ignored is worse than none.
    pub fn from_current_dir() -> Self {
        let Ok(start) = std::env::current_dir() else {
            return Self::default();
        };
        for dir in start.ancestors() {
            for name in ["burn.toml", "Burn.toml"] {
                let path = dir.join(name);
                if path.is_file() {
                    return Self::from_file_path(&path)
                        .unwrap_or_else(|err| panic!("BurnConfig: {err}"));
                }
            }
        }
        Self::default()
    }

    /// The configuration in use: the one [`set`](Self::set), else read by
    /// [`from_current_dir`](Self::from_current_dir) on the first call.
    pub fn get() -> Arc<Self> {
        let mut global = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
        global
            .get_or_insert_with(|| Arc::new(Self::from_current_dir()))
            .clone()
    }

    /// Makes `config` the one in use.
    ///
    /// # Panics
    /// If a configuration was already read or set: code that read the
    /// first one would not see the change.
    pub fn set(config: Self) {
        assert!(
            Self::try_set(config),
            "BurnConfig::set: the configuration was already read or set; set it before any use"
        );
    }

    /// [`set`](Self::set), returning `false` (and changing nothing) if a
    /// configuration was already read or set.
    pub fn try_set(config: Self) -> bool {
        let mut global = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
        if global.is_some() {
            return false;
        }
        *global = Some(Arc::new(config));
        true
    }
}

std::thread_local! {
    static LOCAL: std::cell::OnceCell<Arc<BurnConfig>> = const { std::cell::OnceCell::new() };
}

/// The configuration in use ([`BurnConfig::get`]), cached per thread so
/// later calls only clone an `Arc`. Safe because the configuration cannot
/// change once read.
pub fn config() -> Arc<BurnConfig> {
    LOCAL.with(|cell| cell.get_or_init(BurnConfig::get).clone())
}
