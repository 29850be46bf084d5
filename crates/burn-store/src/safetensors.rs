//! [`SafetensorsStore`]: the SafeTensors format (a JSON header, then each
//! tensor's little-endian bytes), read with the `safetensors` crate from a
//! memory map or a buffer, written by a streaming writer of our own.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use burn_std::{BoolStore, Bytes, DType};
use safetensors::{Dtype, SafeTensors};

use crate::options::{StoreOptions, store_builders};
use crate::tensor::{Buffer, BufferBytes};
use crate::{ApplyResult, ModuleSnapshot, ModuleStore, StoreError, StoreTensor};

/// The error type of [`SafetensorsStore`].
pub type SafetensorsStoreError = StoreError;

/// Length of the header-size prefix.
const N_LEN: usize = 8;

enum Source {
    File(PathBuf),
    Bytes(Option<Bytes>),
}

/// Saves and loads modules as SafeTensors files or bytes.
///
/// A file is memory-mapped and its header checked (by the `safetensors`
/// crate: offsets contiguous, within the file, lengths matching shapes)
/// before any tensor is returned; a tensor's bytes are copied out of the
/// map only when it is applied, and its pages released afterwards. Saving
/// writes the header, then each tensor as it is read back from the module,
/// to a scratch file renamed into place when complete.
///
/// For files exported from PyTorch (`safetensors.torch.save_file(model.state_dict(), …)`),
/// load with [`PyTorchToBurnAdapter`](crate::PyTorchToBurnAdapter); to write
/// a file PyTorch's `load_state_dict` takes, save with
/// [`BurnToPyTorchAdapter`](crate::BurnToPyTorchAdapter).
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn_store::{ModuleSnapshot, SafetensorsStore};
/// use burn_tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Scale {
///     weight: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex();
/// let model = Scale { weight: Param::from_tensor(Tensor::from_data([2.0, 3.0], &device)) };
/// let mut store = SafetensorsStore::from_bytes(None);
/// model.save_into(&mut store)?;
///
/// let mut fresh = Scale { weight: Param::from_tensor(Tensor::zeros([2], &device)) };
/// let mut store = SafetensorsStore::from_bytes(Some(store.get_bytes()?));
/// fresh.load_from(&mut store)?;
/// assert_eq!(fresh.weight.val().into_data().to_vec::<f32>()?, [2.0, 3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SafetensorsStore {
    source: Source,
    options: StoreOptions,
    cache: Option<BTreeMap<String, StoreTensor>>,
}

impl Default for SafetensorsStore {
    fn default() -> Self {
        Self::from_bytes(None)
    }
}

impl SafetensorsStore {
    /// The metadata written by default: `format`, `producer` and `version`.
    pub fn default_metadata() -> BTreeMap<String, String> {
        [
            ("format", "safetensors"),
            ("producer", "burn-store"),
            ("version", env!("CARGO_PKG_VERSION")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
    }

    fn with_source(source: Source) -> Self {
        let options = StoreOptions {
            metadata: Self::default_metadata(),
            ..StoreOptions::default()
        };
        Self {
            source,
            options,
            cache: None,
        }
    }

    /// A store for the file at `path` (used as given).
    pub fn from_file(path: impl Into<PathBuf>) -> Self {
        Self::with_source(Source::File(path.into()))
    }

    /// A store in memory: loads from `bytes`; saving replaces them.
    pub fn from_bytes(bytes: Option<Vec<u8>>) -> Self {
        Self::with_source(Source::Bytes(bytes.map(Bytes::from_vec)))
    }

    store_builders!();

    /// The bytes of a memory store (after a save, the saved file).
    pub fn get_bytes(&self) -> Result<Vec<u8>, StoreError> {
        match &self.source {
            Source::Bytes(Some(bytes)) => Ok(bytes.to_vec()),
            Source::Bytes(None) => Err(StoreError::Unsupported(
                "the memory store holds no bytes yet",
            )),
            Source::File(_) => Err(StoreError::Unsupported("get_bytes: the store is a file")),
        }
    }

    fn origin(&self) -> String {
        match &self.source {
            Source::File(path) => path.display().to_string(),
            Source::Bytes(_) => "<memory>".to_owned(),
        }
    }

    fn load_cache(&mut self) -> Result<&BTreeMap<String, StoreTensor>, StoreError> {
        if self.cache.is_none() {
            let buffer = match &self.source {
                Source::File(path) => Buffer::map_file(path)?,
                Source::Bytes(Some(bytes)) => {
                    Buffer::new("<memory>", BufferBytes::Owned(Bytes::from_slice(bytes)))
                }
                Source::Bytes(None) => {
                    return Err(StoreError::Unsupported(
                        "the memory store holds no bytes to load",
                    ));
                }
            };
            let tensors = read_tensors(Arc::new(buffer))?;
            self.cache = Some(self.options.prepare_source(tensors, &self.origin())?);
        }
        Ok(self.cache.as_ref().expect("filled above"))
    }

    fn write(&mut self, tensors: Vec<StoreTensor>) -> Result<(), StoreError> {
        let origin = self.origin();
        crate::options::by_name(tensors.clone(), &origin)?;
        let tensors: Vec<StoreTensor> = tensors
            .into_iter()
            .map(to_file_dtype)
            .collect::<Result<_, _>>()?;
        let header = encode_header(&tensors, &self.options.metadata)?;
        match &self.source {
            Source::File(path) => {
                if !self.options.overwrite && path.exists() {
                    let e = std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "the file exists and overwrite is off",
                    );
                    return Err(StoreError::io("overwrite", path, e));
                }
                write_file(path, &header, &tensors)?;
            }
            Source::Bytes(_) => {
                let mut out = Vec::with_capacity(
                    header.len() + tensors.iter().map(StoreTensor::byte_len).sum::<usize>(),
                );
                write_body(&mut out, &header, &tensors).map_err(|e| match e {
                    WriteError::Io(e) => StoreError::io("write", "<memory>", e),
                    WriteError::Store(e) => e,
                })?;
                self.source = Source::Bytes(Some(Bytes::from_vec(out)));
            }
        }
        self.cache = None;
        Ok(())
    }
}

/// Every tensor of a SafeTensors buffer, as views of it.
pub(crate) fn read_tensors(buffer: Arc<Buffer>) -> Result<Vec<StoreTensor>, StoreError> {
    let origin = buffer.origin().to_owned();
    let (header_len, metadata) =
        SafeTensors::read_metadata(buffer.as_slice()).map_err(|source| {
            StoreError::Safetensors {
                file: origin.clone(),
                source,
            }
        })?;
    let data_start = N_LEN + header_len;
    let mut tensors = Vec::with_capacity(metadata.tensors().len());
    for name in metadata.offset_keys() {
        let info = metadata
            .info(&name)
            .expect("offset_keys lists known tensors");
        let dtype = from_file_dtype(info.dtype).ok_or_else(|| StoreError::UnsupportedDType {
            file: origin.clone(),
            tensor: name.clone(),
            dtype: format!("{:?}", info.dtype),
            reason: "has no Burn equivalent",
        })?;
        let bounds = data_start + info.data_offsets.0..data_start + info.data_offsets.1;
        tensors.push(StoreTensor::contiguous(
            name,
            dtype,
            info.shape.clone(),
            buffer.clone(),
            bounds,
        )?);
    }
    Ok(tensors)
}

fn from_file_dtype(dtype: Dtype) -> Option<DType> {
    Some(match dtype {
        Dtype::BOOL => DType::Bool(BoolStore::Native),
        Dtype::U8 => DType::U8,
        Dtype::I8 => DType::I8,
        Dtype::I16 => DType::I16,
        Dtype::U16 => DType::U16,
        Dtype::F16 => DType::F16,
        Dtype::BF16 => DType::BF16,
        Dtype::I32 => DType::I32,
        Dtype::U32 => DType::U32,
        Dtype::F32 => DType::F32,
        Dtype::F64 => DType::F64,
        Dtype::I64 => DType::I64,
        Dtype::U64 => DType::U64,
        _ => return None,
    })
}

fn file_dtype(dtype: DType) -> Dtype {
    match dtype {
        DType::Bool(_) => Dtype::BOOL,
        DType::U8 => Dtype::U8,
        DType::I8 => Dtype::I8,
        DType::I16 => Dtype::I16,
        DType::U16 => Dtype::U16,
        DType::F16 => Dtype::F16,
        DType::BF16 => Dtype::BF16,
        DType::I32 => Dtype::I32,
        DType::U32 => Dtype::U32,
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
        DType::I64 => Dtype::I64,
        DType::U64 => Dtype::U64,
        // `to_file_dtype` dequantizes first: SafeTensors has no quantized
        // dtype, so a quantized tensor is written as the f32 it stands for.
        DType::QFloat(_) => Dtype::F32,
    }
}

/// Booleans are one byte in SafeTensors; other storages are cast.
fn to_file_dtype(tensor: StoreTensor) -> Result<StoreTensor, StoreError> {
    Ok(match tensor.dtype() {
        DType::Bool(BoolStore::U32) => tensor.cast(DType::Bool(BoolStore::Native)),
        DType::QFloat(_) => tensor.cast(DType::F32),
        _ => tensor,
    })
}

/// The header: its JSON, padded with spaces to a multiple of 8 bytes as the
/// reference writer does, behind its 8-byte length.
fn encode_header(
    tensors: &[StoreTensor],
    metadata: &BTreeMap<String, String>,
) -> Result<Vec<u8>, StoreError> {
    let mut map = serde_json::Map::new();
    if !metadata.is_empty() {
        let meta = metadata
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        map.insert("__metadata__".to_owned(), serde_json::Value::Object(meta));
    }
    let mut offset = 0usize;
    for tensor in tensors {
        let len = tensor.num_elements() * file_dtype(tensor.dtype()).bitsize() / 8;
        let entry = serde_json::json!({
            "dtype": file_dtype(tensor.dtype()),
            "shape": tensor.shape(),
            "data_offsets": [offset, offset + len],
        });
        offset += len;
        map.insert(tensor.name().to_owned(), entry);
    }
    let mut json =
        serde_json::to_vec(&serde_json::Value::Object(map)).map_err(|e| StoreError::Transform {
            tensor: "<header>".to_owned(),
            message: e.to_string(),
        })?;
    json.resize(json.len().next_multiple_of(N_LEN), b' ');
    let mut header = (json.len() as u64).to_le_bytes().to_vec();
    header.extend_from_slice(&json);
    Ok(header)
}

enum WriteError {
    Io(std::io::Error),
    Store(StoreError),
}

/// The header, then each tensor's bytes, read one at a time and dropped
/// before the next.
fn write_body(
    out: &mut dyn Write,
    header: &[u8],
    tensors: &[StoreTensor],
) -> Result<(), WriteError> {
    out.write_all(header).map_err(WriteError::Io)?;
    for tensor in tensors {
        let data = tensor.to_data().map_err(WriteError::Store)?;
        if data.bytes.len() != tensor.byte_len() {
            return Err(WriteError::Store(StoreError::Transform {
                tensor: tensor.name().to_owned(),
                message: format!(
                    "produced {} bytes, {} were declared",
                    data.bytes.len(),
                    tensor.byte_len()
                ),
            }));
        }
        out.write_all(&data.bytes).map_err(WriteError::Io)?;
    }
    Ok(())
}

/// Writes a scratch file beside `path` and renames it over `path` once
/// complete, so a failed save leaves what was there (and any map of it)
/// untouched.
fn write_file(path: &Path, header: &[u8], tensors: &[StoreTensor]) -> Result<(), StoreError> {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let scratch = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = (|| {
        let file = File::create(&scratch).map_err(|e| StoreError::io("create", &scratch, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        write_body(&mut out, header, tensors).map_err(|e| match e {
            WriteError::Io(e) => StoreError::io("write", path, e),
            WriteError::Store(e) => e,
        })?;
        let file = out
            .into_inner()
            .map_err(|e| StoreError::io("write", path, e.into_error()))?;
        file.sync_all()
            .map_err(|e| StoreError::io("sync", &scratch, e))?;
        fs::rename(&scratch, path).map_err(|e| StoreError::io("rename into", path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&scratch);
    }
    result
}

impl ModuleStore for SafetensorsStore {
    type Error = StoreError;

    fn collect_from<M: ModuleSnapshot>(&mut self, module: &M) -> Result<(), Self::Error> {
        let tensors = self.options.collect(module);
        self.write(tensors)
    }

    fn apply_to<M: ModuleSnapshot>(&mut self, module: &mut M) -> Result<ApplyResult, Self::Error> {
        self.load_cache()?;
        let tensors = self.cache.as_ref().expect("loaded above");
        self.options.apply(module, tensors, &self.origin())
    }

    fn get_tensor(&mut self, name: &str) -> Result<Option<&StoreTensor>, Self::Error> {
        Ok(self.load_cache()?.get(name))
    }

    fn get_all_tensors(&mut self) -> Result<&BTreeMap<String, StoreTensor>, Self::Error> {
        self.load_cache()
    }

    fn keys(&mut self) -> Result<Vec<String>, Self::Error> {
        Ok(self.load_cache()?.keys().cloned().collect())
    }
}
