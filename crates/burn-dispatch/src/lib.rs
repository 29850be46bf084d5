//! # burn-dispatch: run-time selection of the backend
//!
//! `Dispatch` is a backend whose primitives are enums over the primitives of
//! every enabled backend ([`DispatchTensor`]) and whose device is an enum
//! over their devices ([`DispatchDevice`]). Each op looks at the variant of
//! its operands and calls that backend; creation ops look at the device.
//! Operands held by different backends or devices are an error naming both;
//! data moves between devices only through `*_to_device`.
//!
//! The set of backends is fixed by the catalog in
//! `burn-backend-extension/src/catalog.rs`; the routing `match`es are
//! generated from it by `#[backend_dispatch]`, so adding a backend to the
//! catalog updates every op at once.
//!
//! This crate must not depend on the tensor API (`burn-tensor` depends on it).
//!
//! ## Modules
//! - [`device`], the device: [`DispatchDevice`].
//! - [`tensor`], the primitive: [`DispatchTensor`] and per-backend [`BackendTensor`].
//! - [`routing`], the generic checks and hand-written routes (transfers,
//!   transactions) that the generated op bodies call.
//! - `ops`: the trait impls for `Dispatch`, one file per trait.
#![no_std]
// With no backend enabled the enums are empty and every routing `match` is
// only its fallback arm: parameters and imports used only in backend arms go
// unused, and code after a routing `match` is unreachable.
#![cfg_attr(
    not(any(
        feature = "cube",
        feature = "flex",
        feature = "ndarray",
        feature = "tch",
        feature = "remote",
        feature = "router",
        feature = "capture"
    )),
    allow(unused_variables, unused_imports, unreachable_code, dead_code)
)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "autodiff")]
pub mod autodiff;
pub mod device;
pub mod extension;
mod ops;
#[cfg(feature = "router")]
pub mod router;
pub mod routing;
pub mod tensor;

#[cfg(feature = "autodiff")]
pub use device::AutodiffDevice;
pub use device::DispatchDevice;

/// Process-wide settings of the CubeCL backend.
#[cfg(feature = "cube")]
pub mod cube {
    pub use burn_cubecl::{allow_tf32, set_allow_tf32};
}

/// The backend types of catalog entries that depend on features.
pub mod backends {
    /// Flex under the Fusion decorator (`fusion` feature): operations
    /// queue until a read and element-wise chains run in one pass.
    #[cfg(all(feature = "flex", feature = "fusion"))]
    pub type Flex = burn_fusion::Fusion<burn_flex::Flex>;
    /// Flex, running each operation when it is called.
    #[cfg(all(feature = "flex", not(feature = "fusion")))]
    pub type Flex = burn_flex::Flex;
    /// The CubeCL backend under the Fusion decorator (`fusion` feature):
    /// operations queue until a read and element-wise chains run as one
    /// generated kernel.
    #[cfg(all(feature = "cube", feature = "fusion"))]
    pub type Cube = burn_fusion::Fusion<burn_cubecl::CubeBackend>;
    /// The CubeCL backend, launching each operation's kernel when it is
    /// called.
    #[cfg(all(feature = "cube", not(feature = "fusion")))]
    pub type Cube = burn_cubecl::CubeBackend;
}

/// The device types of the enabled backends, for code that builds a
/// `DispatchDevice` by hand.
pub mod devices {
    #[cfg(feature = "router")]
    pub use crate::router::RouterDevice;
    #[cfg(feature = "capture")]
    pub use burn_capture::CaptureDevice;
    #[cfg(feature = "cube")]
    pub use burn_cubecl::CubeDevice;
    #[cfg(feature = "wgpu")]
    pub use burn_cubecl::WgpuDevice;
    #[cfg(feature = "flex")]
    pub use burn_flex::FlexDevice;
    #[cfg(feature = "remote")]
    pub use burn_remote::RemoteDevice;
}

/// The checkpointing strategies of the autodiff context, re-exported so the
/// tensor API needs no dependency on `burn-autodiff`.
#[cfg(feature = "autodiff")]
pub use burn_autodiff::Checkpointing;
pub use tensor::{BackendTensor, DispatchTensor};

/// The value of a tensor without its autodiff context, for reads.
#[cfg(feature = "autodiff")]
pub(crate) fn autodiff_value(tensor: DispatchTensor) -> DispatchTensor {
    autodiff::disable(tensor)
}

use alloc::string::String;
use burn_backend::{Backend, BackendTypes};
use burn_std::DType;

/// The run-time dispatching backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dispatch;

impl BackendTypes for Dispatch {
    type Device = DispatchDevice;
    type FloatTensorPrimitive = DispatchTensor;
    type IntTensorPrimitive = DispatchTensor;
    type BoolTensorPrimitive = DispatchTensor;
    type QuantizedTensorPrimitive = DispatchTensor;
}

impl Backend for Dispatch {
    fn name(device: &DispatchDevice) -> String {
        device::route!(device.plain(), |B, d| B::name(d))
    }

    fn seed(device: &DispatchDevice, seed: u64) {
        device::route!(device.plain(), |B, d| B::seed(d, seed))
    }

    fn sync(device: &DispatchDevice) -> Result<(), burn_backend::ExecutionError> {
        device::route!(device.plain(), |B, d| B::sync(d))
    }

    fn supports_dtype(device: &DispatchDevice, dtype: DType) -> bool {
        device::route!(device.plain(), |B, d| B::supports_dtype(d, dtype))
    }

    fn default_float_dtype(device: &DispatchDevice) -> DType {
        device::route!(device.plain(), |B, d| B::default_float_dtype(d))
    }

    fn default_int_dtype(device: &DispatchDevice) -> DType {
        device::route!(device.plain(), |B, d| B::default_int_dtype(d))
    }

    fn bool_dtype(device: &DispatchDevice) -> DType {
        device::route!(device.plain(), |B, d| B::bool_dtype(d))
    }

    fn index_dtype(device: &DispatchDevice) -> DType {
        device::route!(device.plain(), |B, d| B::index_dtype(d))
    }
}
