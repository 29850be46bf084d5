//! [`ModuleRecord`]: a module's parameters as plain data, keyed by path.
//!
//! A record is a flat list of `(path, ParamId, TensorData)` entries, made by
//! [`Module::into_record`](crate::module::Module::into_record) and applied by
//! [`Module::load_record`](crate::module::Module::load_record). It holds no
//! backend type, so weights saved on one device load on another. Loading is
//! configured on the record with builder methods (ignored when saving):
//!
//! - [`allow_partial`](ModuleRecord::allow_partial): tolerate module
//!   parameters the record lacks (they keep their values) and record
//!   entries no parameter matches.
//! - [`validate`](ModuleRecord::validate): with `false`, shape mismatches,
//!   missing and unused tensors are all tolerated; a parameter takes the
//!   record's shape as it is.
//! - [`with_dtype_policy`](ModuleRecord::with_dtype_policy) /
//!   [`cast_to_module_dtype`](ModuleRecord::cast_to_module_dtype): whether a
//!   parameter takes the record's dtype ([`DTypePolicy::FromRecord`], the
//!   default) or keeps its own, the data being cast
//!   ([`DTypePolicy::CastToModule`]).
//!
//! A record is saved as a burnpack container ([`save`](ModuleRecord::save),
//! [`into_bytes`](ModuleRecord::into_bytes)): one tensor per entry, named by
//! its path, with its id. Paths and layouts follow Burn's `nn`, so records
//! move between the two. To save a module without holding a copy of every
//! parameter, skip the record:
//! [`Module::save_file`](crate::module::Module::save_file) streams the same
//! file one parameter at a time.
//!
//! A rank or kind mismatch (a matrix recorded for a vector, int data for a
//! float parameter) is always an error: the module's type cannot hold it.
//!
//! ## Map
//! - `mod.rs`: [`ModuleRecord`], [`RecordEntry`], [`DTypePolicy`].
//! - `pack.rs`: `save` / `load` (files, `.bpk` added when the path has no
//!   extension) and `into_bytes` / `from_bytes`, through `burn-pack`; the
//!   streaming save behind `Module::save_file`.
//! - `error.rs`: [`RecordError`].
//! - `traverse.rs`: the visitor that collects a record and the mapper that loads one.

mod error;
mod pack;
mod traverse;

pub use error::RecordError;
pub(crate) use pack::save_module;
pub(crate) use traverse::{Collector, Loader};

use std::string::String;
use std::vec::Vec;

use burn_tensor::TensorData;

use crate::module::ParamId;

/// One recorded parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordEntry {
    /// The parameter's module path (`"layers.0.weight"`).
    pub path: String,
    /// The parameter's identity.
    pub id: ParamId,
    /// The parameter's values, shape and dtype.
    pub data: TensorData,
}

/// Which dtype a loaded parameter gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DTypePolicy {
    /// The record's dtype: a module loaded from an f16 record computes in f16.
    #[default]
    FromRecord,
    /// The module parameter's current dtype; the record's data is cast to it.
    CastToModule,
}

/// A module's parameters, keyed by module path (see the [module docs](self)).
///
/// ```
/// use burn_core::module::ParamId;
/// use burn_core::record::{DTypePolicy, ModuleRecord};
/// use burn_core::tensor::TensorData;
///
/// let id = ParamId::new();
/// let mut record = ModuleRecord::new();
/// record.insert("linear.bias", id, TensorData::from([0.5f32, -0.5]));
///
/// let record = record.allow_partial(true).cast_to_module_dtype();
/// assert_eq!(record.get("linear.bias").unwrap().id, id);
/// assert_eq!(record.dtype_policy(), DTypePolicy::CastToModule);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleRecord {
    entries: Vec<RecordEntry>,
    allow_partial: bool,
    validate: bool,
    dtype_policy: DTypePolicy,
}

impl Default for ModuleRecord {
    fn default() -> Self {
        Self::new()
    }
}

impl ModuleRecord {
    /// An empty record with the default load options (strict, validated,
    /// dtype from the record).
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            allow_partial: false,
            validate: true,
            dtype_policy: DTypePolicy::FromRecord,
        }
    }

    /// A record of `entries` with the default load options; a later entry
    /// replaces an earlier one of the same path.
    pub fn from_entries(entries: impl IntoIterator<Item = RecordEntry>) -> Self {
        let mut record = Self::new();
        let mut index = std::collections::HashMap::<String, usize>::new();
        for entry in entries {
            match index.get(&entry.path) {
                Some(&i) => record.entries[i] = entry,
                None => {
                    index.insert(entry.path.clone(), record.entries.len());
                    record.entries.push(entry);
                }
            }
        }
        record
    }

    /// Appends an entry whose path the caller knows to be new.
    pub(crate) fn push_new(&mut self, entry: RecordEntry) {
        debug_assert!(
            self.get(&entry.path).is_none(),
            "duplicate path {}",
            entry.path
        );
        self.entries.push(entry);
    }

    /// Adds an entry, replacing (and returning) the one at the same path.
    pub fn insert(
        &mut self,
        path: impl Into<String>,
        id: ParamId,
        data: TensorData,
    ) -> Option<RecordEntry> {
        let entry = RecordEntry {
            path: path.into(),
            id,
            data,
        };
        match self.entries.iter_mut().find(|e| e.path == entry.path) {
            Some(slot) => Some(core::mem::replace(slot, entry)),
            None => {
                self.entries.push(entry);
                None
            }
        }
    }

    /// The entry at `path`.
    pub fn get(&self, path: &str) -> Option<&RecordEntry> {
        self.entries.iter().find(|e| e.path == path)
    }

    /// Removes and returns the entry at `path`.
    pub fn remove(&mut self, path: &str) -> Option<RecordEntry> {
        let index = self.entries.iter().position(|e| e.path == path)?;
        Some(self.entries.remove(index))
    }

    /// The entries, in traversal order for a record made by `into_record`.
    pub fn entries(&self) -> &[RecordEntry] {
        &self.entries
    }

    /// The entries, consuming the record.
    pub fn into_entries(self) -> Vec<RecordEntry> {
        self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Tolerate, when loading, module parameters the record lacks and
    /// entries no parameter matches.
    pub fn allow_partial(mut self, allow: bool) -> Self {
        self.allow_partial = allow;
        self
    }

    /// Check, when loading, that shapes match and that every tensor is used
    /// and provided (the default); `false` tolerates all three.
    pub fn validate(mut self, validate: bool) -> Self {
        self.validate = validate;
        self
    }

    /// Which dtype loaded parameters get.
    pub fn with_dtype_policy(mut self, policy: DTypePolicy) -> Self {
        self.dtype_policy = policy;
        self
    }

    /// Loaded parameters keep their dtype; the data is cast to it.
    pub fn cast_to_module_dtype(self) -> Self {
        self.with_dtype_policy(DTypePolicy::CastToModule)
    }

    /// Whether partial loads are allowed.
    pub fn is_partial_allowed(&self) -> bool {
        self.allow_partial
    }

    /// Whether loads are validated.
    pub fn is_validated(&self) -> bool {
        self.validate
    }

    /// The dtype policy of loads.
    pub fn dtype_policy(&self) -> DTypePolicy {
        self.dtype_policy
    }
}
