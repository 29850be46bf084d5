//! The tensor primitive of the Dispatch backend.

use burn_backend::{
    BackendTypes, BoolTensor, FloatTensor, IntTensor, QuantizedTensor, TensorMetadata,
};
use burn_std::{DType, Shape};

/// A tensor of one backend, tagged with its kind.
///
/// The kind tag lets one enum serve as the float, int and bool primitive of
/// `Dispatch`; taking the wrong kind out is a bug of the layers above and
/// panics with both kinds named.
#[derive(Clone, Debug)]
pub enum BackendTensor<B: BackendTypes> {
    /// A float tensor.
    Float(FloatTensor<B>),
    /// An int tensor.
    Int(IntTensor<B>),
    /// A bool tensor.
    Bool(BoolTensor<B>),
    /// A quantized float tensor.
    Quantized(QuantizedTensor<B>),
}

impl<B: BackendTypes> BackendTensor<B> {
    fn kind(&self) -> &'static str {
        match self {
            Self::Float(_) => "float",
            Self::Int(_) => "int",
            Self::Bool(_) => "bool",
            Self::Quantized(_) => "quantized",
        }
    }

    /// The float primitive.
    #[track_caller]
    pub fn float(self) -> FloatTensor<B> {
        match self {
            Self::Float(t) => t,
            other => panic!("dispatch: expected a float tensor, got {}", other.kind()),
        }
    }

    /// The int primitive.
    #[track_caller]
    pub fn int(self) -> IntTensor<B> {
        match self {
            Self::Int(t) => t,
            other => panic!("dispatch: expected an int tensor, got {}", other.kind()),
        }
    }

    /// The bool primitive.
    #[track_caller]
    pub fn bool(self) -> BoolTensor<B> {
        match self {
            Self::Bool(t) => t,
            other => panic!("dispatch: expected a bool tensor, got {}", other.kind()),
        }
    }

    /// The quantized primitive.
    #[track_caller]
    pub fn quantized(self) -> QuantizedTensor<B> {
        match self {
            Self::Quantized(t) => t,
            other => panic!(
                "dispatch: expected a quantized tensor, got {}",
                other.kind()
            ),
        }
    }

    /// A reference to the quantized primitive.
    #[track_caller]
    pub fn quantized_ref(&self) -> &QuantizedTensor<B> {
        match self {
            Self::Quantized(t) => t,
            other => panic!(
                "dispatch: expected a quantized tensor, got {}",
                other.kind()
            ),
        }
    }

    /// A reference to the float primitive.
    #[track_caller]
    pub fn float_ref(&self) -> &FloatTensor<B> {
        match self {
            Self::Float(t) => t,
            other => panic!("dispatch: expected a float tensor, got {}", other.kind()),
        }
    }

    /// A reference to the int primitive.
    #[track_caller]
    pub fn int_ref(&self) -> &IntTensor<B> {
        match self {
            Self::Int(t) => t,
            other => panic!("dispatch: expected an int tensor, got {}", other.kind()),
        }
    }

    /// A reference to the bool primitive.
    #[track_caller]
    pub fn bool_ref(&self) -> &BoolTensor<B> {
        match self {
            Self::Bool(t) => t,
            other => panic!("dispatch: expected a bool tensor, got {}", other.kind()),
        }
    }

    fn metadata(&self) -> (DType, Shape) {
        match self {
            Self::Float(t) => (t.dtype(), t.shape()),
            Self::Int(t) => (t.dtype(), t.shape()),
            Self::Bool(t) => (t.dtype(), t.shape()),
            Self::Quantized(t) => (t.dtype(), t.shape()),
        }
    }
}

/// A tensor of whichever backend holds it.
// Variants differ in size (a boxed autodiff tensor beside a ~210-byte CubeCL
// primitive); the tensor API stores this enum inline in fixed-size storage
// anyway, and boxing the large variants would allocate per tensor.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum DispatchTensor {
    /// Held by the CubeCL backend (any of its runtimes).
    #[cfg(feature = "cube")]
    Cube(BackendTensor<crate::backends::Cube>),
    /// Held by the Flex CPU backend.
    #[cfg(feature = "flex")]
    Flex(BackendTensor<crate::backends::Flex>),
    /// Held by the router over an in-process executor (an id there).
    #[cfg(feature = "router")]
    Router(BackendTensor<crate::router::RouterBackend>),
    /// Held by a remote server (an id in a session there).
    #[cfg(feature = "remote")]
    Remote(BackendTensor<burn_remote::RemoteBackend>),
    /// Recorded on a capture device (an id in its graph, no value).
    #[cfg(feature = "capture")]
    Capture(BackendTensor<burn_capture::CaptureBackend>),
    /// A float tensor with an autodiff context: its value (a plain
    /// `DispatchTensor`, never itself autodiff) and its graph node.
    #[cfg(feature = "autodiff")]
    Autodiff(alloc::boxed::Box<burn_autodiff::AutodiffTensor<crate::Dispatch>>),
}

impl TensorMetadata for DispatchTensor {
    fn dtype(&self) -> DType {
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(tensor) = self {
            return tensor.primitive().dtype();
        }
        burn_backend_extension::route_tensor!(self, |_B, t| t.metadata().0)
    }

    fn shape(&self) -> Shape {
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(tensor) = self {
            return tensor.primitive().shape();
        }
        burn_backend_extension::route_tensor!(self, |_B, t| t.metadata().1)
    }
}

pub(crate) use burn_backend_extension::route_tensor as route;

#[cfg(feature = "capture")]
impl DispatchTensor {
    /// The id of the tensor on its capture device, if it is on one.
    pub fn capture_id(&self) -> Option<burn_ir::TensorId> {
        match self {
            Self::Capture(tensor) => Some(match tensor {
                BackendTensor::Float(t)
                | BackendTensor::Int(t)
                | BackendTensor::Bool(t)
                | BackendTensor::Quantized(t) => t.id(),
            }),
            #[cfg(feature = "autodiff")]
            Self::Autodiff(tensor) => tensor.primitive().capture_id(),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}
