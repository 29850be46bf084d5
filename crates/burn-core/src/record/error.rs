//! [`RecordError`]: why a record could not be loaded, read or written.

use std::string::String;
use std::vec::Vec;

use burn_tensor::{DType, Shape};

/// Why a record could not be loaded into a module, or read or written.
///
/// Load errors name the parameters involved by path.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Module parameters the record has no tensor for (see
    /// [`allow_partial`](super::ModuleRecord::allow_partial)).
    #[error("the record has no tensor for these module parameters: {}", .paths.join(", "))]
    MissingTensors {
        /// The parameters' paths, in traversal order.
        paths: Vec<String>,
    },
    /// Record entries that match no module parameter (see
    /// [`allow_partial`](super::ModuleRecord::allow_partial)).
    #[error("the record has tensors that match no module parameter: {}", .paths.join(", "))]
    UnusedTensors {
        /// The entries' paths, in record order.
        paths: Vec<String>,
    },
    /// The recorded shape differs from the parameter's (see
    /// [`validate`](super::ModuleRecord::validate)).
    #[error("parameter `{path}`: the record holds shape {found}, the module expects {expected}")]
    ShapeMismatch {
        /// The parameter's path.
        path: String,
        /// The parameter's shape.
        expected: Shape,
        /// The recorded shape.
        found: Shape,
    },
    /// The recorded rank differs from the parameter's, which its type fixes.
    #[error(
        "parameter `{path}`: the record holds a tensor of rank {found}, the module parameter has rank {expected}"
    )]
    RankMismatch {
        /// The parameter's path.
        path: String,
        /// The parameter's rank.
        expected: usize,
        /// The recorded rank.
        found: usize,
    },
    /// The recorded dtype is of another kind than the parameter (float,
    /// int or bool), which its type fixes.
    #[error(
        "parameter `{path}`: the record holds {found} data, the module parameter is a {expected} tensor"
    )]
    KindMismatch {
        /// The parameter's path.
        path: String,
        /// The parameter's kind: `"float"`, `"int"` or `"bool"`.
        expected: &'static str,
        /// The recorded dtype.
        found: DType,
    },
    /// The dtype the parameter would get is not supported by its device
    /// (see [`DTypePolicy`](super::DTypePolicy) to keep the module's dtype).
    #[error("parameter `{path}`: device {device} does not support {dtype}")]
    UnsupportedDType {
        /// The parameter's path.
        path: String,
        /// The dtype.
        dtype: DType,
        /// The parameter's device.
        device: String,
    },
    /// The burnpack file or bytes could not be read or written (the error
    /// names the file and what failed).
    #[error(transparent)]
    Pack(#[from] burn_pack::Error),
    /// A pack tensor's bytes do not match its shape and dtype.
    #[error("tensor `{path}` of the pack is corrupt: {source}")]
    Corrupt {
        /// The tensor's name.
        path: String,
        /// The mismatch.
        #[source]
        source: burn_std::DataError,
    },
}
