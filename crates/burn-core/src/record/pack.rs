//! Records and modules to and from the burnpack container (`burn-pack`):
//! one pack tensor per parameter, named by its path, carrying its
//! [`ParamId`] as the pack's `param_id`.
//!
//! Two ways in, one file format:
//!
//! - [`ModuleRecord`] `save` / `into_bytes`: the record already holds every
//!   parameter's `TensorData`, and the writer streams them out.
//! - [`Module::save_file`](crate::module::Module::save_file) (through
//!   [`save_module`]): no record is built. Each parameter becomes a
//!   *deferred* pack tensor holding a clone of the parameter's tensor (a
//!   cheap handle to the same storage); the writer reads it back only when
//!   it reaches that tensor and drops the bytes before the next one, so the
//!   save holds about one tensor of host memory at a time.
//!
//! Tensor bytes are written as `TensorData` holds them, in the host's byte
//! order; burnpack is little-endian, as is every target this workspace
//! builds for.

use std::boxed::Box;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use burn_pack::ProviderError;
use burn_std::Bytes;
use burn_tensor::{Bool, DType, Int, Shape, Tensor, TensorData, TensorKind};

use super::{ModuleRecord, RecordEntry, RecordError};
use crate::module::{Module, ModulePath, ModuleVisitor, Param, ParamId};

impl ModuleRecord {
    /// Writes the record to `path` as a burnpack file, adding the `.bpk`
    /// extension when `path` has none. The file is replaced only once the
    /// new one is complete (see `burn_pack::Writer::write_to_file`).
    ///
    /// ```
    /// use burn_core::module::ParamId;
    /// use burn_core::record::ModuleRecord;
    /// use burn_core::tensor::TensorData;
    ///
    /// let mut record = ModuleRecord::new();
    /// record.insert("weight", ParamId::new(), TensorData::from([[1.0f32, 2.0]]));
    ///
    /// let dir = std::env::temp_dir().join(format!("burn-core-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// record.clone().save(dir.join("model"))?;
    /// assert!(dir.join("model.bpk").exists());
    /// assert_eq!(ModuleRecord::load(dir.join("model"))?, record);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(self, path: impl AsRef<Path>) -> Result<(), RecordError> {
        let path = with_default_extension(path.as_ref());
        self.into_writer().write_to_file(path)?;
        Ok(())
    }

    /// Reads a record from the burnpack file at `path` (`.bpk` added when
    /// `path` has no extension), with the default load options.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, RecordError> {
        let path = with_default_extension(path.as_ref());
        Self::from_reader(burn_pack::Reader::open(path)?)
    }

    /// The record as burnpack bytes, for no-std targets, embedding or the
    /// network.
    pub fn into_bytes(self) -> Result<Bytes, RecordError> {
        Ok(self.into_writer().into_bytes()?)
    }

    /// Reads a record from burnpack bytes, with the default load options.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<Self, RecordError> {
        Self::from_reader(burn_pack::Reader::from_bytes(bytes.into())?)
    }

    fn into_writer(self) -> burn_pack::Writer {
        let tensors = self
            .into_entries()
            .into_iter()
            .map(|entry| {
                let TensorData {
                    bytes,
                    shape,
                    dtype,
                } = entry.data;
                burn_pack::Tensor::new(entry.path, dtype, shape, bytes)
                    .with_param_id(entry.id.val())
            })
            .collect();
        burn_pack::Writer::new(tensors)
    }

    /// The entries of a pack in file order. A tensor without a parameter id
    /// (written by another tool) gets a fresh one.
    fn from_reader(reader: burn_pack::Reader) -> Result<Self, RecordError> {
        let entries = reader
            .into_tensors()
            .into_iter()
            .map(|tensor| {
                let (path, shape, dtype) =
                    (tensor.name.clone(), tensor.shape.clone(), tensor.dtype);
                let id = tensor.param_id.map_or_else(ParamId::new, ParamId::from);
                let bytes = tensor.into_bytes()?;
                let data = TensorData::from_bytes(bytes, shape, dtype).map_err(|source| {
                    RecordError::Corrupt {
                        path: path.clone(),
                        source,
                    }
                })?;
                Ok(RecordEntry { path, id, data })
            })
            .collect::<Result<Vec<_>, RecordError>>()?;
        Ok(Self::from_entries(entries))
    }
}

/// Writes `module`'s tensor parameters to the burnpack file at `path`
/// without building a record: the body of
/// [`Module::save_file`](crate::module::Module::save_file).
///
/// The traversal is generic over the module; the write is not.
pub(crate) fn save_module<M: Module>(module: &M, path: &Path) -> Result<(), RecordError> {
    let mut streamer = Streamer::default();
    module.visit(&mut streamer);
    let path = with_default_extension(path);
    burn_pack::Writer::new(streamer.tensors).write_to_file(path)?;
    Ok(())
}

/// Reads a tensor back to the host when the writer asks for it.
type Readback = Box<dyn FnOnce() -> Result<TensorData, ProviderError> + Send>;

/// Collects every tensor parameter, in traversal order and under its path
/// (the paths and order of [`Module::into_record`]), as a deferred pack
/// tensor.
#[derive(Default)]
struct Streamer {
    path: ModulePath,
    seen: HashSet<String>,
    tensors: Vec<burn_pack::Tensor>,
}

impl Streamer {
    fn add<const D: usize, K: TensorKind>(&mut self, param: &Param<Tensor<D, K>>)
    where
        Tensor<D, K>: crate::module::Parameter,
    {
        // `base` initializes a lazy parameter: its dtype, which the pack's
        // offsets depend on, is whatever its initializer produces.
        let tensor = param.base();
        let (dtype, shape) = (tensor.dtype(), tensor.shape());
        let read: Readback = Box::new(move || tensor.try_into_data().map_err(ProviderError::from));
        let path = self.path.to_string();
        // As in `into_record`: a clash comes from a hand-written `Module`
        // impl, and the pack would refuse the second tensor anyway.
        assert!(
            self.seen.insert(path.clone()),
            "save_file: two parameters share the path `{path}`"
        );
        self.tensors
            .push(deferred_entry(path, param.id, dtype, shape, read));
    }
}

impl ModuleVisitor for Streamer {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.add(param);
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.add(param);
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.add(param);
    }
}

/// A pack tensor whose bytes come from `read`. The length is declared from
/// the tensor's reported dtype and shape, before any data exists, so the
/// read-back data is checked against both: a backend that handed back
/// another layout would otherwise be saved under the wrong descriptor.
fn deferred_entry(
    path: String,
    id: ParamId,
    dtype: DType,
    shape: Shape,
    read: Readback,
) -> burn_pack::Tensor {
    // An impossible length fails the writer's own check (length against
    // shape and dtype) with a message naming the tensor. Quantized data is
    // values then scales, hence the shape's byte count, not `size × n`.
    let byte_len = shape.try_num_bytes(dtype).unwrap_or(usize::MAX);
    let declared = shape.clone();
    burn_pack::Tensor::deferred(path, dtype, shape, byte_len, move || {
        let data = read()?;
        if data.dtype != dtype || data.shape != declared {
            return Err(ProviderError::from(ReadbackMismatch {
                dtype,
                shape: declared,
                found_dtype: data.dtype,
                found_shape: data.shape,
            }));
        }
        Ok(data.bytes)
    })
    .with_param_id(id.val())
}

/// A tensor read back with another dtype or shape than it reported. Reaches
/// the caller inside `burn_pack::Error::Provider`, which names the tensor.
#[derive(Debug, thiserror::Error)]
#[error(
    "the tensor reported dtype {dtype} and shape {shape}, but read back as {found_dtype} with shape {found_shape}"
)]
struct ReadbackMismatch {
    dtype: DType,
    shape: Shape,
    found_dtype: DType,
    found_shape: Shape,
}

/// `path`, with `.bpk` appended when it has no extension.
fn with_default_extension(path: &Path) -> PathBuf {
    match path.extension() {
        Some(_) => path.to_path_buf(),
        None => path.with_extension(burn_pack::EXTENSION),
    }
}
