//! The executor's side of tensor ids: which backend primitive each id names.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

use burn_backend::{
    BackendTypes, BoolTensor, FloatTensor, IntTensor, QuantizedTensor, TensorMetadata,
};

use crate::{TensorId, TensorIr, TensorKind, TensorStatus};

/// A backend primitive of any kind.
#[derive(Clone, Debug)]
pub enum Handle<B: BackendTypes> {
    /// A float tensor.
    Float(FloatTensor<B>),
    /// An int tensor.
    Int(IntTensor<B>),
    /// A bool tensor.
    Bool(BoolTensor<B>),
    /// A quantized float tensor.
    Quantized(QuantizedTensor<B>),
}

impl<B: BackendTypes> Handle<B> {
    fn kind(&self) -> TensorKind {
        match self {
            Handle::Float(_) => TensorKind::Float,
            Handle::Int(_) => TensorKind::Int,
            Handle::Bool(_) => TensorKind::Bool,
            Handle::Quantized(_) => TensorKind::Quantized,
        }
    }

    fn metadata(&self) -> (burn_std::Shape, burn_std::DType) {
        match self {
            Handle::Float(t) => (t.shape(), t.dtype()),
            Handle::Int(t) => (t.shape(), t.dtype()),
            Handle::Bool(t) => (t.shape(), t.dtype()),
            Handle::Quantized(t) => (t.shape(), t.dtype()),
        }
    }
}

/// Why an id could not be resolved to a primitive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandleError {
    /// No tensor with this id is registered (never created, or freed).
    Unknown(TensorId),
    /// The tensor exists with another kind than the operation expects.
    WrongKind {
        /// The tensor.
        id: TensorId,
        /// The kind the operation expects.
        expected: TensorKind,
        /// The kind registered.
        found: TensorKind,
    },
}

impl core::fmt::Display for HandleError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            HandleError::Unknown(id) => write!(f, "no tensor {id} is registered"),
            HandleError::WrongKind {
                id,
                expected,
                found,
            } => write!(
                f,
                "tensor {id} is a {} tensor, the operation expects a {} tensor",
                found.name(),
                expected.name()
            ),
        }
    }
}

/// The primitives an executor holds, by id.
///
/// Taking a tensor honours its [`TensorStatus`]: a `ReadWrite` use is the
/// last one, so the primitive is moved out (the backend may then reuse its
/// buffer in place, and the id is gone); a `ReadOnly` use clones the handle
/// (a cheap reference-count increment in every backend) and keeps it.
#[derive(Debug)]
pub struct HandleContainer<B: BackendTypes> {
    handles: BTreeMap<TensorId, Handle<B>>,
}

impl<B: BackendTypes> Default for HandleContainer<B> {
    fn default() -> Self {
        Self {
            handles: BTreeMap::new(),
        }
    }
}

impl<B: BackendTypes> HandleContainer<B> {
    /// An empty container.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many tensors are held.
    pub fn len(&self) -> usize {
        self.handles.len()
    }

    /// Whether no tensor is held.
    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    /// Whether `id` is held.
    pub fn contains(&self, id: TensorId) -> bool {
        self.handles.contains_key(&id)
    }

    /// The primitive for one use of a tensor, of any kind.
    pub fn take(&mut self, tensor: &TensorIr) -> Result<Handle<B>, HandleError> {
        let id = tensor.id;
        match tensor.status {
            TensorStatus::ReadWrite => self.handles.remove(&id),
            TensorStatus::ReadOnly | TensorStatus::NotInit => self.handles.get(&id).cloned(),
        }
        .ok_or(HandleError::Unknown(id))
    }

    fn take_kind(
        &mut self,
        tensor: &TensorIr,
        expected: TensorKind,
    ) -> Result<Handle<B>, HandleError> {
        let id = tensor.id;
        let found = self
            .handles
            .get(&id)
            .ok_or(HandleError::Unknown(id))?
            .kind();
        if found != expected {
            return Err(HandleError::WrongKind {
                id,
                expected,
                found,
            });
        }
        self.take(tensor)
    }

    /// The float primitive for one use of a tensor.
    pub fn take_float(&mut self, tensor: &TensorIr) -> Result<FloatTensor<B>, HandleError> {
        match self.take_kind(tensor, TensorKind::Float)? {
            Handle::Float(t) => Ok(t),
            Handle::Int(_) | Handle::Bool(_) | Handle::Quantized(_) => {
                unreachable!("kind checked by take_kind")
            }
        }
    }

    /// The int primitive for one use of a tensor.
    pub fn take_int(&mut self, tensor: &TensorIr) -> Result<IntTensor<B>, HandleError> {
        match self.take_kind(tensor, TensorKind::Int)? {
            Handle::Int(t) => Ok(t),
            Handle::Float(_) | Handle::Bool(_) | Handle::Quantized(_) => {
                unreachable!("kind checked by take_kind")
            }
        }
    }

    /// The bool primitive for one use of a tensor.
    pub fn take_bool(&mut self, tensor: &TensorIr) -> Result<BoolTensor<B>, HandleError> {
        match self.take_kind(tensor, TensorKind::Bool)? {
            Handle::Bool(t) => Ok(t),
            Handle::Float(_) | Handle::Int(_) | Handle::Quantized(_) => {
                unreachable!("kind checked by take_kind")
            }
        }
    }

    /// Registers the primitive an operation created for `out`, after checking
    /// that it has the shape and dtype the recorder declared (a mismatch is a
    /// bug of the recorder's shape rules, reported with both).
    pub fn register(&mut self, out: &TensorIr, handle: Handle<B>) -> Result<(), String> {
        let (shape, dtype) = handle.metadata();
        if shape != out.shape || dtype != out.dtype {
            return Err(format!(
                "tensor {} was declared as {} {} but the backend produced {} {}",
                out.id, out.shape, out.dtype, shape, dtype
            ));
        }
        self.handles.insert(out.id, handle);
        Ok(())
    }

    /// Forgets a tensor; its primitive is dropped (and its buffer freed when
    /// no other handle refers to it).
    pub fn remove(&mut self, id: TensorId) -> Option<Handle<B>> {
        self.handles.remove(&id)
    }
}
