//! The bridge: opaque storage of a tensor's dispatch primitive, and the
//! non-generic functions that forward each op to `Dispatch`.
//!
//! `Tensor<D, K>` is generic, so every method a user calls is compiled in the
//! user's crate for each rank and kind it uses. To keep that cheap, those
//! methods only check shapes and pass [`BridgeTensor`] handles to functions
//! in [`ops`], which are not generic and are compiled once, here. The
//! primitive sits in aligned inline storage made by `obfuscate!`, so the
//! public type never names `DispatchTensor` (or any backend type) and needs
//! no heap allocation of its own.

pub(crate) mod ops;

use burn_backend::TensorMetadata;
use burn_dispatch::DispatchTensor;
use burn_std::{DType, Shape};

use crate::Device;

/// What a bridge tensor holds: a dispatch primitive tagged with its kind.
#[derive(Clone, Debug)]
pub(crate) enum BridgeTensorVariant {
    Float(DispatchTensor),
    Int(DispatchTensor),
    Bool(DispatchTensor),
}

// The storage fits the largest primitive of the catalog's backends: the
// CubeCL backend's tensor (client, device, buffer handle, shape, strides:
// about 210 bytes) needs more than Flex's (about 70); 256 bytes leave room.
// A backend whose primitive outgrows it fails to compile here, by the
// assertion of `obfuscate!`.
burn_std::obfuscate! {
    /// The opaque primitive of a `Tensor`: a float, int or bool tensor of
    /// whichever backend holds it.
    pub struct BridgeTensor(BridgeTensorVariant); size = 256, align = 16, clone
}

impl BridgeTensor {
    pub(crate) fn float(t: DispatchTensor) -> Self {
        Self::new(BridgeTensorVariant::Float(t))
    }

    pub(crate) fn int(t: DispatchTensor) -> Self {
        Self::new(BridgeTensorVariant::Int(t))
    }

    pub(crate) fn bool(t: DispatchTensor) -> Self {
        Self::new(BridgeTensorVariant::Bool(t))
    }

    pub(crate) fn variant(self) -> BridgeTensorVariant {
        self.into_inner()
    }

    fn dispatch(&self) -> &DispatchTensor {
        match self.get() {
            BridgeTensorVariant::Float(t)
            | BridgeTensorVariant::Int(t)
            | BridgeTensorVariant::Bool(t) => t,
        }
    }

    /// The primitive, whatever its kind.
    pub(crate) fn into_dispatch(self) -> DispatchTensor {
        match self.into_inner() {
            BridgeTensorVariant::Float(t)
            | BridgeTensorVariant::Int(t)
            | BridgeTensorVariant::Bool(t) => t,
        }
    }

    /// The tensor's id on its capture device, if it is on one.
    #[cfg(feature = "capture")]
    pub(crate) fn capture_id(&self) -> Option<burn_capture::TensorId> {
        self.dispatch().capture_id()
    }

    /// `"float"`, `"int"` or `"bool"`.
    pub(crate) fn kind_name(&self) -> &'static str {
        match self.get() {
            BridgeTensorVariant::Float(_) => "float",
            BridgeTensorVariant::Int(_) => "int",
            BridgeTensorVariant::Bool(_) => "bool",
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.dispatch().shape()
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        self.dispatch().dtype()
    }

    /// The device.
    pub fn device(&self) -> Device {
        ops::device(self)
    }
}

impl core::fmt::Debug for BridgeTensor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.get(), f)
    }
}
