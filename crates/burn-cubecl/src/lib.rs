//! # burn-cubecl: the CubeCL backend
//!
//! One backend, [`CubeBackend`], for every CubeCL runtime: the [`CubeDevice`]
//! picks CUDA, ROCm, WGPU or CubeCL's CPU runtime, each behind the crate
//! feature of the same name. Kernels are written once with `#[cube]` and
//! compiled by cubecl for the device at run time; the dtype is a run-time
//! parameter of each kernel, so one Rust function serves every dtype.
//!
//! How it is built:
//! - **One primitive.** [`CubeTensor`] is a device buffer plus shape,
//!   strides, an element offset and a run-time dtype, for float, int and
//!   bool tensors alike (bools are stored as `u32` words). Permute, expand,
//!   reshape of contiguous data and positive-step slices are views.
//! - **Runtime erasure.** cubecl's clients are generic over the runtime;
//!   `client::CubeClient` holds one of them and a `with_runtime!` match
//!   hands each launcher its runtime type.
//! - **Kernels** (`ops`): element-wise kernels take the op as a
//!   compile-time parameter and walk contiguous inputs with vector loads or
//!   strided/broadcast inputs per element; cubek supplies tiled matmul
//!   (tensor cores where the device has them) and random sampling.
//!
//! Runtimes: `cuda` (NVIDIA, needs the driver and NVRTC at run time), `rocm`,
//! `wgpu` (Vulkan, Metal, DirectX, WebGPU; WGSL), `vulkan` (SPIR-V), and `cpu`
//! (CubeCL's MLIR CPU runtime: its build downloads an LLVM bundle, so it
//! needs a network while building).
//!
//! With the `fusion` feature, [`CubeBackend`] is a
//! [`FusionBackend`](burn_fusion::FusionBackend) and [`Cube`] is
//! `Fusion<CubeBackend>`: under burn-fusion's decorator, chains of
//! element-wise ops run as one generated kernel each (the kernels live in
//! burn-cubecl-fusion). Without it, [`Cube`] is [`CubeBackend`].
//!
//! Without a runtime feature the crate is empty: a workspace build that
//! does not ask for a GPU compiles none of CubeCL.

extern crate alloc;

#[cfg(feature = "runtime")]
mod backend;
#[cfg(feature = "runtime")]
pub mod client;
#[cfg(feature = "runtime")]
pub mod device;
#[cfg(feature = "runtime")]
pub mod dtype;
#[cfg(all(feature = "runtime", feature = "fusion"))]
mod fusion;
#[cfg(feature = "runtime")]
pub mod ops;
/// Hand-written kernels in the runtime's own language (WGSL, CUDA C++).
#[cfg(all(feature = "template", feature = "runtime"))]
pub mod template;
#[cfg(feature = "runtime")]
pub mod tensor;

#[cfg(feature = "runtime")]
pub use backend::CubeBackend;
/// The CubeCL backend under the Fusion decorator (`fusion` feature).
#[cfg(all(feature = "runtime", feature = "fusion"))]
pub type Cube = burn_fusion::Fusion<CubeBackend>;
/// The CubeCL backend (without the `fusion` feature, no decorator).
#[cfg(all(feature = "runtime", not(feature = "fusion")))]
pub type Cube = CubeBackend;
#[cfg(feature = "runtime")]
pub use client::{CubeClient, CubeLaunch, MemoryReport, launch_dims, memory_report};
/// CubeCL, for the kernels of backend extensions (`#[cube]` resolves its
/// paths through `cubecl`: `use burn::cubecl;` brings it in scope).
#[cfg(feature = "runtime")]
pub use cubecl;
#[cfg(feature = "runtime")]
pub use device::CubeDevice;
#[cfg(feature = "wgpu")]
pub use device::WgpuDevice;
#[cfg(feature = "runtime")]
pub use ops::matmul::{allow_tf32, set_allow_tf32};
#[cfg(feature = "runtime")]
pub use tensor::CubeTensor;
