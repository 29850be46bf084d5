//! # burn-flex: the pure-Rust CPU backend
//!
//! Flex runs every op of the backend contract on the host CPU, for every
//! dtype of the contract, with no C dependency. It is the backend of users
//! without a GPU and the one CI tests, so it aims to be the fastest CPU path
//! a Rust user can pick.
//!
//! How it gets there:
//! - **Strided views.** A [`FlexTensor`] is a shared buffer plus a
//!   [`Layout`](layout::Layout) (shape, strides, offset). Permute, expand,
//!   slice (with steps), flip and reshape of contiguous data are views.
//! - **One engine for element-wise work** ([`engine`]): a kernel is a closure;
//!   the engine picks the in-place path for a uniquely owned buffer, flat
//!   loops over contiguous data, or a row-wise walk of merged strided dims.
//! - **Threads above a size threshold** ([`threads`], `threads` feature):
//!   helpers that spin between ops instead of sleeping, and work split in
//!   fixed chunks so results do not depend on the thread count.
//!
//! Flex depends only on the contract crates (`burn-backend`, `burn-std`) and
//! never on the tensor API. Without default features it builds with `alloc`
//! only (single-threaded).
//!
//! ## Example
//!
//! ```
//! use burn_backend::{FloatTensorOps, TensorData};
//! use burn_flex::{Flex, FlexDevice};
//!
//! let x = Flex::float_from_data(TensorData::from([[1.0f32, 2.0], [3.0, 4.0]]), &FlexDevice);
//! let y = Flex::float_matmul(x.clone(), Flex::float_swap_dims(x, 0, 1));
//! let data = Flex::float_into_data(y).unwrap();
//! assert_eq!(data.to_vec::<f32>().unwrap(), vec![5.0, 11.0, 11.0, 25.0]);
//! ```
//!
//! ## Modules
//! - [`tensor`]: [`FlexTensor`] and its buffer rules.
//! - [`layout`]: strided layouts and the row walker.
//! - [`engine`]: the element-wise `map`/`zip` engine.
//! - [`ops`]: kernels, one file per op family, each the impl of that
//!   family's kernel trait (`burn_backend::kernels`); the ops traits of every
//!   tensor kind come from burn-backend's adapters over them.
//! - [`threads`]: the worker threads parallel ops run on.
//! - `backend`: [`Flex`] and [`FlexDevice`], the device kernels, the fused softmax.
#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod backend;
pub mod dtype;
pub mod engine;
#[cfg(feature = "fusion")]
mod fusion;
pub mod layout;
pub mod ops;
pub mod rng;
pub mod tensor;
pub mod threads;

pub use backend::{Flex, FlexDevice};
pub use tensor::FlexTensor;
