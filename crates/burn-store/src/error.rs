//! [`StoreError`]: one error enum for every store, naming the file, the
//! tensor and the problem.
//!
//! The policy: anything that comes from outside the program (a file, a
//! buffer, a module's tensors read back from a device) yields a
//! `StoreError`, never a panic. Programmer errors in code that builds a
//! store (an invalid regex given to a builder method) panic, documented on
//! the method, and each has a `try_` form where recovery makes sense.

use std::path::PathBuf;

use crate::ApplyResult;

/// Why a store could not read, write or apply tensors.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An I/O operation on a file failed.
    #[error("could not {action} `{}`: {source}", path.display())]
    Io {
        /// What was being done (`"open"`, `"map"`, `"write"`, …).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The burnpack container could not be read or written.
    #[error("burnpack {file}: {source}")]
    Pack {
        /// The file, or `<memory>`.
        file: String,
        /// What `burn-pack` reported.
        #[source]
        source: burn_pack::Error,
    },
    /// The SafeTensors header is malformed or lies about the data.
    #[cfg(feature = "safetensors")]
    #[error("safetensors {file}: {source}")]
    Safetensors {
        /// The file, or `<memory>`.
        file: String,
        /// What the `safetensors` crate reported.
        #[source]
        source: safetensors::SafeTensorError,
    },
    /// The PyTorch file is malformed, or uses what this reader refuses.
    #[cfg(feature = "pytorch")]
    #[error("pytorch {file}: {source}")]
    Pytorch {
        /// The file.
        file: String,
        /// The problem, with its position in the file where known.
        #[source]
        source: crate::pytorch::PytorchError,
    },
    /// A tensor of a dtype this store or Burn cannot represent.
    #[error("{file}: tensor `{tensor}` has dtype {dtype}, which {reason}")]
    UnsupportedDType {
        /// The file, or `<memory>`.
        file: String,
        /// The tensor.
        tensor: String,
        /// The dtype, as the file spells it.
        dtype: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A tensor's shape, strides and offset reach outside its bytes.
    #[error(
        "{file}: tensor `{tensor}` needs bytes up to {needed}, but its storage holds {available}"
    )]
    OutOfBounds {
        /// The file, or `<memory>`.
        file: String,
        /// The tensor.
        tensor: String,
        /// One past the last byte the view reads (saturated on overflow).
        needed: u64,
        /// The bytes available.
        available: u64,
    },
    /// Two tensors ended up with the same name (a remapping or split
    /// collision, or a file listing a name twice).
    #[error("{file}: two tensors are named `{name}`")]
    DuplicateName {
        /// The file, or `<memory>`.
        file: String,
        /// The name.
        name: String,
    },
    /// A split rule met a tensor it cannot split evenly.
    #[error(
        "tensor `{tensor}` of shape {shape:?} cannot be split into {parts} equal parts along dimension {dim}"
    )]
    Split {
        /// The tensor.
        tensor: String,
        /// Its shape.
        shape: Vec<usize>,
        /// The dimension.
        dim: usize,
        /// The number of parts asked for.
        parts: usize,
    },
    /// A transform composed onto a tensor (an adapter's cast, a reshape)
    /// failed when the data was read.
    #[error("tensor `{tensor}`: {message}")]
    Transform {
        /// The tensor.
        tensor: String,
        /// What went wrong.
        message: String,
    },
    /// A module tensor could not be read back from its device.
    #[error("tensor `{tensor}`: could not read it back from its device: {message}")]
    Readback {
        /// The module path of the tensor.
        tensor: String,
        /// The backend's message.
        message: String,
    },
    /// Loading left tensors missing, unused or mismatched, and the store's
    /// options make that an error. The result lists them all.
    #[error("{file}: the tensors do not fit the module\n{result}")]
    Apply {
        /// The file, or `<memory>`.
        file: String,
        /// What was applied, skipped, missing, unused and refused.
        result: Box<ApplyResult>,
    },
    /// The store cannot do this (a memory store with no bytes to load, saving
    /// through a read-only format).
    #[error("{0}")]
    Unsupported(&'static str),
}

impl StoreError {
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        StoreError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}
