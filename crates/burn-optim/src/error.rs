//! [`OptimError`]: why an optimizer or scheduler record could not be read,
//! written or applied.

use std::string::String;

/// Why a record could not be read, written, or turned back into state.
#[derive(Debug, thiserror::Error)]
pub enum OptimError {
    /// A field the state needs is not in the record.
    #[error("the record has no {kind} `{key}`")]
    MissingField {
        /// The full key (`"{param_id}.{field}"` for an optimizer record).
        key: String,
        /// `"tensor"` or `"scalar"`.
        kind: &'static str,
    },
    /// A recorded tensor does not have the rank the state expects.
    #[error("tensor `{key}` of the record has rank {found}, the state expects rank {expected}")]
    RankMismatch {
        /// The full key.
        key: String,
        /// The rank the state's type fixes.
        expected: usize,
        /// The recorded rank.
        found: usize,
    },
    /// A key of an optimizer record does not start with a parameter id.
    #[error("key `{key}` of the optimizer record does not start with a parameter id")]
    BadKey {
        /// The key.
        key: String,
    },
    /// A parameter's state in the record has no `__rank` scalar.
    #[error("the state of parameter {param_id} has no `__rank` scalar")]
    MissingRank {
        /// The parameter id, as written in keys.
        param_id: String,
    },
    /// The burnpack file or bytes could not be read or written.
    #[error(transparent)]
    Pack(#[from] burn_pack::Error),
    /// A pack tensor's bytes do not match its shape and dtype.
    #[error("tensor `{key}` of the pack is corrupt: {source}")]
    Corrupt {
        /// The tensor's name.
        key: String,
        /// The mismatch.
        #[source]
        source: burn_std::DataError,
    },
}
