//! `DirectChannel<B>`: the executor runs in process, on the caller's thread.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use burn_backend::{Backend, ExecutionError, TensorData};
use burn_ir::{OperationIr, TensorId, TensorIr};
use burn_std::DType;

use crate::{RunnerChannel, RunnerClient, TensorInterpreter};

/// A channel to a [`TensorInterpreter`] over backend `B`, in this process:
/// each operation is executed when it is registered, under a lock, so the
/// router over this channel computes what `B` computes, through the IR.
///
/// It is the reference channel: the shared test suites run through it
/// (`cargo test-router`), so every operation makes the round trip from
/// trait method to IR and back.
#[derive(Clone, Copy, Default, Debug)]
pub struct DirectChannel<B: Backend> {
    _backend: PhantomData<B>,
}

impl<B: Backend> RunnerChannel for DirectChannel<B> {
    type Device = B::Device;

    fn client(device: &B::Device) -> Arc<dyn RunnerClient> {
        DirectClient::<B>::of(device)
    }

    fn name(device: &B::Device) -> String {
        format!("router<{}>", B::name(device))
    }
}

/// The executor of one device.
pub struct DirectClient<B: Backend> {
    device: B::Device,
    interpreter: Mutex<TensorInterpreter<B>>,
    next_id: AtomicU64,
}

impl<B: Backend> core::fmt::Debug for DirectClient<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "router<{}>", B::name(&self.device))
    }
}

/// Every direct client of the process, of every backend type (a `static`
/// in a generic function is shared by all its instances, so the registry
/// holds them type-erased and finds its own by downcasting).
static CLIENTS: Mutex<Vec<Arc<dyn Any + Send + Sync>>> = Mutex::new(Vec::new());

impl<B: Backend> DirectClient<B> {
    /// The client of `device`, created on first use.
    pub fn of(device: &B::Device) -> Arc<Self> {
        let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
        for client in clients.iter() {
            if let Ok(client) = client.clone().downcast::<Self>()
                && client.device == *device
            {
                return client;
            }
        }
        let client = Arc::new(Self {
            device: device.clone(),
            interpreter: Mutex::new(TensorInterpreter::new(device.clone())),
            next_id: AtomicU64::new(0),
        });
        clients.push(client.clone());
        client
    }

    /// How many tensors the executor holds: what a leak would grow.
    pub fn tensor_count(&self) -> usize {
        self.interpreter().handles().len()
    }

    fn interpreter(&self) -> MutexGuard<'_, TensorInterpreter<B>> {
        // A panic inside an operation (a backend rejecting its input) must
        // not take the device down with it: the interpreter's state is a
        // map of ids, still consistent for every other tensor.
        self.interpreter.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<B: Backend> RunnerClient for DirectClient<B> {
    fn new_tensor_id(&self) -> TensorId {
        TensorId::new(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn register_op(&self, op: OperationIr) {
        if let Err(error) = self.interpreter().execute(op) {
            panic!("router: {error}");
        }
    }

    fn register_tensor(&self, out: TensorIr, data: TensorData) {
        if let Err(error) = self.interpreter().register_tensor(&out, data) {
            panic!("router: {error}");
        }
    }

    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError> {
        self.interpreter().read(&tensor)
    }

    fn sync(&self) -> Result<(), ExecutionError> {
        B::sync(&self.device)
    }

    fn seed(&self, seed: u64) {
        B::seed(&self.device, seed)
    }

    fn supports_dtype(&self, dtype: DType) -> bool {
        B::supports_dtype(&self.device, dtype)
    }

    fn default_float_dtype(&self) -> DType {
        B::default_float_dtype(&self.device)
    }

    fn default_int_dtype(&self) -> DType {
        B::default_int_dtype(&self.device)
    }

    fn bool_dtype(&self) -> DType {
        B::bool_dtype(&self.device)
    }

    fn index_dtype(&self) -> DType {
        B::index_dtype(&self.device)
    }

    fn device(&self) -> &dyn Any {
        &self.device
    }
}
