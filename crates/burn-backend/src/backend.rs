//! The backend types, the `Backend` trait and the metadata every primitive exposes.

use alloc::string::String;
use core::fmt::Debug;
use core::hash::Hash;

use burn_std::{DType, Shape};

use crate::ops::{
    ActivationOps, BoolTensorOps, FloatTensorOps, IntTensorOps, ModuleOps, QTensorOps,
    TransactionOps,
};

/// Identifies a device across backends: the kind of device and its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId {
    /// The device kind, numbered by the backend (e.g. discrete GPU, CPU).
    pub type_id: u16,
    /// The index among devices of that kind.
    pub index_id: u32,
}

impl DeviceId {
    /// A device id from its kind and index.
    pub const fn new(type_id: u16, index_id: u32) -> Self {
        Self { type_id, index_id }
    }
}

impl core::fmt::Display for DeviceId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}", self.type_id, self.index_id)
    }
}

/// What the layers above need of a backend's device.
pub trait DeviceOps:
    Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The device's identity, stable for the life of the process.
    fn id(&self) -> DeviceId;
}

/// Shape and dtype of a primitive, readable without touching its data.
pub trait TensorMetadata: Clone + Send + Sync + Debug + 'static {
    /// The run-time element type.
    fn dtype(&self) -> DType;
    /// The logical shape.
    fn shape(&self) -> Shape;
    /// The number of dimensions.
    fn rank(&self) -> usize {
        self.shape().num_dims()
    }
}

/// The types a backend works with: its device and one primitive per tensor kind.
///
/// Kept apart from [`Backend`] so decorators and dispatch can name the types
/// without pulling in every op.
pub trait BackendTypes: Clone + Copy + Default + Debug + Send + Sync + Sized + 'static {
    /// The device type.
    type Device: DeviceOps;
    /// Float tensors (f64, f32, f16, bf16).
    type FloatTensorPrimitive: TensorMetadata;
    /// Integer tensors (signed and unsigned).
    type IntTensorPrimitive: TensorMetadata;
    /// Boolean tensors.
    type BoolTensorPrimitive: TensorMetadata;
    /// Quantized float tensors (dtype `QFloat`): packed values and their
    /// scales. Backends whose primitives carry their dtype use their float
    /// primitive here.
    type QuantizedTensorPrimitive: TensorMetadata;
}

/// The device of backend `B`.
pub type Device<B> = <B as BackendTypes>::Device;
/// The float primitive of backend `B`.
pub type FloatTensor<B> = <B as BackendTypes>::FloatTensorPrimitive;
/// The int primitive of backend `B`.
pub type IntTensor<B> = <B as BackendTypes>::IntTensorPrimitive;
/// The bool primitive of backend `B`.
pub type BoolTensor<B> = <B as BackendTypes>::BoolTensorPrimitive;
/// The quantized primitive of backend `B`.
pub type QuantizedTensor<B> = <B as BackendTypes>::QuantizedTensorPrimitive;

/// A complete backend: its types and every family of operations.
///
/// Ops are associated functions that take primitives by value, so a backend
/// may reuse a uniquely owned buffer for the output.
pub trait Backend:
    BackendTypes
    + FloatTensorOps<Self>
    + IntTensorOps<Self>
    + BoolTensorOps<Self>
    + ModuleOps<Self>
    + ActivationOps<Self>
    + QTensorOps<Self>
    + TransactionOps<Self>
{
    /// A readable name of the backend on that device, e.g. `"flex"`.
    fn name(device: &Self::Device) -> String;

    /// Seeds the backend's random generator for that device.
    fn seed(device: &Self::Device, seed: u64);

    /// Waits for all queued work on the device to finish.
    fn sync(_device: &Self::Device) -> Result<(), ExecutionError> {
        Ok(())
    }

    /// Whether the backend can hold and compute tensors of `dtype` on `device`.
    fn supports_dtype(device: &Self::Device, dtype: DType) -> bool;

    /// The float dtype tensors get when no dtype is asked for.
    fn default_float_dtype(_device: &Self::Device) -> DType {
        DType::F32
    }

    /// The int dtype tensors get when no dtype is asked for.
    fn default_int_dtype(_device: &Self::Device) -> DType {
        DType::I64
    }

    /// The dtype of the bool tensors this backend's ops produce (comparisons,
    /// `is_nan`, `any`/`all`, bool logic): how it stores a bool.
    fn bool_dtype(_device: &Self::Device) -> DType {
        DType::Bool(burn_std::BoolStore::Native)
    }

    /// The int dtype of the indices this backend's ops return (`argmax`,
    /// sort and top-k indices, max-pooling positions).
    fn index_dtype(device: &Self::Device) -> DType {
        Self::default_int_dtype(device)
    }

    /// Whether this backend records gradients (true for the Autodiff decorator).
    fn ad_enabled() -> bool {
        false
    }
}

/// An error raised while a backend executes queued work or reads results back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecutionError {
    /// The backend failed to execute an operation.
    #[error("{op} failed on the device: {reason}")]
    Failed {
        /// The operation that failed.
        op: String,
        /// What went wrong, in the backend's words.
        reason: String,
    },
}
