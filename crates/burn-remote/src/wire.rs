//! The wire format: one frame per WebSocket binary message.
//!
//! ```text
//!  offset  size  field
//!  0       4     magic  b"BRMT"
//!  4       2     version (u16, little endian), WIRE_VERSION
//!  6       1     direction: 1 client -> server, 2 server -> client
//!  7       1     flags, 0 (reserved)
//!  8       8     body length in bytes (u64, little endian)
//!  16      n     body: one ClientMessage or ServerMessage, postcard-encoded
//! ```
//!
//! The header is checked in full before the body is looked at: the body
//! length must equal the bytes that actually arrived (a lying prefix is an
//! error, not an allocation) and stay under the receiver's maximum message
//! size, and the body must decode to exactly one message with no trailing
//! bytes. The decoder reads from the received slice: every length inside the
//! body (a `Vec`, a byte string) is bounded by the bytes present, so nothing
//! is allocated beyond what the peer actually sent.
//!
//! The WebSocket layer enforces the same maximum on frames and messages
//! before buffering them, so an oversized message is refused while its
//! header arrives.

use alloc::string::String;
use alloc::vec::Vec;

use burn_ir::{OperationIr, TensorIr};
use burn_std::{DType, TensorData};
use serde::{Deserialize, Serialize};

/// The version of this format. A peer speaking another is refused at the
/// first frame.
pub const WIRE_VERSION: u16 = 1;
/// The four bytes every frame starts with.
pub const MAGIC: [u8; 4] = *b"BRMT";
/// Header bytes before the body.
pub const HEADER_LEN: usize = 16;
/// The default largest frame accepted (header and body): 1 GiB, room for a
/// 256 MiB tensor with headroom; [`ServerSettings`](crate::server::ServerSettings)
/// and the client options can lower or raise it.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1 << 30;

/// Which way a frame travels (byte 6 of the header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Client to server.
    ToServer = 1,
    /// Server to client.
    ToClient = 2,
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// The first message of a session: the credential and the device.
    /// `device_index: None` asks only for the list of devices.
    Hello {
        /// The shared secret, when the server requires one.
        token: Option<String>,
        /// Which of the server's devices this session uses.
        device_index: Option<u32>,
    },
    /// Requests to run in order.
    Batch(Vec<Request>),
}

/// One request of a batch.
// Operations are the common request and the largest (an `OperationIr`
// names up to a few `TensorIr`s, each with its dtype, which may carry a
// quantization scheme); boxing them would allocate once per recorded op.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Execute an operation.
    Op(OperationIr),
    /// Create `out` from `data`.
    Tensor {
        /// The tensor created.
        out: TensorIr,
        /// Its values.
        data: TensorData,
    },
    /// Read one use of a tensor; answered by [`ServerMessage::Data`].
    Read {
        /// The client's number for the answer.
        request: u64,
        /// The tensor.
        tensor: TensorIr,
    },
    /// Wait for the device; answered by [`ServerMessage::Synced`].
    Sync {
        /// The client's number for the answer.
        request: u64,
    },
    /// Seed the device's random generator.
    Seed(u64),
}

/// What a server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// The answer to `Hello`: the server's devices, and the chosen one.
    Welcome {
        /// A readable name per device, by index.
        devices: Vec<String>,
        /// The chosen device, when one was asked for.
        device: Option<DeviceInfo>,
    },
    /// The answer to a read.
    Data {
        /// The request answered.
        request: u64,
        /// The values, or why they could not be computed.
        result: Result<TensorData, String>,
    },
    /// The answer to a sync.
    Synced {
        /// The request answered.
        request: u64,
        /// Whether the device finished its work without error.
        result: Result<(), String>,
    },
    /// The session is over; the server closes the connection after this.
    Error(String),
}

/// What a client needs to know of its device without asking each time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// The backend's name of the device.
    pub name: String,
    /// Every dtype the device holds and computes.
    pub supported: Vec<DType>,
    /// The float dtype of tensors created without one.
    pub float: DType,
    /// The int dtype of tensors created without one.
    pub int: DType,
    /// The dtype of the bool tensors its ops produce.
    pub bool: DType,
    /// The int dtype of the indices its ops return.
    pub index: DType,
}

/// Why a frame was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Fewer bytes than a header.
    #[error("frame of {len} bytes is shorter than the {HEADER_LEN}-byte header")]
    Truncated {
        /// The bytes received.
        len: usize,
    },
    /// The first four bytes are not [`MAGIC`].
    #[error("frame does not start with the magic bytes BRMT (got {found:02x?})")]
    BadMagic {
        /// The bytes found.
        found: [u8; 4],
    },
    /// Another version of the format.
    #[error("wire version {found} is not supported (this build speaks {WIRE_VERSION})")]
    Version {
        /// The version announced.
        found: u16,
    },
    /// A frame travelling the wrong way, or reserved flags set.
    #[error("frame header has direction {direction} and flags {flags}, expected {expected} and 0")]
    Header {
        /// Byte 6.
        direction: u8,
        /// Byte 7.
        flags: u8,
        /// The direction expected.
        expected: u8,
    },
    /// The declared body length is not what arrived.
    #[error("frame declares a body of {declared} bytes but carries {actual}")]
    LengthMismatch {
        /// The length in the header.
        declared: u64,
        /// The bytes after the header.
        actual: usize,
    },
    /// Over the receiver's maximum.
    #[error("message of {len} bytes exceeds the maximum of {max} bytes")]
    TooLarge {
        /// The frame's size.
        len: u64,
        /// The limit.
        max: usize,
    },
    /// The body is not one valid message.
    #[error("malformed message body ({len} bytes): {reason}")]
    Malformed {
        /// The body's size.
        len: usize,
        /// The decoder's words.
        reason: String,
    },
    /// The body decoded with bytes left over.
    #[error("message body has {extra} trailing bytes")]
    Trailing {
        /// The bytes after the message.
        extra: usize,
    },
    /// The message could not be encoded (or is over the maximum).
    #[error("cannot encode message: {0}")]
    Encode(String),
}

/// `message` as one frame.
pub fn encode<T: Serialize>(
    direction: Direction,
    message: &T,
    max: usize,
) -> Result<Vec<u8>, WireError> {
    let mut frame = Vec::with_capacity(HEADER_LEN + 64);
    frame.extend_from_slice(&MAGIC);
    frame.extend_from_slice(&WIRE_VERSION.to_le_bytes());
    frame.push(direction as u8);
    frame.push(0);
    frame.extend_from_slice(&[0; 8]);
    let mut frame = postcard::to_extend(message, frame)
        .map_err(|error| WireError::Encode(alloc::format!("{error}")))?;
    let body = (frame.len() - HEADER_LEN) as u64;
    frame[8..16].copy_from_slice(&body.to_le_bytes());
    if frame.len() > max {
        return Err(WireError::TooLarge {
            len: frame.len() as u64,
            max,
        });
    }
    Ok(frame)
}

/// The message in `frame`, after checking its header against `expected`
/// and `max`.
pub fn decode<'a, T: Deserialize<'a>>(
    expected: Direction,
    frame: &'a [u8],
    max: usize,
) -> Result<T, WireError> {
    let body = check_header(expected, frame, max)?;
    let (message, rest) =
        postcard::take_from_bytes::<T>(body).map_err(|error| WireError::Malformed {
            len: body.len(),
            reason: alloc::format!("{error}"),
        })?;
    if !rest.is_empty() {
        return Err(WireError::Trailing { extra: rest.len() });
    }
    Ok(message)
}

/// The body of `frame`, when its header is valid.
fn check_header(expected: Direction, frame: &[u8], max: usize) -> Result<&[u8], WireError> {
    if frame.len() > max {
        return Err(WireError::TooLarge {
            len: frame.len() as u64,
            max,
        });
    }
    if frame.len() < HEADER_LEN {
        return Err(WireError::Truncated { len: frame.len() });
    }
    let magic: [u8; 4] = [frame[0], frame[1], frame[2], frame[3]];
    if magic != MAGIC {
        return Err(WireError::BadMagic { found: magic });
    }
    let version = u16::from_le_bytes([frame[4], frame[5]]);
    if version != WIRE_VERSION {
        return Err(WireError::Version { found: version });
    }
    if frame[6] != expected as u8 || frame[7] != 0 {
        return Err(WireError::Header {
            direction: frame[6],
            flags: frame[7],
            expected: expected as u8,
        });
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&frame[8..16]);
    let declared = u64::from_le_bytes(len);
    let actual = frame.len() - HEADER_LEN;
    if declared != actual as u64 {
        return Err(WireError::LengthMismatch { declared, actual });
    }
    Ok(&frame[HEADER_LEN..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello() -> ClientMessage {
        ClientMessage::Hello {
            token: Some("secret".into()),
            device_index: Some(0),
        }
    }

    #[test]
    fn round_trip() {
        let frame = encode(Direction::ToServer, &hello(), 1 << 20).unwrap();
        let back: ClientMessage = decode(Direction::ToServer, &frame, 1 << 20).unwrap();
        assert_eq!(back, hello());
    }

    #[test]
    fn header_errors_name_what_is_wrong() {
        let frame = encode(Direction::ToServer, &hello(), 1 << 20).unwrap();
        let check = |bytes: &[u8]| decode::<ClientMessage>(Direction::ToServer, bytes, 1 << 20);

        assert_eq!(check(&frame[..3]), Err(WireError::Truncated { len: 3 }));
        let mut bad = frame.clone();
        bad[0] = b'X';
        assert!(matches!(check(&bad), Err(WireError::BadMagic { .. })));
        let mut bad = frame.clone();
        bad[4] = 9;
        assert_eq!(check(&bad), Err(WireError::Version { found: 9 }));
        let mut bad = frame.clone();
        bad[6] = 2;
        assert!(matches!(check(&bad), Err(WireError::Header { .. })));
        // A prefix claiming far more than arrived: refused, nothing allocated.
        let mut bad = frame.clone();
        bad[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            check(&bad),
            Err(WireError::LengthMismatch {
                declared: u64::MAX,
                actual: frame.len() - HEADER_LEN
            })
        );
        let mut bad = frame.clone();
        bad.push(0);
        bad[8..16].copy_from_slice(&((frame.len() - HEADER_LEN + 1) as u64).to_le_bytes());
        assert_eq!(check(&bad), Err(WireError::Trailing { extra: 1 }));
        assert!(matches!(
            decode::<ClientMessage>(Direction::ToServer, &frame, 8),
            Err(WireError::TooLarge { max: 8, .. })
        ));
    }

    #[test]
    fn a_lying_vec_length_inside_the_body_allocates_nothing() {
        // Batch with a declared length of u32::MAX elements and no elements:
        // postcard sees the end of the body before any element.
        let mut body = vec![1u8]; // variant Batch
        body.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]); // varint u32::MAX
        let mut frame = Vec::new();
        frame.extend_from_slice(&MAGIC);
        frame.extend_from_slice(&WIRE_VERSION.to_le_bytes());
        frame.extend_from_slice(&[1, 0]);
        frame.extend_from_slice(&(body.len() as u64).to_le_bytes());
        frame.extend_from_slice(&body);
        let result = decode::<ClientMessage>(Direction::ToServer, &frame, 1 << 20);
        assert!(
            matches!(result, Err(WireError::Malformed { .. })),
            "{result:?}"
        );
    }
}
