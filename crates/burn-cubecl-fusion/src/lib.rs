//! # burn-cubecl-fusion: the CubeCL kernels of fused blocks
//!
//! burn-fusion finds the blocks of queued operations worth running as one
//! kernel; this crate holds the CubeCL side of that: [`elementwise`], one
//! kernel generated per fused element-wise program, [`reduce`], one kernel
//! per fused row block (reductions along the last dim with the element-wise
//! work around them), and [`math`], the
//! element-wise functions those kernels and burn-cubecl's unfused kernels
//! share, so both compute each op the same way.
//!
//! It knows neither burn-fusion's programs nor burn-cubecl's tensors:
//! burn-cubecl (its `fusion` feature) lowers a program to a
//! [`FusedBlock`](elementwise::FusedBlock) and launches it on its own
//! buffers. The kernels compile with the `kernels` feature, which
//! burn-cubecl's runtime features turn on; without it the crate is empty.
#![no_std]
// No `missing_docs`: `#[cube]` generates undocumented items for every
// kernel function.

#[cfg(feature = "kernels")]
extern crate alloc;

#[cfg(feature = "kernels")]
pub mod elementwise;
#[cfg(feature = "kernels")]
pub mod math;
#[cfg(feature = "kernels")]
pub mod reduce;
