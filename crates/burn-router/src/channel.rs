//! What a router needs of its executor: a client per device, reached
//! through a channel type.

use alloc::string::String;
use alloc::sync::Arc;
use core::any::Any;
use core::fmt::Debug;

use burn_backend::{DeviceOps, ExecutionError, TensorData};
use burn_ir::{OperationIr, TensorId, TensorIr};
use burn_std::DType;

/// How a [`BackendRouter`](crate::BackendRouter) reaches the executors of
/// its devices: the device type, and the client that serves each device.
///
/// The router's ops are written once against [`RunnerClient`] trait objects,
/// so adding a channel (in process, a network transport, a recorder) adds no
/// per-op code.
pub trait RunnerChannel: Clone + Copy + Default + Debug + Send + Sync + 'static {
    /// The devices this channel routes to.
    type Device: DeviceOps;

    /// The client serving `device`; the same client for the same device for
    /// the life of the process.
    fn client(device: &Self::Device) -> Arc<dyn RunnerClient>;

    /// A readable name of the backend behind `device`.
    fn name(device: &Self::Device) -> String;

    /// The device a client serves (the inverse of [`client`](Self::client)).
    ///
    /// # Panics
    /// If the client does not belong to this channel, a bug of the caller.
    fn device(client: &dyn RunnerClient) -> Self::Device {
        client
            .device()
            .downcast_ref::<Self::Device>()
            .cloned()
            .unwrap_or_else(|| {
                panic!("router: client {client:?} does not serve a device of this channel")
            })
    }
}

/// One executor of operations, seen from the recording side.
///
/// Operations are fire-and-forget: an executor that fails on one reports it
/// the way its backend does (a panic naming the operation, as a direct call
/// would) or at the next read. Reads return a `Result`, as backend reads do.
pub trait RunnerClient: Send + Sync + Debug {
    /// A fresh id for a tensor about to be created on this client.
    fn new_tensor_id(&self) -> TensorId;

    /// Executes (or records) `op`, whose outputs have fresh ids.
    fn register_op(&self, op: OperationIr);

    /// Creates `out` from `data` (same shape and dtype).
    fn register_tensor(&self, out: TensorIr, data: TensorData);

    /// Reads one use of a tensor back.
    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError>;

    /// Waits for all queued work to finish.
    fn sync(&self) -> Result<(), ExecutionError>;

    /// Seeds the executor's random generator.
    fn seed(&self, seed: u64);

    /// Whether the executor holds and computes tensors of `dtype`.
    fn supports_dtype(&self, dtype: DType) -> bool;

    /// The float dtype of tensors created without one.
    fn default_float_dtype(&self) -> DType;

    /// The int dtype of tensors created without one.
    fn default_int_dtype(&self) -> DType;

    /// The dtype of the bool tensors the executor's ops produce.
    fn bool_dtype(&self) -> DType;

    /// The int dtype of the indices the executor's ops return.
    fn index_dtype(&self) -> DType;

    /// The device this client serves, as its channel's `Device` type
    /// (downcast by [`RunnerChannel::device`]).
    fn device(&self) -> &dyn Any;
}
