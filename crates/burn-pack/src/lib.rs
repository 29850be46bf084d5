//! # burn-pack: the burnpack container format
//!
//! Reads and writes `.bpk` files: named tensors (raw little-endian bytes with
//! a dtype, a shape and an optional parameter id), user key/value metadata
//! and typed scalars, in one file that loads lazily through a memory map.
//!
//! ## What this crate must not depend on
//!
//! No tensor library and no backend: it moves bytes described by
//! [`burn_std::DType`] and [`burn_std::Shape`], and knows nothing of modules,
//! parameters or devices. `burn-core` (module records), `burn-optim`
//! (optimizer and scheduler records) and `burn-store` build on it. Keeping it
//! this small lets other tools read and write the format without pulling in
//! the framework.
//!
//! ## The file, version 1
//!
//! ```text
//!  offset 0  ┌──────────────────────────────────────────────────────────┐
//!            │ header, 10 bytes, little-endian                          │
//!            │   u32 magic 0x4255524E ("NRUB" on disk) │ u16 version 1  │
//!            │   u32 metadata length N                                  │
//!  10        ├──────────────────────────────────────────────────────────┤
//!            │ metadata: one CBOR map, N bytes                          │
//!            │   "tensors":  { name: { "dtype": "F32" | {"Bool": ..},   │
//!            │                         "shape": [u64, ..],              │
//!            │                         "data_offsets": [start, end],    │
//!            │                         "param_id": u64 (optional) } }   │
//!            │   "metadata": { string: string }        (optional)       │
//!            │   "scalars":  { string: {"Float": f64} | {"Int": i64}    │
//!            │                        | {"UInt": u64} | {"Bool": bool} }│
//!  10 + N    ├──────────────────────────────────────────────────────────┤
//!            │ zero padding up to a multiple of 256                     │
//!  D         ├──────────────────────────────────────────────────────────┤
//!            │ data section: each tensor at D + start, start a multiple │
//!            │ of 256, zero padding between tensors, none after the last│
//!            └──────────────────────────────────────────────────────────┘
//! ```
//!
//! The contributor book's "burnpack format" page spells the layout out byte
//! by byte for other implementers.
//!
//! ## Example
//!
//! ```
//! use burn_pack::{Reader, Tensor, Writer};
//! use burn_std::{Bytes, DType};
//!
//! // One tensor already in memory, one produced only when the writer gets to it.
//! let weight = Tensor::new("linear.weight", DType::F32, [2, 2], Bytes::from_elems(vec![1.0f32, 2.0, 3.0, 4.0]))
//!     .with_param_id(7);
//! let bias = Tensor::deferred("linear.bias", DType::F32, [2], 8, || {
//!     Ok::<_, std::io::Error>(Bytes::from_elems(vec![0.5f32, -0.5]))
//! });
//!
//! let bytes = Writer::new(vec![weight, bias])
//!     .with_metadata("format", "example")
//!     .with_scalar("epoch", 3u64)
//!     .into_bytes()?;
//!
//! let reader = Reader::from_bytes(bytes)?;
//! let names: Vec<_> = reader.names().collect();
//! assert_eq!(names, ["linear.weight", "linear.bias"]); // file order
//! let bias = reader.read_bytes("linear.bias")?;
//! assert_eq!(bias.as_slice_of::<f32>(), [0.5, -0.5]);
//! assert_eq!(reader.get("linear.weight").unwrap().param_id, Some(7));
//! assert_eq!(reader.scalar("epoch"), Some(burn_std::Scalar::UInt(3)));
//! # Ok::<(), burn_pack::Error>(())
//! ```
//!
//! ## Modules
//!
//! - [`tensor`]: [`Tensor`], resident, deferred or read from a pack.
//! - [`writer`]: [`Writer`], plan then stream; atomic and in-place file saves.
//! - [`reader`]: [`Reader`] and the [`ReadLimits`] it enforces.
//! - [`error`]: [`Error`], one enum for the crate.
//! - `format`, `metadata` (private): the byte layout and the hardened CBOR
//!   decoding.
//!
//! Every value from outside the program (files, buffers, providers) yields a
//! [`Error`] when it is wrong; nothing in this crate panics on bad input.
//! `unsafe` appears once, to memory-map a file.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
mod format;
mod metadata;
pub mod reader;
pub mod tensor;
pub mod writer;

pub use burn_std::Scalar;
pub use error::{Error, ProviderError};
pub use format::{ALIGNMENT, EXTENSION, FORMAT_VERSION, HEADER_LEN, MAGIC};
pub use reader::{ReadLimits, Reader};
pub use tensor::Tensor;
pub use writer::Writer;
