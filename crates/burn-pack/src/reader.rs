//! [`Reader`]: opening a pack from bytes or a memory-mapped file, and every
//! check an untrusted file must pass before a load returns.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use burn_std::{Bytes, Scalar, Shape};

use crate::format::{Header, checked_shape, data_section_start};
use crate::metadata::{self, RawDescriptor};
use crate::{Error, HEADER_LEN, Tensor};

/// Bounds a reader enforces before it allocates for, or trusts, a file.
///
/// The defaults accept any file Burn writes for real models while refusing
/// the absurd claims a corrupted or hostile file can make. Every limit is
/// checked against what the file *declares*, before memory is reserved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Largest metadata section, in bytes (default 100 MiB).
    pub max_metadata_bytes: u32,
    /// Most tensors in one pack (default 100 000).
    pub max_tensor_count: usize,
    /// Largest single tensor, in bytes (default 10 GiB, 2 GiB on 32-bit targets).
    pub max_tensor_bytes: u64,
    /// Deepest nesting of CBOR arrays and maps in the metadata (default 64;
    /// the format itself needs 4).
    pub max_nesting_depth: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        let max_tensor_bytes = if cfg!(target_pointer_width = "64") {
            10 << 30
        } else {
            2 << 30
        };
        Self {
            max_metadata_bytes: 100 << 20,
            max_tensor_count: 100_000,
            max_tensor_bytes,
            max_nesting_depth: 64,
        }
    }
}

/// Where a reader's bytes live. Shared by every [`Tensor`] the reader hands
/// out, so tensors outlive the reader without copying.
pub(crate) enum Storage {
    Memory(Bytes),
    Mapped(memmap2::Mmap),
}

impl Storage {
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Storage::Memory(bytes) => bytes,
            Storage::Mapped(map) => map,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Storage::Memory(_) => "in memory",
            Storage::Mapped(_) => "memory-mapped",
        }
    }
}

/// A validated pack, opened from bytes or a file.
///
/// Opening parses the header and metadata and checks every descriptor
/// (dtype, shape against length, offsets against the file size, overlaps);
/// tensor data is not read. A file-backed reader maps the file, so a
/// tensor's bytes are paged in only when [`Tensor::bytes`] or
/// [`Tensor::into_bytes`] touches them.
///
/// Tensors are listed in file order (by data offset). Lookup by name is a
/// binary search.
///
/// ```
/// use burn_pack::{Reader, Tensor, Writer};
/// use burn_std::DType;
///
/// let bytes = Writer::new(vec![Tensor::new("w", DType::U8, [3], vec![1u8, 2, 3])])
///     .with_metadata("producer", "doc")
///     .into_bytes()?;
/// let reader = Reader::from_bytes(bytes)?;
/// assert_eq!(reader.get("w").and_then(|t| t.bytes()), Some(&[1u8, 2, 3][..]));
/// assert_eq!(reader.metadata()["producer"], "doc");
/// # Ok::<(), burn_pack::Error>(())
/// ```
pub struct Reader {
    tensors: Vec<Tensor>,
    /// Indices into `tensors`, sorted by name.
    by_name: Vec<usize>,
    metadata: BTreeMap<String, String>,
    scalars: BTreeMap<String, Scalar>,
    data_start: u64,
    storage: Arc<Storage>,
}

impl Reader {
    /// Validate a pack held in memory, with the default [`ReadLimits`].
    pub fn from_bytes(bytes: Bytes) -> Result<Self, Error> {
        Self::from_bytes_with_limits(bytes, &ReadLimits::default())
    }

    /// Validate a pack held in memory.
    pub fn from_bytes_with_limits(bytes: Bytes, limits: &ReadLimits) -> Result<Self, Error> {
        Self::from_storage(Storage::Memory(bytes), limits)
    }

    /// Memory-map the file at `path` and validate it, with the default
    /// [`ReadLimits`].
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::open_with_limits(path, &ReadLimits::default())
    }

    /// Memory-map the file at `path` and validate it.
    ///
    /// The file must not be modified or truncated by anyone while the reader
    /// or its tensors are alive: the mapping would change under them (a
    /// truncation turns reads into `SIGBUS`). Writers of this crate never
    /// modify a file in place except through
    /// [`Writer::write_to_file_in_place`](crate::Writer::write_to_file_in_place).
    #[allow(unsafe_code)]
    pub fn open_with_limits(path: impl AsRef<Path>, limits: &ReadLimits) -> Result<Self, Error> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| Error::file("open", path, e))?;
        let len = file
            .metadata()
            .map_err(|e| Error::file("inspect", path, e))?
            .len();
        // Refuse the obviously short file before mapping it: an empty mapping
        // is an error on some platforms, and a message about the header is
        // clearer.
        if len < HEADER_LEN as u64 {
            return Err(Error::Truncated {
                part: "header",
                needed: HEADER_LEN as u64,
                available: len,
            });
        }
        // SAFETY: the mapping is read-only and lives inside `Storage`, which
        // only hands out shared slices. Soundness additionally needs the file
        // not to change while mapped; that is the documented contract of this
        // function, the same one every memory-mapping reader has.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::file("map", path, e))?;
        Self::from_storage(Storage::Mapped(map), limits)
    }

    fn from_storage(storage: Storage, limits: &ReadLimits) -> Result<Self, Error> {
        let input = storage.as_slice();
        let file_len = input.len() as u64;

        let header = Header::decode(input)?;
        if header.metadata_len > limits.max_metadata_bytes {
            return Err(Error::MetadataTooLarge {
                size: header.metadata_len.into(),
                limit: limits.max_metadata_bytes.into(),
            });
        }
        let metadata_end = HEADER_LEN as u64 + u64::from(header.metadata_len);
        let metadata_range = usize::try_from(metadata_end)
            .ok()
            .map(|end| HEADER_LEN..end);
        let Some(metadata_bytes) = metadata_range.and_then(|range| input.get(range)) else {
            return Err(Error::Truncated {
                part: "metadata",
                needed: metadata_end,
                available: file_len,
            });
        };
        let raw = metadata::decode(metadata_bytes, limits)?;
        let data_start = data_section_start(header.metadata_len);

        let mut checked = raw
            .tensors
            .0
            .into_iter()
            .map(|(name, descriptor)| {
                check_descriptor(name, descriptor, data_start, file_len, limits)
            })
            .collect::<Result<Vec<_>, _>>()?;

        // File order: by offsets. A zero-length tensor sorts before a
        // non-empty one at the same offset, which is where a writer puts it.
        checked.sort_by_key(|t| (t.start, t.end));
        check_overlaps(&checked)?;

        let mut by_name: Vec<usize> = (0..checked.len()).collect();
        by_name.sort_by(|&a, &b| checked[a].name.cmp(&checked[b].name));
        if let Some(pair) = by_name
            .windows(2)
            .find(|pair| checked[pair[0]].name == checked[pair[1]].name)
        {
            return Err(Error::DuplicateTensor {
                name: checked[pair[0]].name.clone(),
            });
        }

        let storage = Arc::new(storage);
        let tensors = checked
            .into_iter()
            .map(|t| {
                // A non-empty tensor lies within `file_len`, the length of
                // an in-memory slice, so its ends fit in `usize`. An empty
                // one may sit at the aligned offset just past an unpadded
                // end of file; it reads as an empty range at the end.
                let start = (data_start + t.start).min(file_len) as usize;
                let end = (data_start + t.end).min(file_len) as usize;
                Tensor::stored(
                    t.name,
                    t.dtype,
                    t.shape,
                    t.param_id,
                    storage.clone(),
                    start..end,
                )
            })
            .collect();

        Ok(Self {
            tensors,
            by_name,
            metadata: raw.metadata.0,
            scalars: raw.scalars.0,
            data_start,
            storage,
        })
    }

    /// Number of tensors.
    pub fn len(&self) -> usize {
        self.tensors.len()
    }

    /// Whether the pack holds no tensors.
    pub fn is_empty(&self) -> bool {
        self.tensors.is_empty()
    }

    /// The tensor called `name`.
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.by_name
            .binary_search_by(|&i| self.tensors[i].name.as_str().cmp(name))
            .ok()
            .map(|pos| &self.tensors[self.by_name[pos]])
    }

    /// Whether a tensor called `name` exists.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A 64-byte-aligned copy of the bytes of the tensor called `name`.
    pub fn read_bytes(&self, name: &str) -> Result<Bytes, Error> {
        self.get(name)
            .and_then(Tensor::bytes)
            .map(Bytes::from_slice)
            .ok_or_else(|| Error::TensorNotFound {
                name: name.to_owned(),
            })
    }

    /// The tensors in file order.
    pub fn tensors(&self) -> std::slice::Iter<'_, Tensor> {
        self.tensors.iter()
    }

    /// Tensor names in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.iter().map(|t| t.name.as_str())
    }

    /// The tensors in file order, as owned values that keep the pack's bytes
    /// (or mapping) alive; ready to hand to a [`Writer`](crate::Writer).
    pub fn into_tensors(self) -> Vec<Tensor> {
        self.tensors
    }

    /// The user key/value metadata.
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// The typed scalars.
    pub fn scalars(&self) -> &BTreeMap<String, Scalar> {
        &self.scalars
    }

    /// The scalar called `name`.
    pub fn scalar(&self, name: &str) -> Option<Scalar> {
        self.scalars.get(name).copied()
    }

    /// Absolute file position of the data section.
    pub fn data_section_start(&self) -> u64 {
        self.data_start
    }

    /// Whether the pack is read through a memory map rather than from memory.
    pub fn is_mapped(&self) -> bool {
        matches!(*self.storage, Storage::Mapped(_))
    }
}

impl<'a> IntoIterator for &'a Reader {
    type Item = &'a Tensor;
    type IntoIter = std::slice::Iter<'a, Tensor>;

    fn into_iter(self) -> Self::IntoIter {
        self.tensors()
    }
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("storage", &self.storage.kind())
            .field("tensors", &self.tensors)
            .field("metadata", &self.metadata)
            .field("scalars", &self.scalars)
            .finish()
    }
}

/// A descriptor that passed every check on its own.
struct Checked {
    name: String,
    dtype: burn_std::DType,
    shape: Shape,
    param_id: Option<u64>,
    start: u64,
    end: u64,
}

fn check_descriptor(
    name: String,
    raw: RawDescriptor,
    data_start: u64,
    file_len: u64,
    limits: &ReadLimits,
) -> Result<Checked, Error> {
    let Some(dtype) = raw.dtype.resolve() else {
        return Err(Error::UnknownDType {
            name,
            dtype: raw.dtype.to_string(),
        });
    };
    let (start, end) = raw.data_offsets;
    if end < start {
        return Err(Error::ReversedOffsets { name, start, end });
    }
    let len = end - start;
    if len > limits.max_tensor_bytes {
        return Err(Error::TensorTooLarge {
            name,
            size: len,
            limit: limits.max_tensor_bytes,
        });
    }
    let (shape, expected) = checked_shape(&name, dtype, &raw.shape)?;
    if expected != len {
        return Err(Error::LengthMismatch {
            name,
            shape: raw.shape,
            dtype,
            expected,
            found: len,
        });
    }

    // Bytes available to the data section. A file may stop right after its
    // metadata (no padding) when it holds no data.
    let data_len = file_len.saturating_sub(data_start);
    let in_bounds = if len == 0 {
        // An empty tensor reads nothing, but its offset must still be one a
        // writer could have produced: within the data, allowing for the
        // padding a writer inserts before it when it is the last entry.
        data_len
            .checked_next_multiple_of(crate::ALIGNMENT)
            .is_some_and(|limit| start <= limit)
    } else {
        end <= data_len
    };
    if !in_bounds {
        return Err(Error::OutOfBounds {
            name,
            start,
            data_end: end,
            data_start,
            end: data_start.saturating_add(end),
            file_len,
        });
    }

    Ok(Checked {
        name,
        dtype,
        shape,
        param_id: raw.param_id,
        start,
        end,
    })
}

/// `tensors` is sorted by `(start, end)`; empty tensors occupy nothing and
/// cannot overlap.
fn check_overlaps(tensors: &[Checked]) -> Result<(), Error> {
    let mut previous: Option<&Checked> = None;
    for tensor in tensors.iter().filter(|t| t.end > t.start) {
        if let Some(prev) = previous
            && tensor.start < prev.end
        {
            return Err(Error::Overlap {
                first: prev.name.clone(),
                first_start: prev.start,
                first_end: prev.end,
                second: tensor.name.clone(),
                second_start: tensor.start,
                second_end: tensor.end,
            });
        }
        previous = Some(tensor);
    }
    Ok(())
}
