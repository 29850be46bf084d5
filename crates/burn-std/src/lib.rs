//! # burn-std
//!
//! The vocabulary every other crate of the framework shares: shapes, element
//! types, host-side tensor data, scalars, slices, random distributions and a
//! few low-level helpers. It sits at the bottom of the dependency graph.
//!
//! ## What this crate must not depend on
//!
//! No backend and no tensor type: everything here describes data, never
//! computes on a device. Keeping it that way lets backends, serialization and
//! user code agree on these types without pulling in one another. It is also
//! `no_std` (with `alloc`) so embedded and WASM targets get the same types;
//! the default `std` feature only turns on the `std` features of
//! dependencies.
//!
//! ## Example
//!
//! ```
//! use burn_std::{DType, Shape, TensorData, Tolerance};
//!
//! let data = TensorData::from([[1.0f32, 2.0], [3.0, 4.0]]);
//! assert_eq!(data.shape, Shape::new([2, 2]));
//! assert_eq!(data.dtype, DType::F32);
//!
//! let halves = data.convert_dtype(DType::F16);
//! halves.assert_approx_eq::<f32>(&data, Tolerance::default());
//!
//! let shape = Shape::new([2, 1]).broadcast(&Shape::new([3])).unwrap();
//! assert_eq!(shape.to_string(), "[2, 3]");
//! ```
//!
//! ## Modules
//!
//! * [`shape`]: [`Shape`] and NumPy broadcasting.
//! * [`dtype`]: the runtime [`DType`] and boolean storage [`BoolStore`].
//! * [`element`]: the [`Element`] trait for Rust types a tensor can hold,
//!   and [`ElementConversion`]; [`flex32`](struct@flex32), a float of
//!   relaxed precision (stored as `f32` here).
//! * [`scalar`]: [`Scalar`], a dynamically typed number.
//! * [`data`]: [`TensorData`], values + shape + dtype on the host.
//! * [`tolerance`]: [`Tolerance`] for approximate comparisons.
//! * [`bytes`]: [`Bytes`], the 64-byte-aligned buffer behind tensor data.
//! * [`distribution`]: [`Distribution`] and the reproducible [`Rng`].
//! * [`slice`](mod@slice): [`Slice`], Python-style strided ranges.
//! * [`obfuscate`](mod@obfuscate): the [`obfuscate!`] macro for inline type-erased storage.
//! * [`error`]: [`ShapeError`], [`DataError`], [`SliceError`], and
//!   [`SizeError`], the one error every size computed from a shape reports
//!   (element or byte count past `isize::MAX`, a refused allocation).
//! * `config` (`std`): `BurnConfig`, the run-time configuration read
//!   from `burn.toml` (parsed and handed out; nothing acts on it yet).
//! * `threads` (`std`): the thread budget (`BURN_FLEX_THREADS`, else every
//!   core) that Flex's pool and burn-store's copies share.
//!
//! ## Re-exports
//!
//! Every public type is re-exported at the crate root, together with
//! [`f16`](struct@f16) and [`bf16`](struct@bf16) from `half` and [`Pod`] from `bytemuck`, which appear
//! in this crate's signatures.
//!
//! `unsafe` code is confined to [`bytes`] and the expansion of
//! [`obfuscate!`]; the rest of the crate denies it.

#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod bytes;
#[cfg(feature = "std")]
pub mod config;
pub mod data;
pub mod distribution;
pub mod dtype;
pub mod element;
pub mod error;
pub mod obfuscate;
pub mod quantization;
mod relaxed;
pub mod scalar;
pub mod shape;
pub mod slice;
#[cfg(feature = "std")]
pub mod threads;
pub mod tolerance;

pub use bytemuck::Pod;
pub use bytes::{BufferInit, Bytes};
pub use data::TensorData;
pub use distribution::{Distribution, Rng};
pub use dtype::{BoolStore, DType};
pub use element::{Element, ElementConversion};
pub use error::{DataError, ShapeError, SizeError, SliceError};
pub use half::{bf16, f16};
pub use relaxed::flex32;
pub use scalar::Scalar;
pub use shape::Shape;
pub use slice::Slice;
pub use tolerance::Tolerance;
