//! The recording client and the capture device.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use burn_backend::{DeviceId, DeviceOps, ExecutionError, TensorData};
use burn_ir::{InitOperationIr, OperationIr, TensorId, TensorIr};
use burn_router::{BackendRouter, RunnerChannel, RunnerClient};
use burn_std::{BoolStore, DType};

/// The backend of capture devices: the router over the recording channel.
pub type CaptureBackend = BackendRouter<CaptureChannel>;

/// A device that records operations instead of executing them.
///
/// Each [`CaptureDevice::new`] is a fresh device (ids are never reused, so
/// a stale tensor cannot alias a newer device); one device can serve any
/// number of scopes, one at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CaptureDevice {
    id: u32,
}

static NEXT_DEVICE: AtomicU32 = AtomicU32::new(1);

impl CaptureDevice {
    /// A new capture device.
    ///
    /// # Panics
    /// After 2³² − 1 devices in one process.
    pub fn new() -> Self {
        let id = NEXT_DEVICE.fetch_add(1, Ordering::Relaxed);
        assert!(id != 0, "CaptureDevice::new: the device ids are exhausted");
        Self { id }
    }

    /// The device's number in this process.
    pub fn index(&self) -> u32 {
        self.id
    }

    pub(crate) fn client(&self) -> Arc<CaptureClient> {
        CaptureClient::of(*self)
    }
}

impl DeviceOps for CaptureDevice {
    fn id(&self) -> DeviceId {
        DeviceId::new(0, self.id)
    }
}

/// The router channel whose clients record.
#[derive(Clone, Copy, Default, Debug)]
pub struct CaptureChannel;

impl RunnerChannel for CaptureChannel {
    type Device = CaptureDevice;

    fn client(device: &CaptureDevice) -> Arc<dyn RunnerClient> {
        device.client()
    }

    fn name(device: &CaptureDevice) -> String {
        format!("capture:{}", device.id)
    }
}

/// What one scope recorded so far.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// The scope this session belongs to.
    pub(crate) scope: u64,
    /// Every operation, in order (tensors entering with data included).
    pub(crate) operations: Vec<OperationIr>,
    /// The data of every tensor that entered with data.
    pub(crate) values: BTreeMap<TensorId, TensorData>,
    /// Set by `CaptureScope::complete`: later operations are refused.
    pub(crate) closed: bool,
}

/// The client of one capture device.
pub(crate) struct CaptureClient {
    device: CaptureDevice,
    session: Mutex<Option<Session>>,
    next_id: AtomicU64,
}

static CLIENTS: Mutex<BTreeMap<u32, Arc<CaptureClient>>> = Mutex::new(BTreeMap::new());
static NEXT_SCOPE: AtomicU64 = AtomicU64::new(0);

impl core::fmt::Debug for CaptureClient {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "capture:{}", self.device.id)
    }
}

impl CaptureClient {
    fn of(device: CaptureDevice) -> Arc<Self> {
        let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
        clients
            .entry(device.id)
            .or_insert_with(|| {
                Arc::new(Self {
                    device,
                    session: Mutex::new(None),
                    next_id: AtomicU64::new(0),
                })
            })
            .clone()
    }

    fn session(&self) -> MutexGuard<'_, Option<Session>> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a session for a new scope, unless one is open.
    pub(crate) fn begin(&self) -> Option<u64> {
        let mut session = self.session();
        if session.is_some() {
            return None;
        }
        let scope = NEXT_SCOPE.fetch_add(1, Ordering::Relaxed);
        *session = Some(Session {
            scope,
            ..Session::default()
        });
        Some(scope)
    }

    /// Refuses operations from now on (the scope was completed).
    pub(crate) fn close(&self, scope: u64) {
        if let Some(session) = self.session().as_mut()
            && session.scope == scope
        {
            session.closed = true;
        }
    }

    /// Takes the session of `scope` out, ending it.
    pub(crate) fn end(&self, scope: u64) -> Option<Session> {
        let mut session = self.session();
        match session.as_ref() {
            Some(open) if open.scope == scope => session.take(),
            _ => None,
        }
    }

    /// Runs `record` on the open session, or panics naming why there is none.
    #[track_caller]
    fn record(&self, what: &str, record: impl FnOnce(&mut Session)) {
        let mut session = self.session();
        match session.as_mut() {
            Some(session) if !session.closed => record(session),
            Some(_) => panic!(
                "capture:{}: {what} after the capture scope was completed; \
                 `CaptureScope::complete` must be the closure's last step",
                self.device.id
            ),
            None => panic!(
                "capture:{}: {what} outside a capture scope; record tensor code inside \
                 `Device::capture_scope`",
                self.device.id
            ),
        }
    }
}

impl RunnerClient for CaptureClient {
    fn new_tensor_id(&self) -> TensorId {
        TensorId::new(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn register_op(&self, op: OperationIr) {
        // Nothing is allocated, so nothing is freed: a dropped tensor is not
        // part of the computation (and tensors outliving their scope may be
        // dropped at any time after it).
        if let OperationIr::Drop(_) = op {
            return;
        }
        self.record("an operation", |session| session.operations.push(op));
    }

    fn register_tensor(&self, out: TensorIr, data: TensorData) {
        self.record("a tensor created from data", |session| {
            session.values.insert(out.id, data);
            session
                .operations
                .push(OperationIr::Init(InitOperationIr::FromData { out }));
        });
    }

    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError> {
        Err(ExecutionError::Failed {
            op: String::from("read"),
            reason: format!(
                "tensor {} is on capture device {}, which records operations without \
                 executing them: it has no value to read",
                tensor.id, self.device.id
            ),
        })
    }

    fn sync(&self) -> Result<(), ExecutionError> {
        Ok(())
    }

    fn seed(&self, _seed: u64) {
        // Random tensors are recorded as operations; no generator runs here.
    }

    fn supports_dtype(&self, _dtype: DType) -> bool {
        true
    }

    fn default_float_dtype(&self) -> DType {
        DType::F32
    }

    fn default_int_dtype(&self) -> DType {
        DType::I64
    }

    fn bool_dtype(&self) -> DType {
        DType::Bool(BoolStore::Native)
    }

    fn index_dtype(&self) -> DType {
        DType::I64
    }

    fn device(&self) -> &dyn Any {
        &self.device
    }
}
