//! Tensors as the IR sees them: an id, a shape, a dtype, and what the
//! operation may do with the buffer.

use burn_std::{DType, Scalar, Shape};
use serde::{Deserialize, Serialize};

/// The identity of a tensor on the runner side of a router, a fusion stream
/// or a captured graph. Ids are never reused within one client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TensorId {
    value: u64,
}

impl TensorId {
    /// The id with this value.
    pub const fn new(value: u64) -> Self {
        Self { value }
    }

    /// The id's value.
    pub const fn value(self) -> u64 {
        self.value
    }
}

impl core::fmt::Display for TensorId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "t{}", self.value)
    }
}

/// What an operation may do with a tensor it names.
///
/// The recording side knows whether it holds the last handle to a tensor
/// when it passes it to an operation; it says so here, so the executing side
/// can write the result into that buffer and free it afterwards instead of
/// keeping a copy alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TensorStatus {
    /// The tensor is read; other handles still refer to it.
    ReadOnly,
    /// This is the tensor's last use: the executor may reuse or free its buffer.
    ReadWrite,
    /// The tensor does not exist yet: the operation creates it (outputs).
    NotInit,
}

/// A tensor at one use: which tensor, its shape and dtype, and its status at
/// that use (a tensor used several times has one `TensorIr` per use).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorIr {
    /// The tensor.
    pub id: TensorId,
    /// Its logical shape.
    pub shape: Shape,
    /// Its element type.
    pub dtype: DType,
    /// What the operation may do with it.
    pub status: TensorStatus,
}

impl TensorIr {
    /// A tensor an operation creates.
    pub fn uninit(id: TensorId, shape: Shape, dtype: DType) -> Self {
        Self {
            id,
            shape,
            dtype,
            status: TensorStatus::NotInit,
        }
    }
}

/// A scalar argument with the dtype it is applied in (the dtype of the
/// tensor operand it combines with).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalarIr {
    /// The value, widened to 64 bits.
    pub value: Scalar,
    /// The dtype the operation converts it to.
    pub dtype: DType,
}

impl ScalarIr {
    /// `value` applied in `dtype`.
    pub fn new(value: Scalar, dtype: DType) -> Self {
        Self { value, dtype }
    }
}

/// The kind of a tensor: which primitive of the backend holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TensorKind {
    /// A float tensor.
    Float,
    /// An int tensor.
    Int,
    /// A bool tensor.
    Bool,
    /// A quantized float tensor (created from data, read back; no op of
    /// the IR takes one).
    Quantized,
}

impl TensorKind {
    /// The kind holding tensors of `dtype`.
    pub fn of(dtype: DType) -> Self {
        if dtype.is_quantized() {
            Self::Quantized
        } else if dtype.is_float() {
            Self::Float
        } else if dtype.is_bool() {
            Self::Bool
        } else {
            Self::Int
        }
    }

    /// The kind's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Float => "float",
            Self::Int => "int",
            Self::Bool => "bool",
            Self::Quantized => "quantized",
        }
    }
}

/// The kind of a numeric tensor, for the operations float and int tensors share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NumericKind {
    /// A float tensor.
    Float,
    /// An int tensor.
    Int,
}

impl NumericKind {
    /// The same kind as a [`TensorKind`].
    pub fn kind(self) -> TensorKind {
        match self {
            Self::Float => TensorKind::Float,
            Self::Int => TensorKind::Int,
        }
    }
}
