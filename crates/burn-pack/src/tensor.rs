//! [`Tensor`]: one named entry of a pack, with its bytes resident, stored in
//! a loaded pack, or produced on demand.

use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use burn_std::{Bytes, DType, Shape};

use crate::Error;
use crate::error::ProviderError;
use crate::reader::Storage;

type Provider = Box<dyn FnOnce() -> Result<Bytes, ProviderError> + Send + 'static>;

/// A named tensor: metadata plus raw little-endian bytes in row-major order.
///
/// The bytes come from one of three places, and the laziness is a property of
/// the tensor rather than of the reader or writer that handles it:
///
/// - [`Tensor::new`]: already in memory.
/// - [`Tensor::deferred`]: a declared length and a closure that produces the
///   bytes when a [`Writer`](crate::Writer) reaches this tensor. Use it to
///   save data that lives elsewhere (a GPU, another file) without holding
///   every tensor on the host at once.
/// - from a [`Reader`](crate::Reader): a window into the loaded pack, which
///   for a memory-mapped file touches the disk only when read.
///
/// The public fields can be changed freely; a writer re-checks the byte
/// length against `shape` and `dtype` when it plans the file.
pub struct Tensor {
    /// Fully qualified name, e.g. `"encoder.layers.0.weight"`.
    pub name: String,
    /// Element type of the bytes.
    pub dtype: DType,
    /// Dimensions, outermost first.
    pub shape: Shape,
    /// Identity of the parameter this tensor holds, kept across save and load
    /// so optimizer state can find its parameter again.
    pub param_id: Option<u64>,
    source: Source,
}

enum Source {
    Resident(Bytes),
    /// The provider sits behind a mutex only so that [`Tensor`] (and with
    /// it readers and writers) is `Sync` without asking callers for `Sync`
    /// closures. It is reached only through an owned tensor, so the lock is
    /// never taken; `into_inner` unwraps it.
    Deferred {
        len: usize,
        provider: Mutex<Provider>,
    },
    Stored {
        storage: Arc<Storage>,
        range: Range<usize>,
    },
}

impl Tensor {
    /// A tensor whose bytes are already in memory.
    pub fn new(
        name: impl Into<String>,
        dtype: DType,
        shape: impl Into<Shape>,
        bytes: impl Into<Bytes>,
    ) -> Self {
        Self::with_source(name, dtype, shape, Source::Resident(bytes.into()))
    }

    /// A tensor whose `byte_len` bytes are produced by `provider` when needed.
    ///
    /// A [`Writer`](crate::Writer) calls `provider` exactly once, in file
    /// order, and drops the returned bytes before asking the next tensor for
    /// its own. The length is given up front because the writer commits every
    /// offset before any data exists; it must equal `product(shape) *
    /// dtype.size()` (checked while planning) and the provider must return
    /// exactly that many bytes (checked while writing).
    pub fn deferred<F, E>(
        name: impl Into<String>,
        dtype: DType,
        shape: impl Into<Shape>,
        byte_len: usize,
        provider: F,
    ) -> Self
    where
        F: FnOnce() -> Result<Bytes, E> + Send + 'static,
        E: Into<ProviderError>,
    {
        let provider: Provider = Box::new(move || provider().map_err(Into::into));
        Self::with_source(
            name,
            dtype,
            shape,
            Source::Deferred {
                len: byte_len,
                provider: Mutex::new(provider),
            },
        )
    }

    pub(crate) fn stored(
        name: String,
        dtype: DType,
        shape: Shape,
        param_id: Option<u64>,
        storage: Arc<Storage>,
        range: Range<usize>,
    ) -> Self {
        Self {
            name,
            dtype,
            shape,
            param_id,
            source: Source::Stored { storage, range },
        }
    }

    fn with_source(
        name: impl Into<String>,
        dtype: DType,
        shape: impl Into<Shape>,
        source: Source,
    ) -> Self {
        Self {
            name: name.into(),
            dtype,
            shape: shape.into(),
            param_id: None,
            source,
        }
    }

    /// Set the parameter id.
    pub fn with_param_id(mut self, param_id: u64) -> Self {
        self.param_id = Some(param_id);
        self
    }

    /// Length of the data in bytes (declared, for a deferred tensor).
    pub fn byte_len(&self) -> usize {
        match &self.source {
            Source::Resident(bytes) => bytes.len(),
            Source::Deferred { len, .. } => *len,
            Source::Stored { range, .. } => range.len(),
        }
    }

    /// Where the bytes of a tensor read from a pack lie in it: the byte range
    /// from the start of the file or buffer the [`Reader`](crate::Reader)
    /// opened, checked against its length. `None` for a resident or deferred
    /// tensor. Lets a caller that maps the file itself (to manage its pages)
    /// find the data without a second parse.
    pub fn pack_range(&self) -> Option<Range<usize>> {
        match &self.source {
            Source::Stored { range, .. } => Some(range.clone()),
            _ => None,
        }
    }

    /// Whether the bytes are still to be produced by a provider.
    pub fn is_deferred(&self) -> bool {
        matches!(self.source, Source::Deferred { .. })
    }

    /// The bytes, borrowed without copying: from memory for a resident
    /// tensor, straight from the mapping for a tensor of a file-backed
    /// [`Reader`](crate::Reader) (the first access faults the pages in).
    /// `None` for a deferred tensor, whose bytes do not exist yet.
    ///
    /// The slice starts on a 256-byte file offset, but its address is only as
    /// aligned as the mapping or buffer allows; use [`Tensor::into_bytes`] for
    /// a 64-byte-aligned copy to reinterpret as elements.
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.source {
            Source::Resident(bytes) => Some(bytes),
            Source::Deferred { .. } => None,
            // `range` was checked against the storage length when the pack
            // was opened, and storage is immutable, so this cannot go out of
            // bounds.
            Source::Stored { storage, range } => Some(&storage.as_slice()[range.clone()]),
        }
    }

    /// Take the bytes as an owned, 64-byte-aligned [`Bytes`].
    ///
    /// Resident bytes move out without a copy; stored bytes are copied out of
    /// the pack; a deferred tensor runs its provider and checks the length.
    pub fn into_bytes(self) -> Result<Bytes, Error> {
        match self.source {
            Source::Resident(bytes) => Ok(bytes),
            Source::Stored { storage, range } => Ok(Bytes::from_slice(&storage.as_slice()[range])),
            Source::Deferred { len, provider } => run_provider(&self.name, len, provider),
        }
    }

    /// Hand the bytes to `sink`, producing them first if deferred. Used by
    /// the writer so resident and stored bytes are never copied.
    pub(crate) fn with_bytes<T>(
        self,
        sink: impl FnOnce(&str, &[u8]) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match self.source {
            Source::Resident(bytes) => sink(&self.name, &bytes),
            Source::Stored { storage, range } => sink(&self.name, &storage.as_slice()[range]),
            Source::Deferred { len, provider } => {
                let bytes = run_provider(&self.name, len, provider)?;
                sink(&self.name, &bytes)
            }
        }
    }
}

fn run_provider(name: &str, len: usize, provider: Mutex<Provider>) -> Result<Bytes, Error> {
    let provider = provider
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let bytes = provider().map_err(|source| Error::Provider {
        name: name.to_owned(),
        source,
    })?;
    if bytes.len() != len {
        return Err(Error::ProviderLength {
            name: name.to_owned(),
            reserved: len as u64,
            found: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match &self.source {
            Source::Resident(_) => "resident",
            Source::Deferred { .. } => "deferred",
            Source::Stored { storage, .. } => storage.kind(),
        };
        f.debug_struct("Tensor")
            .field("name", &self.name)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape.dims)
            .field("param_id", &self.param_id)
            .field("byte_len", &self.byte_len())
            .field("source", &source)
            .finish()
    }
}
