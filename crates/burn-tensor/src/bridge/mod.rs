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
pub(crate) enum Stored {
    Float(DispatchTensor),
    Int(DispatchTensor),
    Bool(DispatchTensor),
    /// A quantized float tensor (dtype `QFloat`): a float tensor of the
    /// API whose values are packed.
    QFloat(DispatchTensor),
}

/// A tensor as an operand of a compute op: quantized values are read as
/// float (dequantized), since every op here returns float results from
/// quantized inputs (Burn's `QuantPropagation::Inhibit`).
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
    /// The opaque primitive of a `Tensor`: a float, int, bool or quantized
    /// tensor of whichever backend holds it.
    pub struct BridgeTensor(Stored); size = 256, align = 16, clone
}

impl BridgeTensor {
    pub(crate) fn float(t: DispatchTensor) -> Self {
        Self::new(Stored::Float(t))
    }

    pub(crate) fn int(t: DispatchTensor) -> Self {
        Self::new(Stored::Int(t))
    }

    pub(crate) fn bool(t: DispatchTensor) -> Self {
        Self::new(Stored::Bool(t))
    }

    pub(crate) fn qfloat(t: DispatchTensor) -> Self {
        Self::new(Stored::QFloat(t))
    }

    /// The tensor as an operand: quantized values dequantized to float.
    pub(crate) fn variant(self) -> BridgeTensorVariant {
        use burn_backend::QTensorOps;
        match self.into_inner() {
            Stored::Float(t) => BridgeTensorVariant::Float(t),
            Stored::Int(t) => BridgeTensorVariant::Int(t),
            Stored::Bool(t) => BridgeTensorVariant::Bool(t),
            Stored::QFloat(t) => BridgeTensorVariant::Float(burn_dispatch::Dispatch::dequantize(t)),
        }
    }

    /// The stored primitive, quantized tensors as they are.
    pub(crate) fn stored(self) -> Stored {
        self.into_inner()
    }

    /// Whether the values are quantized.
    pub(crate) fn is_quantized(&self) -> bool {
        matches!(self.get(), Stored::QFloat(_))
    }

    fn dispatch(&self) -> &DispatchTensor {
        match self.get() {
            Stored::Float(t) | Stored::Int(t) | Stored::Bool(t) | Stored::QFloat(t) => t,
        }
    }

    /// The primitive, whatever its kind.
    pub(crate) fn into_dispatch(self) -> DispatchTensor {
        match self.into_inner() {
            Stored::Float(t) | Stored::Int(t) | Stored::Bool(t) | Stored::QFloat(t) => t,
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
            Stored::Float(_) | Stored::QFloat(_) => "float",
            Stored::Int(_) => "int",
            Stored::Bool(_) => "bool",
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
