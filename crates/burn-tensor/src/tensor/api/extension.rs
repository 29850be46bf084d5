//! `Tensor` ↔ dispatch primitive, for backend extensions (`extension`
//! feature): an extension op takes and returns dispatch primitives
//! (`FloatTensor<Dispatch>`, …), and its public wrapper converts.

use burn_backend::TensorMetadata;
use burn_dispatch::DispatchTensor;

use super::base::kind_of;
use crate::bridge::ops::Kind;
use crate::{BridgeTensor, Tensor, TensorKind};

impl<const D: usize, K: TensorKind> Tensor<D, K> {
    /// A tensor of a dispatch primitive, e.g. an extension op's result.
    ///
    /// # Panics
    /// If the primitive's rank is not `D`, or its dtype is not of this
    /// tensor's kind (a float dtype for `Tensor<D>`, an integer one for
    /// `Tensor<D, Int>`, a bool for `Tensor<D, Bool>`).
    #[track_caller]
    pub fn from_dispatch(primitive: DispatchTensor) -> Self {
        Self::from_bridge(bridge(primitive, D, kind_of::<K>()))
    }

    /// The tensor's dispatch primitive, e.g. an extension op's operand (a
    /// quantized float tensor's is its packed values).
    pub fn into_dispatch(self) -> DispatchTensor {
        self.primitive.into_dispatch()
    }

    /// The same as [`from_dispatch`](Self::from_dispatch): on this
    /// design every tensor's primitive is a dispatch primitive.
    #[track_caller]
    pub fn from_primitive(primitive: DispatchTensor) -> Self {
        Self::from_dispatch(primitive)
    }

    /// The same as [`into_dispatch`](Self::into_dispatch).
    pub fn into_primitive(self) -> DispatchTensor {
        self.into_dispatch()
    }
}

/// A checked bridge tensor of `primitive`, compiled once.
#[track_caller]
fn bridge(primitive: DispatchTensor, rank: usize, kind: Kind) -> BridgeTensor {
    let (shape, dtype) = (primitive.shape(), primitive.dtype());
    assert_eq!(
        shape.num_dims(),
        rank,
        "from_dispatch: the primitive has shape {shape:?}, not rank {rank}"
    );
    let fits = match kind {
        Kind::Float => dtype.is_float() || dtype.is_quantized(),
        Kind::Int => dtype.is_int(),
        Kind::Bool => dtype.is_bool(),
    };
    assert!(
        fits,
        "from_dispatch: a {dtype:?} primitive cannot be a {} tensor",
        match kind {
            Kind::Float => "float",
            Kind::Int => "int",
            Kind::Bool => "bool",
        }
    );
    match kind {
        Kind::Float if dtype.is_quantized() => BridgeTensor::qfloat(primitive),
        Kind::Float => BridgeTensor::float(primitive),
        Kind::Int => BridgeTensor::int(primitive),
        Kind::Bool => BridgeTensor::bool(primitive),
    }
}
