//! [`BurnpackStore`]: Burn's own format, through `burn-pack`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use burn_std::Bytes;

use crate::options::{StoreOptions, store_builders};
use crate::tensor::Buffer;
use crate::{ApplyResult, ModuleSnapshot, ModuleStore, StoreError, StoreTensor};

enum Source {
    File(PathBuf),
    Bytes(Option<Bytes>),
    Static(&'static [u8]),
}

/// Saves and loads modules as burnpack files (`.bpk`) or bytes: the format
/// of [`ModuleRecord`](burn_core::record::ModuleRecord), with each
/// parameter's id, so optimizer state finds its parameters again.
///
/// A file is memory-mapped; saving streams one tensor at a time to a
/// scratch file renamed into place when complete.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn_store::{BurnpackStore, ModuleSnapshot};
/// use burn_tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Scale {
///     weight: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex();
/// let model = Scale { weight: Param::from_tensor(Tensor::from_data([2.0, 3.0], &device)) };
/// let mut store = BurnpackStore::from_bytes(None).metadata("run", "doc");
/// model.save_into(&mut store)?;
///
/// let mut fresh = Scale { weight: Param::from_tensor(Tensor::zeros([2], &device)) };
/// let mut store = BurnpackStore::from_bytes(Some(store.get_bytes()?));
/// let result = fresh.load_from(&mut store)?;
/// assert_eq!(result.applied, ["weight"]);
/// assert_eq!(fresh.weight.id, model.weight.id); // the id travels with the file
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BurnpackStore {
    source: Source,
    options: StoreOptions,
    cache: Option<BTreeMap<String, StoreTensor>>,
    auto_extension: bool,
}

impl BurnpackStore {
    /// The metadata written by default: `format`, `producer` and `version`.
    pub fn default_metadata() -> BTreeMap<String, String> {
        [
            ("format", "burnpack"),
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
            auto_extension: true,
        }
    }

    /// A store for the file at `path` (`.bpk` added when it has no
    /// extension, unless [`auto_extension(false)`](Self::auto_extension)).
    pub fn from_file(path: impl AsRef<Path>) -> Self {
        Self::with_source(Source::File(path.as_ref().to_path_buf()))
    }

    /// A store in memory: loads from `bytes`; saving replaces them.
    pub fn from_bytes(bytes: Option<Bytes>) -> Self {
        Self::with_source(Source::Bytes(bytes))
    }

    /// A store reading bytes embedded in the binary (`include_bytes!`).
    pub fn from_static(bytes: &'static [u8]) -> Self {
        Self::with_source(Source::Static(bytes))
    }

    /// Whether `.bpk` is added to a path without extension (default `true`).
    pub fn auto_extension(mut self, enable: bool) -> Self {
        self.auto_extension = enable;
        self.cache = None;
        self
    }

    store_builders!();

    /// The bytes of a memory store (after a save, the saved pack).
    pub fn get_bytes(&self) -> Result<Bytes, StoreError> {
        match &self.source {
            Source::Bytes(Some(bytes)) => Ok(Bytes::from_slice(bytes)),
            Source::Static(bytes) => Ok(Bytes::from_slice(bytes)),
            Source::Bytes(None) => Err(StoreError::Unsupported(
                "the memory store holds no bytes yet",
            )),
            Source::File(_) => Err(StoreError::Unsupported("get_bytes: the store is a file")),
        }
    }

    fn path(&self) -> Option<PathBuf> {
        match &self.source {
            Source::File(path) if self.auto_extension && path.extension().is_none() => {
                Some(path.with_extension(burn_pack::EXTENSION))
            }
            Source::File(path) => Some(path.clone()),
            _ => None,
        }
    }

    fn origin(&self) -> String {
        self.path()
            .map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string())
    }

    fn load_cache(&mut self) -> Result<&BTreeMap<String, StoreTensor>, StoreError> {
        if self.cache.is_none() {
            let origin = self.origin();
            let pack = |source| StoreError::Pack {
                file: origin.clone(),
                source,
            };
            let mut mapped = None;
            let reader = match (&self.source, self.path()) {
                (_, Some(path)) => {
                    let reader = burn_pack::Reader::open(&path).map_err(pack)?;
                    // Our own map of the file, whose pages are released as
                    // each tensor is copied out (the reader's are not ours
                    // to manage); the reader has checked every range.
                    mapped = Some(Arc::new(Buffer::map_file(&path)?));
                    reader
                }
                (Source::Bytes(Some(bytes)), _) => {
                    burn_pack::Reader::from_bytes(Bytes::from_slice(bytes)).map_err(pack)?
                }
                (Source::Static(bytes), _) => {
                    burn_pack::Reader::from_bytes(Bytes::from_slice(bytes)).map_err(pack)?
                }
                _ => {
                    return Err(StoreError::Unsupported(
                        "the memory store holds no bytes to load",
                    ));
                }
            };
            let tensors = reader
                .into_tensors()
                .into_iter()
                .map(|tensor| match (&mapped, tensor.pack_range()) {
                    (Some(buffer), Some(range)) => {
                        let (name, dtype, shape, id) = (
                            tensor.name.clone(),
                            tensor.dtype,
                            tensor.shape.dims.clone(),
                            tensor.param_id,
                        );
                        StoreTensor::contiguous(name, dtype, shape, buffer.clone(), range)
                            .map(|t| t.with_param_id(id))
                    }
                    _ => Ok(StoreTensor::from(tensor)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            self.cache = Some(self.options.prepare_source(tensors, &origin)?);
        }
        Ok(self.cache.as_ref().expect("filled above"))
    }

    /// Writes `tensors` (non-generic: the body of every save).
    fn write(&mut self, tensors: Vec<StoreTensor>) -> Result<(), StoreError> {
        let origin = self.origin();
        crate::options::by_name(tensors.clone(), &origin)?;
        let entries = tensors.into_iter().map(to_pack).collect();
        let writer = self
            .options
            .metadata
            .iter()
            .fold(burn_pack::Writer::new(entries), |w, (k, v)| {
                w.with_metadata(k, v)
            });
        let pack = |source| StoreError::Pack {
            file: origin.clone(),
            source,
        };
        match self.path() {
            Some(path) => {
                if !self.options.overwrite && path.exists() {
                    return Err(StoreError::io(
                        "overwrite",
                        path,
                        std::io::Error::new(
                            std::io::ErrorKind::AlreadyExists,
                            "the file exists and overwrite is off",
                        ),
                    ));
                }
                writer.write_to_file(path).map_err(pack)?;
            }
            None => self.source = Source::Bytes(Some(writer.into_bytes().map_err(pack)?)),
        }
        self.cache = None;
        Ok(())
    }
}

/// A pack entry whose bytes are read from `tensor` when the writer gets to it.
fn to_pack(tensor: StoreTensor) -> burn_pack::Tensor {
    let name = tensor.name().to_owned();
    let (dtype, shape, len, id) = (
        tensor.dtype(),
        tensor.shape().to_vec(),
        tensor.byte_len(),
        tensor.param_id(),
    );
    let entry = burn_pack::Tensor::deferred(name, dtype, shape, len, move || {
        tensor
            .to_data()
            .map(|data| data.bytes)
            .map_err(|e| Box::new(e) as burn_pack::ProviderError)
    });
    match id {
        Some(id) => entry.with_param_id(id),
        None => entry,
    }
}

impl ModuleStore for BurnpackStore {
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
