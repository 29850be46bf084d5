//! PyTorch files: [`PytorchStore`] and the [`PytorchReader`] under it.
//!
//! `torch.save` writes one of two containers, both read here without
//! Python:
//!
//! ```text
//!  zip (default since 1.6)                 legacy (_use_new_zipfile_serialization=False)
//!  ┌──────────────────────────────┐        ┌──────────────────────────────────────────┐
//!  │ {name}/data.pkl   the pickle │        │ pickle: magic number                     │
//!  │ {name}/data/0     storage 0  │        │ pickle: protocol version (1001)          │
//!  │ {name}/data/1     storage 1  │        │ pickle: sys info (little_endian, sizes)  │
//!  │ …   (STORED, 64-byte aligned)│        │ pickle: the object, storages as ids      │
//!  │ {name}/byteorder  "little"   │        │ pickle: the storage keys, in order       │
//!  │ {name}/version, …            │        │ per key: u64 element count, raw bytes    │
//!  │ central directory            │        └──────────────────────────────────────────┘
//!  └──────────────────────────────┘
//! ```
//!
//! The file is memory-mapped. The container is checked when opened (zip
//! entries stored uncompressed and not overlapping; every storage inside
//! the file; every tensor's offset, shape and strides inside its storage);
//! the pickle is run by [`pickle`]'s restricted machine. The tensors come
//! out as views of the map, so a transposed or sliced tensor sharing a
//! storage costs nothing until it is applied, and then one copy.

pub mod pickle;
mod store;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::tensor::{Buffer, BufferBytes};
use crate::{StoreError, StoreTensor};
use pickle::{Id, Limits, PickleError, StorageRef, TensorRef, Unpickled, Value};

pub use store::PytorchStore;

/// The error type of [`PytorchStore`].
pub type PytorchStoreError = StoreError;

/// What is wrong with a PyTorch file (inside [`StoreError::Pytorch`], which
/// names the file).
#[derive(Debug, thiserror::Error)]
pub enum PytorchError {
    /// Neither a zip archive nor a legacy pickle.
    #[error("not a torch.save file: {0}")]
    NotPytorch(&'static str),
    /// The zip container is malformed.
    #[error("zip archive: {0}")]
    Zip(String),
    /// Two zip entries claim the same bytes.
    #[error("zip entries `{first}` and `{second}` overlap")]
    Overlap {
        /// One entry.
        first: String,
        /// The other.
        second: String,
    },
    /// A zip entry is compressed; `torch.save` stores entries as they are.
    #[error(
        "zip entry `{entry}` is compressed (method {method}); torch.save stores entries uncompressed"
    )]
    Compressed {
        /// The entry.
        entry: String,
        /// Its compression method.
        method: u16,
    },
    /// Two zip entries have one name.
    #[error("zip entry `{0}` appears twice")]
    DuplicateEntry(String),
    /// The archive has no `*/data.pkl`.
    #[error("no `data.pkl` entry: not a torch.save archive")]
    NoPickle,
    /// The pickle was refused.
    #[error(transparent)]
    Pickle(#[from] PickleError),
    /// A persistent id names a storage the file lacks.
    #[error("storage `{key}` is not in the file")]
    MissingStorage {
        /// The storage key.
        key: String,
    },
    /// A storage declares more bytes than the file holds for it.
    #[error("storage `{key}` declares {declared} bytes, the file holds {available}")]
    StorageSize {
        /// The storage key.
        key: String,
        /// Bytes declared by the pickle (saturated).
        declared: u64,
        /// Bytes present.
        available: u64,
    },
    /// Two persistent ids give one storage different types.
    #[error("storage `{key}` is used with two element types")]
    StorageTypes {
        /// The storage key.
        key: String,
    },
    /// A tensor's description cannot be represented.
    #[error("tensor `{tensor}`: {why}")]
    Tensor {
        /// The tensor's key.
        tensor: String,
        /// What is wrong.
        why: &'static str,
    },
    /// The file was written on a big-endian machine.
    #[error("the file is big-endian; only little-endian files are read")]
    BigEndian,
    /// The key asked for with `with_top_level_key` is not there.
    #[error("no top-level key `{key}`; the file has {available:?}")]
    TopLevelKey {
        /// The key asked for.
        key: String,
        /// The top-level keys present.
        available: Vec<String>,
    },
    /// The pickle's object is not a dict of tensors.
    #[error("the saved object is not a dict (a state dict or a checkpoint)")]
    NotADict,
    /// The legacy container is malformed.
    #[error("legacy format: {0}")]
    Legacy(&'static str),
}

/// The tensors of a `torch.save` file, by key (nested dicts joined with
/// dots), as unread views of the memory-mapped file.
///
/// ```no_run
/// use burn_store::pytorch::PytorchReader;
///
/// let reader = PytorchReader::with_top_level_key("checkpoint.pt", "model_state_dict")?;
/// for name in reader.keys() {
///     let tensor = reader.get(&name).unwrap();
///     println!("{name}: {:?} {:?}", tensor.dtype(), tensor.shape());
/// }
/// # Ok::<(), burn_store::StoreError>(())
/// ```
#[derive(Debug)]
pub struct PytorchReader {
    tensors: BTreeMap<String, StoreTensor>,
}

impl PytorchReader {
    /// Opens the file at `path`: every tensor of the saved object.
    pub fn new(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        Self::open(path.as_ref(), None)
    }

    /// Opens the file at `path`: the tensors under the top-level key `key`
    /// (a checkpoint's `"state_dict"`).
    pub fn with_top_level_key(path: impl AsRef<Path>, key: &str) -> Result<Self, StoreError> {
        Self::open(path.as_ref(), Some(key))
    }

    /// Reads a file held in memory (`origin` names it in errors).
    pub fn from_bytes(bytes: Vec<u8>, top_level_key: Option<&str>) -> Result<Self, StoreError> {
        let buffer = Buffer::new(
            "<memory>",
            BufferBytes::Owned(burn_std::Bytes::from_vec(bytes)),
        );
        Self::from_buffer(Arc::new(buffer), top_level_key)
    }

    fn open(path: &Path, key: Option<&str>) -> Result<Self, StoreError> {
        Self::from_buffer(Arc::new(Buffer::map_file(path)?), key)
    }

    fn from_buffer(buffer: Arc<Buffer>, key: Option<&str>) -> Result<Self, StoreError> {
        let tensors = read(buffer, key)?;
        Ok(Self {
            tensors: crate::options::by_name(tensors, "")?,
        })
    }

    /// The keys, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.tensors.keys().cloned().collect()
    }

    /// The tensor under `key`.
    pub fn get(&self, key: &str) -> Option<&StoreTensor> {
        self.tensors.get(key)
    }

    /// The tensors by key.
    pub fn into_tensors(self) -> BTreeMap<String, StoreTensor> {
        self.tensors
    }
}

/// Every tensor of a `torch.save` file in `buffer`, in key order.
pub(crate) fn read(buffer: Arc<Buffer>, key: Option<&str>) -> Result<Vec<StoreTensor>, StoreError> {
    let origin = buffer.origin().to_owned();
    let wrap = |source| StoreError::Pytorch {
        file: origin.clone(),
        source,
    };
    let bytes = buffer.as_slice();
    let (found, storages) = if bytes.starts_with(b"PK\x03\x04") {
        read_zip(bytes, key).map_err(wrap)?
    } else if bytes.first() == Some(&0x80) {
        read_legacy(bytes, key).map_err(wrap)?
    } else {
        return Err(wrap(PytorchError::NotPytorch(
            "neither a zip archive nor a pickle",
        )));
    };
    let mut tensors = Vec::with_capacity(found.len());
    for (name, tensor) in found {
        let Some(bounds) = storages.get(&tensor.storage.key) else {
            return Err(wrap(PytorchError::MissingStorage {
                key: tensor.storage.key.clone(),
            }));
        };
        tensors.push(
            to_view(name, &tensor, bounds.clone(), &buffer).map_err(|e| match e {
                ViewError::Store(e) => e,
                ViewError::Pytorch(e) => wrap(e),
            })?,
        );
    }
    Ok(tensors)
}

/// How many times over a view may read its storage (plus 1 MiB).
const MAX_EXPANSION: u64 = 64;

enum ViewError {
    Store(StoreError),
    Pytorch(PytorchError),
}

/// A tensor as a view of its storage's bytes `bounds`.
fn to_view(
    name: String,
    tensor: &TensorRef,
    bounds: Range<usize>,
    buffer: &Arc<Buffer>,
) -> Result<StoreTensor, ViewError> {
    let fail = |why| {
        ViewError::Pytorch(PytorchError::Tensor {
            tensor: name.clone(),
            why,
        })
    };
    let to_usize = |v: u64| usize::try_from(v).ok();
    let shape: Option<Vec<usize>> = tensor.shape.iter().map(|&d| to_usize(d)).collect();
    let strides: Option<Vec<usize>> = tensor.strides.iter().map(|&s| to_usize(s)).collect();
    let (Some(shape), Some(strides)) = (shape, strides) else {
        return Err(fail("a dimension or stride does not fit the address space"));
    };
    let offset = tensor
        .offset
        .checked_mul(tensor.dtype.size() as u64)
        .and_then(|o| o.checked_add(bounds.start as u64))
        .and_then(to_usize)
        .ok_or_else(|| fail("the storage offset overflows"))?;
    if let Some(storage_dtype) = tensor.storage.dtype
        && storage_dtype != tensor.dtype
    {
        return Err(fail("the tensor's dtype differs from its storage's"));
    }
    // A view with zero or overlapping strides (`expand`, `as_strided`)
    // reads its storage more than once, so its size is not bounded by the
    // file. Refuse the absurd before anything is allocated for it.
    let materialized = shape
        .iter()
        .try_fold(tensor.dtype.size() as u64, |acc, &d| {
            acc.checked_mul(d as u64)
        });
    let limit = (bounds.len() as u64)
        .saturating_mul(MAX_EXPANSION)
        .saturating_add(1 << 20);
    if materialized.is_none_or(|bytes| bytes > limit) {
        return Err(fail(
            "its shape asks for more than 64 times its storage's bytes",
        ));
    }
    StoreTensor::view(
        name.clone(),
        tensor.dtype,
        shape,
        buffer.clone(),
        bounds,
        offset,
        strides,
    )
    .map_err(ViewError::Store)
}

type Found = (Vec<(String, TensorRef)>, BTreeMap<String, Range<usize>>);

fn read_zip(bytes: &[u8], key: Option<&str>) -> Result<Found, PytorchError> {
    let zip = |e: rawzip::Error| PytorchError::Zip(e.to_string());
    let archive = rawzip::ZipArchive::from_slice(bytes).map_err(zip)?;
    let mut entries: BTreeMap<String, Range<usize>> = BTreeMap::new();
    // [local header, end of data) of every entry, to find overlaps.
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    let mut iter = archive.entries();
    while let Some(record) = iter.next_entry().map_err(zip)? {
        let name = String::from_utf8_lossy(record.file_path().as_bytes()).into_owned();
        if record.is_dir() {
            continue;
        }
        let method = record.compression_method();
        if method != rawzip::CompressionMethod::STORE {
            return Err(PytorchError::Compressed {
                entry: name,
                method: method.as_u16(),
            });
        }
        let entry = archive.get_entry(record.wayfinder()).map_err(zip)?;
        let (start, end) = entry.compressed_data_range();
        if record.uncompressed_size_hint() != end - start {
            return Err(PytorchError::Zip(format!(
                "stored entry `{name}` declares {} bytes uncompressed but holds {}",
                record.uncompressed_size_hint(),
                end - start
            )));
        }
        let (start, end) = (start as usize, end as usize);
        spans.push((record.local_header_offset() as usize, end, name.clone()));
        if entries.insert(name.clone(), start..end).is_some() {
            return Err(PytorchError::DuplicateEntry(name));
        }
    }
    spans.sort();
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(PytorchError::Overlap {
                first: pair[0].2.clone(),
                second: pair[1].2.clone(),
            });
        }
    }

    let pickle_name = entries
        .keys()
        .filter(|n| {
            n.ends_with("/data.pkl") && n.matches('/').count() == 1 || n.as_str() == "data.pkl"
        })
        .min_by_key(|n| n.len())
        .cloned()
        .ok_or(PytorchError::NoPickle)?;
    let prefix = &pickle_name[..pickle_name.len() - "data.pkl".len()];
    if let Some(order) = entries.get(&format!("{prefix}byteorder"))
        && &bytes[order.clone()] != b"little"
    {
        return Err(PytorchError::BigEndian);
    }
    let pickle = &bytes[entries[&pickle_name].clone()];
    let unpickled = pickle::unpickle(pickle, Limits::default())?;
    let found = tensors_of(&unpickled, key)?;

    let mut storages = BTreeMap::new();
    for storage in storages_of(&unpickled)? {
        let entry = format!("{prefix}data/{}", storage.key);
        let Some(range) = entries.get(&entry) else {
            return Err(PytorchError::MissingStorage { key: storage.key });
        };
        let bounds = storage_bounds(&storage, range.clone())?;
        storages.insert(storage.key, bounds);
    }
    Ok((found, storages))
}

/// The bytes of `storage` within `available`, which must hold them all.
fn storage_bounds(
    storage: &StorageRef,
    available: Range<usize>,
) -> Result<Range<usize>, PytorchError> {
    let declared = storage.byte_len();
    match declared {
        Some(len) if len <= available.len() as u64 => {
            Ok(available.start..available.start + len as usize)
        }
        _ => Err(PytorchError::StorageSize {
            key: storage.key.clone(),
            declared: declared.unwrap_or(u64::MAX),
            available: available.len() as u64,
        }),
    }
}

/// The magic number the legacy format starts with, little-endian.
const LEGACY_MAGIC: [u8; 10] = [0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19];

fn read_legacy(bytes: &[u8], key: Option<&str>) -> Result<Found, PytorchError> {
    let limits = Limits::default();
    let mut pos = 0;
    let mut next = |what: &'static str| -> Result<Unpickled, PytorchError> {
        let rest = bytes
            .get(pos..)
            .filter(|r| !r.is_empty())
            .ok_or(PytorchError::Legacy(what))?;
        let mut u = pickle::unpickle(rest, limits).map_err(|mut e| {
            e.offset += pos;
            e
        })?;
        pos += u.consumed;
        u.consumed = pos;
        Ok(u)
    };
    let magic = next("no magic number")?;
    if !matches!(magic.get(magic.root), Value::Long(b) if b.as_slice() == LEGACY_MAGIC) {
        return Err(PytorchError::NotPytorch(
            "a pickle, but not torch.save's legacy magic number",
        ));
    }
    let protocol = next("no protocol version")?;
    if protocol.get(protocol.root) != &Value::Int(1001) {
        return Err(PytorchError::Legacy(
            "unknown protocol version (expected 1001)",
        ));
    }
    let info = next("no system information")?;
    if let Value::Dict(entries) = info.get(info.root) {
        for &(k, v) in entries {
            if info.get(k) == &Value::Str("little_endian".into())
                && info.get(v) == &Value::Bool(false)
            {
                return Err(PytorchError::BigEndian);
            }
        }
    }
    let main = next("no saved object")?;
    let found = tensors_of(&main, key)?;
    let keys = next("no storage key list")?;
    let Value::List(key_ids) = keys.get(keys.root) else {
        return Err(PytorchError::Legacy("the storage key list is not a list"));
    };
    let storages_by_key: BTreeMap<String, StorageRef> = storages_of(&main)?
        .into_iter()
        .map(|s| (s.key.clone(), s))
        .collect();

    let mut pos = keys.consumed;
    let mut storages = BTreeMap::new();
    for &id in key_ids {
        let Value::Str(storage_key) = keys.get(id) else {
            return Err(PytorchError::Legacy("a storage key is not a string"));
        };
        let storage =
            storages_by_key
                .get(storage_key)
                .ok_or_else(|| PytorchError::MissingStorage {
                    key: storage_key.clone(),
                })?;
        let count = bytes.get(pos..pos + 8).ok_or(PytorchError::Legacy(
            "truncated before a storage's element count",
        ))?;
        let count = u64::from_le_bytes(count.try_into().expect("8 bytes"));
        if count != storage.numel {
            return Err(PytorchError::StorageSize {
                key: storage_key.clone(),
                declared: storage.byte_len().unwrap_or(u64::MAX),
                available: count.saturating_mul(storage.dtype.map_or(1, |d| d.size() as u64)),
            });
        }
        pos += 8;
        let available = pos..bytes.len();
        let bounds = storage_bounds(storage, available)?;
        pos = bounds.end;
        storages.insert(storage_key.clone(), bounds);
    }
    Ok((found, storages))
}

/// Every storage a persistent id names, once per key.
fn storages_of(u: &Unpickled) -> Result<Vec<StorageRef>, PytorchError> {
    let mut by_key: BTreeMap<&str, &StorageRef> = BTreeMap::new();
    for value in &u.arena {
        if let Value::Storage(storage) = value {
            match by_key.get(storage.key.as_str()) {
                Some(seen) if seen.dtype != storage.dtype || seen.numel != storage.numel => {
                    return Err(PytorchError::StorageTypes {
                        key: storage.key.clone(),
                    });
                }
                Some(_) => {}
                None => {
                    by_key.insert(&storage.key, storage);
                }
            }
        }
    }
    Ok(by_key.into_values().cloned().collect())
}

/// The tensors of the saved object (under `key` if given), named by their
/// path through nested dicts and lists.
fn tensors_of(u: &Unpickled, key: Option<&str>) -> Result<Vec<(String, TensorRef)>, PytorchError> {
    let mut root = u.root;
    if let Some(key) = key {
        let Value::Dict(entries) = u.get(root) else {
            return Err(PytorchError::NotADict);
        };
        let found = entries
            .iter()
            .find(|&&(k, _)| matches!(u.get(k), Value::Str(s) if s == key));
        match found {
            Some(&(_, value)) => root = value,
            None => {
                let available = entries
                    .iter()
                    .filter_map(|&(k, _)| match u.get(k) {
                        Value::Str(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                return Err(PytorchError::TopLevelKey {
                    key: key.to_owned(),
                    available,
                });
            }
        }
    }
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(u, root, &mut path, 0, &mut out)?;
    Ok(out)
}

fn walk(
    u: &Unpickled,
    id: Id,
    path: &mut Vec<String>,
    depth: usize,
    out: &mut Vec<(String, TensorRef)>,
) -> Result<(), PytorchError> {
    let max = Limits::default().max_depth;
    if depth > max {
        return Err(PytorchError::Pickle(PickleError {
            offset: 0,
            problem: pickle::PickleProblem::TooDeep(max),
        }));
    }
    match u.get(id) {
        Value::Tensor(tensor) => out.push((path.join("."), tensor.clone())),
        Value::Dict(entries) => {
            for &(k, v) in entries {
                let segment = match u.get(k) {
                    Value::Str(s) => s.clone(),
                    Value::Int(i) => i.to_string(),
                    _ => continue,
                };
                path.push(segment);
                walk(u, v, path, depth + 1, out)?;
                path.pop();
            }
        }
        Value::List(items) | Value::Tuple(items) => {
            for (i, &item) in items.iter().enumerate() {
                path.push(i.to_string());
                walk(u, item, path, depth + 1, out)?;
                path.pop();
            }
        }
        _ => {}
    }
    Ok(())
}
