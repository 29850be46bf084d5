//! [`OptimizerRecord`] and [`LrSchedulerRecord`]: optimizer and scheduler
//! state as burnpack containers.
//!
//! An optimizer record is keyed per parameter: parameter `id`'s state
//! field `moment_1` is the tensor `"{id}.moment_1"` (the id as 16 hex
//! digits, also written as the pack tensor's `param_id`), its scalar
//! fields are pack scalars named the same way, and `"{id}.__rank"` is the
//! parameter's rank, so the state is rebuilt without guessing the rank from
//! tensor shapes (a scalar-only state has none to guess from).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use burn_core::module::ParamId;
use burn_std::{Bytes, Scalar};
use burn_tensor::TensorData;

use crate::optimizer::ParamState;
use crate::{ModuleOptimizer, OptimError, StateFields};

/// The scalar holding a parameter's rank.
const RANK_FIELD: &str = "__rank";

/// An optimizer's per-parameter state as plain data (see the
/// [module docs](self) for the keys).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptimizerRecord {
    /// Tensor entries, by key.
    pub tensors: BTreeMap<String, TensorData>,
    /// Scalar entries, by key.
    pub scalars: BTreeMap<String, Scalar>,
}

/// The key prefix of a parameter: its id as 16 hex digits.
fn param_prefix(id: ParamId) -> String {
    id.to_string()
}

impl ModuleOptimizer {
    /// The state of every parameter, as a record.
    pub fn to_record(&self) -> OptimizerRecord {
        let mut record = OptimizerRecord::default();
        for (id, state) in self.states() {
            let (rank, fields) = match state {
                ParamState::Live { state, rank, .. } => {
                    let mut fields = StateFields::default();
                    state.save("", &mut fields);
                    (*rank, fields)
                }
                ParamState::Recorded { rank, fields } => (*rank, fields.clone()),
            };
            let prefix = param_prefix(*id);
            for (field, data) in fields.tensors {
                record.tensors.insert(format!("{prefix}.{field}"), data);
            }
            for (field, value) in fields.scalars {
                record.scalars.insert(format!("{prefix}.{field}"), value);
            }
            record
                .scalars
                .insert(format!("{prefix}.{RANK_FIELD}"), Scalar::UInt(rank as u64));
        }
        record
    }

    /// Replaces the state with `record`'s. No device is needed: each
    /// parameter's state is rebuilt on that parameter's device by the next
    /// step that reaches it, which is also when it is checked against the
    /// optimizer (a mismatch panics there).
    ///
    /// # Panics
    /// If a key does not start with a parameter id, or a parameter has no
    /// `__rank` scalar (see [`try_load_record`](Self::try_load_record)).
    pub fn load_record(self, record: OptimizerRecord) -> Self {
        self.try_load_record(record)
            .unwrap_or_else(|err| panic!("load_record: {err}"))
    }

    /// As [`load_record`](Self::load_record), returning what is wrong with
    /// the record.
    pub fn try_load_record(mut self, record: OptimizerRecord) -> Result<Self, OptimError> {
        let mut fields: HashMap<ParamId, StateFields> = HashMap::new();
        for (key, data) in record.tensors {
            let (id, field) = split_key(&key)?;
            fields.entry(id).or_default().tensors.insert(field, data);
        }
        for (key, value) in record.scalars {
            let (id, field) = split_key(&key)?;
            fields.entry(id).or_default().scalars.insert(field, value);
        }
        let mut states = HashMap::new();
        for (id, mut fields) in fields {
            let rank = fields
                .scalars
                .remove(RANK_FIELD)
                .ok_or_else(|| OptimError::MissingRank {
                    param_id: param_prefix(id),
                })?
                .to_u64() as usize;
            states.insert(id, ParamState::Recorded { rank, fields });
        }
        self.set_states(states);
        Ok(self)
    }
}

/// `"{id}.{field}"` split into the id and the field.
fn split_key(key: &str) -> Result<(ParamId, String), OptimError> {
    let bad = || OptimError::BadKey { key: key.into() };
    let (id, field) = key.split_once('.').ok_or_else(bad)?;
    let id = u64::from_str_radix(id, 16).map_err(|_| bad())?;
    Ok((ParamId::from(id), field.into()))
}

impl OptimizerRecord {
    /// Writes the record to `path` as a burnpack file (`.bpk` added when the
    /// path has no extension), replacing the file only once the new one is
    /// complete.
    pub fn save(self, path: impl AsRef<Path>) -> Result<(), OptimError> {
        self.into_writer()
            .write_to_file(with_default_extension(path.as_ref()))?;
        Ok(())
    }

    /// Reads a record from the burnpack file at `path` (`.bpk` added when
    /// the path has no extension).
    pub fn load(path: impl AsRef<Path>) -> Result<Self, OptimError> {
        Self::from_reader(burn_pack::Reader::open(with_default_extension(
            path.as_ref(),
        ))?)
    }

    /// The record as burnpack bytes.
    pub fn into_bytes(self) -> Result<Bytes, OptimError> {
        Ok(self.into_writer().into_bytes()?)
    }

    /// Reads a record from burnpack bytes.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<Self, OptimError> {
        Self::from_reader(burn_pack::Reader::from_bytes(bytes.into())?)
    }

    fn into_writer(self) -> burn_pack::Writer {
        let tensors = self
            .tensors
            .into_iter()
            .map(|(key, data)| {
                let param_id = split_key(&key).ok().map(|(id, _)| id.val());
                let TensorData {
                    bytes,
                    shape,
                    dtype,
                } = data;
                let tensor = burn_pack::Tensor::new(key, dtype, shape, bytes);
                match param_id {
                    Some(id) => tensor.with_param_id(id),
                    None => tensor,
                }
            })
            .collect();
        let mut writer = burn_pack::Writer::new(tensors);
        for (key, value) in self.scalars {
            writer = writer.with_scalar(key, value);
        }
        writer
    }

    fn from_reader(reader: burn_pack::Reader) -> Result<Self, OptimError> {
        let scalars = reader.scalars().clone();
        let tensors = read_tensors(reader)?;
        Ok(Self { tensors, scalars })
    }
}

fn read_tensors(reader: burn_pack::Reader) -> Result<BTreeMap<String, TensorData>, OptimError> {
    reader
        .into_tensors()
        .into_iter()
        .map(|tensor| {
            let (key, shape, dtype) = (tensor.name.clone(), tensor.shape.clone(), tensor.dtype);
            let bytes = tensor.into_bytes()?;
            let data = TensorData::from_bytes(bytes, shape, dtype).map_err(|source| {
                OptimError::Corrupt {
                    key: key.clone(),
                    source,
                }
            })?;
            Ok((key, data))
        })
        .collect()
}

/// A learning rate scheduler's state: a few named scalars (step counters,
/// the current rate). A composed scheduler nests each child's record under
/// its index (`"0.step"`, `"1.step"`).
///
/// ```
/// use burn_optim::LrSchedulerRecord;
///
/// let child = LrSchedulerRecord::new().with_scalar("step", 3u64);
/// let record = LrSchedulerRecord::new().with_record(1, &child);
/// assert_eq!(record.get("1.step").unwrap().to_u64(), 3);
/// assert_eq!(record.record(1), child);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LrSchedulerRecord {
    /// The scalars, by name.
    pub scalars: BTreeMap<String, Scalar>,
}

impl LrSchedulerRecord {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    /// The record with the scalar `name` set.
    pub fn with_scalar(mut self, name: impl Into<String>, value: impl Into<Scalar>) -> Self {
        self.scalars.insert(name.into(), value.into());
        self
    }

    /// The scalar `name`.
    pub fn get(&self, name: &str) -> Option<Scalar> {
        self.scalars.get(name).copied()
    }

    /// The scalar `name`, or an error naming it.
    pub fn require(&self, name: &str) -> Result<Scalar, OptimError> {
        self.get(name).ok_or_else(|| OptimError::MissingField {
            key: name.into(),
            kind: "scalar",
        })
    }

    /// The record with `child`'s scalars nested under `"{index}."`.
    pub fn with_record(mut self, index: usize, child: &LrSchedulerRecord) -> Self {
        for (name, value) in &child.scalars {
            self.scalars.insert(format!("{index}.{name}"), *value);
        }
        self
    }

    /// The child record nested under `"{index}."`.
    pub fn record(&self, index: usize) -> LrSchedulerRecord {
        let prefix = format!("{index}.");
        let scalars = self
            .scalars
            .iter()
            .filter_map(|(name, value)| {
                name.strip_prefix(&prefix)
                    .map(|rest| (rest.to_string(), *value))
            })
            .collect();
        LrSchedulerRecord { scalars }
    }

    /// Writes the record to `path` as a burnpack file (`.bpk` added when the
    /// path has no extension).
    pub fn save(self, path: impl AsRef<Path>) -> Result<(), OptimError> {
        self.into_writer()
            .write_to_file(with_default_extension(path.as_ref()))?;
        Ok(())
    }

    /// Reads a record from the burnpack file at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, OptimError> {
        let reader = burn_pack::Reader::open(with_default_extension(path.as_ref()))?;
        Ok(Self {
            scalars: reader.scalars().clone(),
        })
    }

    /// The record as burnpack bytes.
    pub fn into_bytes(self) -> Result<Bytes, OptimError> {
        Ok(self.into_writer().into_bytes()?)
    }

    /// Reads a record from burnpack bytes.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<Self, OptimError> {
        let reader = burn_pack::Reader::from_bytes(bytes.into())?;
        Ok(Self {
            scalars: reader.scalars().clone(),
        })
    }

    fn into_writer(self) -> burn_pack::Writer {
        let mut writer = burn_pack::Writer::new(Vec::new());
        for (key, value) in self.scalars {
            writer = writer.with_scalar(key, value);
        }
        writer
    }
}

/// `path`, with `.bpk` appended when it has no extension.
fn with_default_extension(path: &Path) -> PathBuf {
    match path.extension() {
        Some(_) => path.to_path_buf(),
        None => path.with_extension(burn_pack::EXTENSION),
    }
}
