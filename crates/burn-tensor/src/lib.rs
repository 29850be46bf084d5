//! # burn-tensor: the public tensor API
//!
//! [`Tensor<D, K>`](Tensor) is an n-dimensional array whose rank `D` and kind
//! `K` ([`Float`], [`Int`], [`Bool`]) are in its type and whose backend and
//! dtype are chosen at run time by its [`Device`]. No public signature names
//! a backend type: model code written against this crate runs on every
//! enabled backend.
//!
//! An op travels Tensor → Bridge → Dispatch → Backend:
//! `tensor/api` checks shapes and calls a non-generic function of
//! `bridge::ops` (compiled once, here), which calls the `Dispatch` backend
//! of `burn-dispatch`, which routes to the backend holding the operands.
//!
//! This crate must not depend on any backend directly: backends are reached
//! through `burn-dispatch`, enabled by features: `flex` (`Device::flex()`),
//! and the CubeCL runtimes `wgpu` (`Device::wgpu(..)`; `vulkan`, `webgpu`
//! and `metal` add constructors of the same name), `cuda`
//! (`Device::cuda(i)`), `rocm` (`Device::rocm(i)`) and `cpu`
//! (`Device::cpu()`; its build downloads an LLVM bundle).
//!
//! ## Example
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::{Device, Tensor, TensorData};
//!
//! let device = Device::flex();
//! let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
//! let y = x.clone().matmul(x);
//! assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![7.0, 10.0, 15.0, 22.0]);
//! # }
//! ```
//!
//! ## Errors: panic or `Result`
//!
//! A shape, dim, dtype or index error in a tensor op is a bug in the
//! calling code: the op panics with a message naming the op and the
//! offending values (`#[track_caller]` points the panic at your line).
//! Where a caller can sensibly recover (a size chosen at run time, a
//! backend that runs out of memory) the op has a `try_*` form returning
//! [`TensorError`]: [`Tensor::try_zeros`], [`try_ones`](Tensor::try_ones),
//! [`try_full`](Tensor::try_full), [`try_from_data`](Tensor::try_from_data),
//! [`try_reshape`](Tensor::try_reshape), [`try_matmul`](Tensor::try_matmul),
//! [`try_cat`](Tensor::try_cat), [`try_to_device`](Tensor::try_to_device),
//! [`try_into_data`](Tensor::try_into_data). The panicking form is its `try_*`
//! form plus a panic with the same message. Sizes are always checked: a
//! shape whose element or byte count overflows, or whose buffer cannot be
//! allocated, is an error naming the op and the shape, never a wrapped count
//! or a process abort.
//!
//! When each is reported: a count that overflows needs no device, so the
//! op itself fails on every backend. An allocation is the backend's: eager
//! Flex makes it in the op, while Fusion queues the op and allocates when
//! the queue runs, so there the refusal is the `Err` of the first read of
//! the result ([`try_into_data`](Tensor::try_into_data), naming the read
//! and the tensor's shape).
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::{Device, Tensor};
//!
//! // 4 TiB of f32: refused by the op, or by the read under Fusion.
//! let err = Tensor::<2>::try_zeros([1 << 20, 1 << 20], &Device::flex())
//!     .and_then(Tensor::try_into_data)
//!     .unwrap_err();
//! assert!(err.to_string().ends_with(
//!     "cannot allocate 4398046511104 bytes for shape [1048576, 1048576] (f32)"
//! ));
//! // An overflowing byte count fails at the op on every backend.
//! let err = Tensor::<2>::try_zeros([1 << 31, 1 << 31], &Device::flex()).unwrap_err();
//! assert_eq!(err.op, "zeros");
//! # }
//! ```
//!
//! ## Modules
//! - [`tensor`]: [`Tensor`], kinds, [`TensorError`], the API files, [`activation`](tensor::activation),
//!   [`module`](tensor::module) (pooling, interpolation, attention).
//! - [`device`]: [`Device`], [`DeviceConfig`], [`DeviceSettings`].
//! - `bridge`: the opaque [`BridgeTensor`] and its forwarding functions.

pub mod bridge;
pub mod device;
#[cfg(feature = "remote")]
pub mod remote;
#[cfg(feature = "remote-server")]
pub mod server;
pub mod tensor;

pub use bridge::BridgeTensor;

/// The error a backend reports when queued work fails or cannot be read back.
pub use burn_backend::ExecutionError;
/// burn-dispatch, for the code `#[backend_extension]` generates (through
/// the facade's `burn::backend::__dispatch`).
#[cfg(feature = "extension")]
#[doc(hidden)]
pub use burn_dispatch as __dispatch;
/// Whether f32 matmul (and convolution) on the GPU devices may use TF32
/// tensor cores: off by default (strict f32, as PyTorch); see
/// `burn_cubecl::set_allow_tf32`. Named `burn::tensor::set_allow_tf32` in
/// the facade.
#[cfg(any(feature = "wgpu", feature = "cuda", feature = "rocm", feature = "cpu"))]
pub use burn_dispatch::cube::{allow_tf32, set_allow_tf32};
/// A WGPU adapter, the argument of `Device::wgpu` (and of `Device::vulkan`,
/// `Device::webgpu`, `Device::metal`): `WgpuDevice::DefaultDevice` (also
/// `Default::default()`), `DiscreteGpu(i)`, `IntegratedGpu(i)`,
/// `VirtualGpu(i)` or `Cpu`. Named `burn::tensor::WgpuDevice` in the facade
/// (`wgpu` feature).
#[cfg(feature = "wgpu")]
pub use burn_dispatch::devices::WgpuDevice;
pub use device::{
    Device, DeviceConfig, DeviceError, DeviceFilter, DeviceIndex, DeviceKind, DeviceSettings,
    DeviceType, Devices,
};
pub use tensor::slice::{AsIndex, BroadcastArgs, IntoSlice, ReshapeArgs, SliceArg};
pub use tensor::{
    Bool, Float, Int, Numeric, Tensor, TensorCreationOptions, TensorError, TensorErrorCause,
    TensorKind, TensorReadError, activation, module, ops, quantization,
};
#[cfg(feature = "autodiff")]
pub use tensor::{Checkpointing, Gradients};

pub use burn_std::{
    BoolStore, Bytes, DType, Distribution, Element, ElementConversion, Scalar, Shape, SizeError,
    Slice, TensorData, Tolerance, bf16, f16, flex32,
};
