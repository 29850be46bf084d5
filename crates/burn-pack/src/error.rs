//! The one error type of the crate.
//!
//! Policy: everything that comes from outside the program (a file, a byte
//! buffer, a provider closure, the disk) is reported as an [`Error`], never a
//! panic. Variants carry the offending names, offsets and lengths as fields
//! so callers can react to them without parsing messages.

use std::io;
use std::path::PathBuf;

/// What a deferred tensor's provider may fail with.
pub type ProviderError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong while reading or writing a pack.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file operation failed.
    #[error("cannot {action} `{}`", path.display())]
    File {
        /// What was being done: "open", "map", "create", "write", "rename", ...
        action: &'static str,
        /// The file concerned.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },

    /// Writing to a caller-supplied sink ([`Writer::write_into`](crate::Writer::write_into)) failed.
    #[error("cannot write the pack to its sink")]
    Sink {
        /// The sink's error.
        #[source]
        source: io::Error,
    },

    /// The input ends before a part the header or metadata announces.
    #[error("truncated pack: {part} needs {needed} bytes but only {available} are present")]
    Truncated {
        /// Which part is cut short ("header", "metadata", ...).
        part: &'static str,
        /// Bytes the part needs, counted from the start of the file.
        needed: u64,
        /// Bytes the input actually has.
        available: u64,
    },

    /// The first four bytes are not the burnpack magic number.
    #[error("not a burnpack file: magic number {found:#010x}, expected {expected:#010x}")]
    BadMagic {
        /// The value read (little-endian `u32`).
        found: u32,
        /// [`MAGIC`](crate::MAGIC).
        expected: u32,
    },

    /// The header names a format version this crate does not read.
    #[error("unsupported burnpack format version {found} (this reader supports {supported})")]
    UnsupportedVersion {
        /// The version read.
        found: u16,
        /// [`FORMAT_VERSION`](crate::FORMAT_VERSION).
        supported: u16,
    },

    /// The header announces more metadata than [`ReadLimits`](crate::ReadLimits) allow.
    #[error("metadata of {size} bytes exceeds the limit of {limit} bytes")]
    MetadataTooLarge {
        /// Declared metadata length.
        size: u64,
        /// The configured limit.
        limit: u64,
    },

    /// The metadata nests deeper than [`ReadLimits::max_nesting_depth`](crate::ReadLimits::max_nesting_depth).
    #[error("metadata nests deeper than the limit of {limit} levels")]
    MetadataTooDeep {
        /// The configured limit.
        limit: usize,
    },

    /// The metadata is not the CBOR document the format describes.
    #[error("malformed pack metadata")]
    MetadataDecode {
        /// The decoder's error.
        #[source]
        source: ProviderError,
    },

    /// The CBOR document ends before the metadata length the header declares.
    #[error("metadata has {unused} unused bytes after its CBOR document ({declared} declared)")]
    MetadataTrailingBytes {
        /// Bytes left after the document.
        unused: u64,
        /// Metadata length from the header.
        declared: u64,
    },

    /// Encoding the metadata failed while writing.
    #[error("cannot encode pack metadata")]
    MetadataEncode {
        /// The encoder's error.
        #[source]
        source: ProviderError,
    },

    /// The encoded metadata does not fit the header's 32-bit length field.
    #[error("metadata of {size} bytes does not fit the 32-bit length field of the header")]
    MetadataOverflow {
        /// Encoded metadata length.
        size: u64,
    },

    /// The pack holds more tensors than [`ReadLimits::max_tensor_count`](crate::ReadLimits::max_tensor_count).
    #[error("pack declares at least {found} tensors, over the limit of {limit}")]
    TooManyTensors {
        /// Number declared (or counted so far, for indefinite-length maps).
        found: u64,
        /// The configured limit.
        limit: usize,
    },

    /// One tensor is larger than [`ReadLimits::max_tensor_bytes`](crate::ReadLimits::max_tensor_bytes).
    #[error("tensor `{name}` has {size} bytes, over the limit of {limit}")]
    TensorTooLarge {
        /// Tensor name.
        name: String,
        /// Its length in bytes.
        size: u64,
        /// The configured limit.
        limit: u64,
    },

    /// A descriptor names a dtype this crate does not know.
    #[error("tensor `{name}` has unknown dtype {dtype}")]
    UnknownDType {
        /// Tensor name.
        name: String,
        /// The dtype as written in the file.
        dtype: String,
    },

    /// Two tensors share one name.
    #[error("duplicate tensor name `{name}`")]
    DuplicateTensor {
        /// The repeated name.
        name: String,
    },

    /// A lookup by name found nothing.
    #[error("no tensor named `{name}` in the pack")]
    TensorNotFound {
        /// The name looked up.
        name: String,
    },

    /// A tensor's `data_offsets` end before they start.
    #[error("tensor `{name}` has data offsets [{start}, {end}) that end before they start")]
    ReversedOffsets {
        /// Tensor name.
        name: String,
        /// Start offset (relative to the data section).
        start: u64,
        /// End offset (relative to the data section).
        end: u64,
    },

    /// The shape's element or byte count exceeds `isize::MAX` (no buffer can
    /// hold it), or a dim does not fit `usize`.
    #[error(
        "tensor `{name}` with shape {shape:?} and dtype {dtype} has a byte size that overflows"
    )]
    SizeOverflow {
        /// Tensor name.
        name: String,
        /// Its shape.
        shape: Vec<u64>,
        /// Its dtype.
        dtype: burn_std::DType,
    },

    /// A tensor's byte length disagrees with its shape and dtype.
    #[error(
        "tensor `{name}` with shape {shape:?} and dtype {dtype} needs {expected} bytes, \
         but {found} are declared"
    )]
    LengthMismatch {
        /// Tensor name.
        name: String,
        /// Its shape.
        shape: Vec<u64>,
        /// Its dtype.
        dtype: burn_std::DType,
        /// `product(shape) * dtype.size()`.
        expected: u64,
        /// The declared length (offsets span or `Tensor::deferred` length).
        found: u64,
    },

    /// A tensor's bytes lie (partly) past the end of the input.
    #[error(
        "tensor `{name}` ends at byte {end} of the file, past its end at {file_len} \
         (data offsets [{start}, {data_end}) after a data section starting at {data_start})"
    )]
    OutOfBounds {
        /// Tensor name.
        name: String,
        /// Start offset relative to the data section.
        start: u64,
        /// End offset relative to the data section.
        data_end: u64,
        /// Absolute file position of the data section.
        data_start: u64,
        /// Absolute end position, `data_start + data_end` (saturating).
        end: u64,
        /// Length of the input.
        file_len: u64,
    },

    /// Two tensors claim overlapping bytes.
    #[error(
        "tensors `{first}` [{first_start}, {first_end}) and `{second}` [{second_start}, {second_end}) overlap"
    )]
    Overlap {
        /// The tensor that starts first.
        first: String,
        /// Its start offset.
        first_start: u64,
        /// Its end offset.
        first_end: u64,
        /// The tensor that starts inside the first.
        second: String,
        /// Its start offset.
        second_start: u64,
        /// Its end offset.
        second_end: u64,
    },

    /// The layout of a pack being written overflows 64-bit offsets or the
    /// address space of an in-memory sink.
    #[error("pack layout overflows: {what}")]
    LayoutOverflow {
        /// Which quantity overflowed.
        what: &'static str,
    },

    /// A deferred tensor's provider returned an error.
    #[error("provider of tensor `{name}` failed")]
    Provider {
        /// Tensor name.
        name: String,
        /// The provider's error.
        #[source]
        source: ProviderError,
    },

    /// A deferred tensor's provider returned a different length than reserved.
    #[error("provider of tensor `{name}` produced {found} bytes, but {reserved} were reserved")]
    ProviderLength {
        /// Tensor name.
        name: String,
        /// Length given to `Tensor::deferred`.
        reserved: u64,
        /// Length the provider produced.
        found: u64,
    },
}

impl Error {
    pub(crate) fn file(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        Error::File {
            action,
            path: path.into(),
            source,
        }
    }
}
