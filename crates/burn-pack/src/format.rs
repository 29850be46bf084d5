//! The byte layout of format version 1: constants, the header, and the
//! CBOR metadata as the writer emits it.
//!
//! Everything here is shared by [`Reader`](crate::Reader) and
//! [`Writer`](crate::Writer) so the two cannot drift apart on where the data
//! section starts or how a descriptor is spelled.

use std::collections::BTreeMap;

use burn_std::{DType, Scalar, Shape};
use serde::Serialize;

use crate::Error;

/// Magic number at the start of every pack: the ASCII bytes `B U R N` read
/// as a big-endian number. It is stored little-endian like every other
/// integer, so a hex dump of a file starts with `4E 52 55 42` ("NRUB").
pub const MAGIC: u32 = 0x4255_524E;

/// The format version this crate writes and the only one it reads.
pub const FORMAT_VERSION: u16 = 1;

/// Length of the fixed header: magic (4) + version (2) + metadata length (4).
pub const HEADER_LEN: usize = 10;

/// Alignment of the data section and of every tensor's first byte, measured
/// from the start of the file.
///
/// 256 covers every element type, cache lines and the widest SIMD loads, and
/// is what GPU copy engines like; it costs at most 255 bytes per tensor.
pub const ALIGNMENT: u64 = 256;

/// File extension of burnpack files, without the dot. The writer uses paths
/// exactly as given; higher layers append this when a path has none.
pub const EXTENSION: &str = "bpk";

/// Round `offset` up to the next multiple of [`ALIGNMENT`], `None` on overflow.
pub(crate) fn align_up(offset: u64) -> Option<u64> {
    offset.checked_next_multiple_of(ALIGNMENT)
}

/// Absolute file position of the data section for a metadata blob of
/// `metadata_len` bytes: the header and metadata, padded to [`ALIGNMENT`].
///
/// Never overflows: `metadata_len` comes from a `u32` field.
pub(crate) fn data_section_start(metadata_len: u32) -> u64 {
    let unpadded = HEADER_LEN as u64 + u64::from(metadata_len);
    unpadded.next_multiple_of(ALIGNMENT)
}

/// The 10-byte header, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub metadata_len: u32,
}

impl Header {
    pub fn encode(self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..4].copy_from_slice(&MAGIC.to_le_bytes());
        out[4..6].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[6..10].copy_from_slice(&self.metadata_len.to_le_bytes());
        out
    }

    /// Decode and check magic and version. `bytes` may be shorter than a
    /// header (the caller's whole input), which is reported as truncation.
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(Error::Truncated {
                part: "header",
                needed: HEADER_LEN as u64,
                available: bytes.len() as u64,
            });
        };
        let magic = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        if magic != MAGIC {
            return Err(Error::BadMagic {
                found: magic,
                expected: MAGIC,
            });
        }
        let version = u16::from_le_bytes([header[4], header[5]]);
        if version != FORMAT_VERSION {
            return Err(Error::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let metadata_len = u32::from_le_bytes([header[6], header[7], header[8], header[9]]);
        Ok(Header { metadata_len })
    }
}

/// The metadata document as written. Field order is the order of the CBOR
/// map; empty optional maps are left out, as Burn's writer does.
#[derive(Serialize)]
pub(crate) struct MetadataOut<'a> {
    /// Keyed by name; a `BTreeMap` so keys come out sorted, which is what
    /// Burn writes. Data order is given by the offsets, not by this map.
    pub tensors: BTreeMap<&'a str, DescriptorOut>,
    #[serde(skip_serializing_if = "is_empty_ref")]
    pub metadata: &'a BTreeMap<String, String>,
    #[serde(skip_serializing_if = "is_empty_ref")]
    pub scalars: &'a BTreeMap<String, Scalar>,
}

fn is_empty_ref<K, V>(map: &&BTreeMap<K, V>) -> bool {
    map.is_empty()
}

/// One tensor's entry in the `tensors` map.
#[derive(Serialize)]
pub(crate) struct DescriptorOut {
    /// burn-std's serde form is the format's: `"F32"`, `{"Bool": "Native"}`.
    pub dtype: DType,
    pub shape: Vec<u64>,
    /// `[start, end)` relative to the data section; a tuple encodes as a
    /// two-element CBOR array.
    pub data_offsets: (u64, u64),
    #[serde(skip_serializing_if = "Option::is_none")]
    pub param_id: Option<u64>,
}

/// The shape of a tensor entry and its byte count, sized by burn-std's
/// checked [`Shape::try_num_bytes`] (the one place a shape becomes a size):
/// a dim that does not fit `usize`, or an element or byte count past
/// `isize::MAX` (more than any buffer can hold), is [`Error::SizeOverflow`].
pub(crate) fn checked_shape(name: &str, dtype: DType, dims: &[u64]) -> Result<(Shape, u64), Error> {
    let overflow = || Error::SizeOverflow {
        name: name.to_owned(),
        shape: dims.to_vec(),
        dtype,
    };
    let usize_dims = dims
        .iter()
        .map(|&dim| usize::try_from(dim))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| overflow())?;
    let shape = Shape::from(usize_dims);
    let bytes = shape.try_num_bytes(dtype).map_err(|_| overflow())?;
    Ok((shape, bytes as u64))
}
