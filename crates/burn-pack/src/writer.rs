//! [`Writer`]: plan the whole layout from metadata, then stream the bytes.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use burn_std::{Bytes, Scalar};

use crate::format::{
    DescriptorOut, Header, MetadataOut, align_up, checked_shape, data_section_start,
};
use crate::{Error, HEADER_LEN, Tensor};

/// Buffer between the writer and a file. Tensors larger than this bypass it.
const FILE_BUFFER: usize = 1 << 20;

/// Builds a pack from tensors, user metadata and scalars.
///
/// Writing happens in two passes. Planning reads only each tensor's name,
/// dtype, shape and declared length, and fixes every offset and the metadata
/// before a byte is written; it rejects duplicate names and a length that
/// disagrees with `shape` and `dtype`. The write pass then emits the header,
/// the metadata and each tensor in the order given, calling a
/// [`deferred`](Tensor::deferred) tensor's provider once, when its turn
/// comes, and dropping those bytes before moving on. A file sink therefore
/// holds about one tensor in memory at a time; the in-memory sinks
/// ([`into_bytes`](Self::into_bytes), and [`write_into`](Self::write_into) a
/// `Vec`) hold the whole container, as they must.
///
/// Tensors are written in the order given; the metadata lists them sorted by
/// name, as Burn's writer does.
#[derive(Debug, Default)]
pub struct Writer {
    tensors: Vec<Tensor>,
    metadata: BTreeMap<String, String>,
    scalars: BTreeMap<String, Scalar>,
}

/// The committed layout of a pack.
struct Plan {
    header: [u8; HEADER_LEN],
    metadata: Vec<u8>,
    /// Absolute position of the data section.
    data_start: u64,
    /// Start of each tensor relative to the data section, in write order.
    starts: Vec<u64>,
    /// Total file length: no padding follows the last tensor.
    total_len: u64,
}

impl Writer {
    /// A writer for `tensors`, written in this order.
    pub fn new(tensors: Vec<Tensor>) -> Self {
        Self {
            tensors,
            ..Self::default()
        }
    }

    /// Append one tensor.
    pub fn push(&mut self, tensor: Tensor) {
        self.tensors.push(tensor);
    }

    /// Add (or replace) a user metadata entry.
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// Add (or replace) a typed scalar.
    pub fn with_scalar(mut self, key: impl Into<String>, value: impl Into<Scalar>) -> Self {
        self.scalars.insert(key.into(), value.into());
        self
    }

    /// Length in bytes of the pack this writer would produce. Runs the
    /// planning pass only; no provider is called.
    pub fn size(&self) -> Result<u64, Error> {
        Ok(self.plan()?.total_len)
    }

    /// Build the pack in memory, as one 64-byte-aligned buffer.
    pub fn into_bytes(self) -> Result<Bytes, Error> {
        let plan = self.plan()?;
        let total = usize::try_from(plan.total_len).map_err(|_| Error::LayoutOverflow {
            what: "pack size exceeds the address space",
        })?;
        let mut buffer = Bytes::zeroed(total);
        let mut cursor: &mut [u8] = &mut buffer;
        write_container(&plan, self.tensors, &mut cursor)?;
        Ok(buffer)
    }

    /// Stream the pack into `sink`; returns the number of bytes written.
    ///
    /// On error the sink holds a prefix of the pack.
    pub fn write_into<W: Write>(self, mut sink: W) -> Result<u64, Error> {
        let plan = self.plan()?;
        write_container(&plan, self.tensors, &mut sink)?;
        sink.flush().map_err(|source| Error::Sink { source })?;
        Ok(plan.total_len)
    }

    /// Write the pack to `path`, replacing any file there only once the new
    /// one is complete.
    ///
    /// The pack is built in a scratch file beside `path`
    /// (`<file name>.<pid>-<n>.tmp`), synced to disk, then renamed over
    /// `path`. If anything fails first (the disk, a provider, a length
    /// check), the scratch file is removed and whatever was at `path` is
    /// untouched. On Unix the directory is synced after the rename, so the
    /// new file survives a power loss once this returns `Ok`.
    ///
    /// The price: the data is fsynced, overwriting needs room for two copies
    /// for a moment, and the new file does not inherit the old one's
    /// permissions or hard links. A process killed mid-save leaves the
    /// scratch file behind.
    pub fn write_to_file(self, path: impl AsRef<Path>) -> Result<(), Error> {
        self.write_to_file_impl(path.as_ref())
    }

    fn write_to_file_impl(self, path: &Path) -> Result<(), Error> {
        let plan = self.plan()?;
        let (mut scratch, file) = Scratch::create(path)?;
        let mut out = BufWriter::with_capacity(FILE_BUFFER, file);
        write_container(&plan, self.tensors, &mut out).map_err(|e| on_file(e, path))?;
        let file = out
            .into_inner()
            .map_err(|e| Error::file("write", path, e.into_error()))?;
        file.sync_all()
            .map_err(|e| Error::file("sync", &scratch.path, e))?;
        drop(file);
        fs::rename(&scratch.path, path).map_err(|e| Error::file("rename into", path, e))?;
        scratch.persisted = true;
        sync_parent(path);
        Ok(())
    }

    /// Write the pack to `path` by truncating and rewriting it.
    ///
    /// No second copy and no fsync, but a save that fails partway (a
    /// provider error, a full disk) leaves a truncated file at `path`. Prefer
    /// [`write_to_file`](Self::write_to_file) unless space or speed rule it
    /// out.
    pub fn write_to_file_in_place(self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let plan = self.plan()?;
        let file = File::create(path).map_err(|e| Error::file("create", path, e))?;
        let mut out = BufWriter::with_capacity(FILE_BUFFER, file);
        write_container(&plan, self.tensors, &mut out).map_err(|e| on_file(e, path))?;
        out.into_inner()
            .map_err(|e| Error::file("write", path, e.into_error()))?;
        Ok(())
    }

    /// The planning pass: every check that needs no tensor bytes, every
    /// offset, and the encoded metadata.
    fn plan(&self) -> Result<Plan, Error> {
        let mut descriptors = BTreeMap::new();
        let mut starts = Vec::with_capacity(self.tensors.len());
        let mut data_len = 0u64;

        for tensor in &self.tensors {
            let shape: Vec<u64> = tensor.shape.dims.iter().map(|&d| d as u64).collect();
            let (_, expected) = checked_shape(&tensor.name, tensor.dtype, &shape)?;
            let len = tensor.byte_len() as u64;
            if len != expected {
                return Err(Error::LengthMismatch {
                    name: tensor.name.clone(),
                    shape,
                    dtype: tensor.dtype,
                    expected,
                    found: len,
                });
            }
            let overflow = || Error::LayoutOverflow {
                what: "tensor offsets exceed 64 bits",
            };
            let start = align_up(data_len).ok_or_else(overflow)?;
            let end = start.checked_add(len).ok_or_else(overflow)?;
            let descriptor = DescriptorOut {
                dtype: tensor.dtype,
                shape,
                data_offsets: (start, end),
                param_id: tensor.param_id,
            };
            // Descriptors are keyed by name; a repeated name would keep one
            // descriptor for two blocks of data.
            if descriptors
                .insert(tensor.name.as_str(), descriptor)
                .is_some()
            {
                return Err(Error::DuplicateTensor {
                    name: tensor.name.clone(),
                });
            }
            starts.push(start);
            data_len = end;
        }

        let document = MetadataOut {
            tensors: descriptors,
            metadata: &self.metadata,
            scalars: &self.scalars,
        };
        let mut metadata = Vec::new();
        ciborium::ser::into_writer(&document, &mut metadata).map_err(|e| {
            Error::MetadataEncode {
                source: Box::new(e),
            }
        })?;
        let metadata_len = u32::try_from(metadata.len()).map_err(|_| Error::MetadataOverflow {
            size: metadata.len() as u64,
        })?;
        let data_start = data_section_start(metadata_len);
        let total_len = data_start
            .checked_add(data_len)
            .ok_or(Error::LayoutOverflow {
                what: "pack size exceeds 64 bits",
            })?;

        Ok(Plan {
            header: Header { metadata_len }.encode(),
            metadata,
            data_start,
            starts,
            total_len,
        })
    }
}

/// The write pass, shared by every sink. Non-generic so it is compiled once.
fn write_container(plan: &Plan, tensors: Vec<Tensor>, out: &mut dyn Write) -> Result<(), Error> {
    let sink = |source| Error::Sink { source };
    out.write_all(&plan.header).map_err(sink)?;
    out.write_all(&plan.metadata).map_err(sink)?;
    let written = (HEADER_LEN + plan.metadata.len()) as u64;
    write_zeros(out, plan.data_start - written).map_err(sink)?;

    // Position relative to the data section.
    let mut position = 0u64;
    // Consuming `tensors` drops each one (its resident bytes, its provider's
    // output) as soon as it is written.
    for (tensor, &start) in tensors.into_iter().zip(&plan.starts) {
        write_zeros(out, start - position).map_err(sink)?;
        let len = tensor.with_bytes(|_, bytes| {
            out.write_all(bytes).map_err(sink)?;
            Ok(bytes.len() as u64)
        })?;
        position = start + len;
    }
    Ok(())
}

fn write_zeros(out: &mut dyn Write, mut count: u64) -> io::Result<()> {
    const ZEROS: [u8; crate::ALIGNMENT as usize] = [0; crate::ALIGNMENT as usize];
    while count > 0 {
        let chunk = count.min(ZEROS.len() as u64) as usize;
        out.write_all(&ZEROS[..chunk])?;
        count -= chunk as u64;
    }
    Ok(())
}

/// A sink error from a file-backed write names the file.
fn on_file(error: Error, path: &Path) -> Error {
    match error {
        Error::Sink { source } => Error::file("write", path, source),
        other => other,
    }
}

/// A scratch file beside the destination, removed on drop unless persisted
/// (so also when a provider panics and unwinds through the writer).
struct Scratch {
    path: PathBuf,
    persisted: bool,
}

impl Scratch {
    fn create(dest: &Path) -> Result<(Self, File), Error> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);

        let Some(file_name) = dest.file_name() else {
            let source = io::Error::new(io::ErrorKind::InvalidInput, "path names no file");
            return Err(Error::file("write", dest, source));
        };
        let dir = match dest.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let mut name = file_name.to_os_string();
            name.push(format!(".{}-{n}.tmp", std::process::id()));
            let path = dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    let scratch = Scratch {
                        path,
                        persisted: false,
                    };
                    return Ok((scratch, file));
                }
                // A leftover of an earlier process with our pid: try the next name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::file("create", path, e)),
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.persisted {
            // Best effort: the error being reported matters more than a
            // scratch file that could not be removed.
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Make the rename durable. Best effort: the new file is already in place,
/// so failing the save here would misreport what happened.
fn sync_parent(path: &Path) {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}
