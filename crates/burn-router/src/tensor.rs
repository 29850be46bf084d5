//! The router's tensor primitive: an id on an executor, with the shape and
//! dtype the recording side computed.

use alloc::sync::Arc;
use core::sync::atomic::{AtomicBool, Ordering};

use burn_backend::TensorMetadata;
use burn_ir::{OperationIr, TensorId, TensorIr, TensorStatus};
use burn_std::{DType, Shape};

use crate::RunnerClient;

/// A tensor held by a router's executor.
///
/// Cloning is an `Arc` increment. When the last handle goes, the executor is
/// told to free the tensor, unless that last handle was passed to an
/// operation: then the operation's [`TensorStatus::ReadWrite`] use already
/// tells the executor it may reuse and free the buffer.
#[derive(Clone)]
pub struct RouterTensor {
    inner: Arc<Inner>,
}

struct Inner {
    id: TensorId,
    shape: Shape,
    dtype: DType,
    client: Arc<dyn RunnerClient>,
    /// Set when the last handle was given to an operation as `ReadWrite`.
    consumed: AtomicBool,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if !self.consumed.load(Ordering::Acquire) {
            let tensor = TensorIr {
                id: self.id,
                shape: self.shape.clone(),
                dtype: self.dtype,
                status: TensorStatus::ReadWrite,
            };
            self.client.register_op(OperationIr::Drop(tensor));
        }
    }
}

impl RouterTensor {
    /// A handle to the tensor `id`, which `client` holds (or is about to create).
    pub fn new(id: TensorId, shape: Shape, dtype: DType, client: Arc<dyn RunnerClient>) -> Self {
        Self {
            inner: Arc::new(Inner {
                id,
                shape,
                dtype,
                client,
                consumed: AtomicBool::new(false),
            }),
        }
    }

    /// The tensor's id on its executor.
    pub fn id(&self) -> TensorId {
        self.inner.id
    }

    /// The client holding the tensor.
    pub fn client(&self) -> &Arc<dyn RunnerClient> {
        &self.inner.client
    }

    /// The tensor as created (status `NotInit`), for the op creating it.
    pub(crate) fn ir_uninit(&self) -> TensorIr {
        TensorIr::uninit(self.inner.id, self.inner.shape.clone(), self.inner.dtype)
    }

    /// This use of the tensor as IR: `ReadWrite` when this is the only
    /// handle (it is then marked consumed, so dropping it frees nothing
    /// twice), `ReadOnly` otherwise.
    ///
    /// The handle must be kept alive until the operation is registered: a
    /// `ReadOnly` use may otherwise race with another thread dropping the
    /// other handle, which would free the tensor before the operation reads it.
    pub(crate) fn ir_use(&self) -> TensorIr {
        // With a strong count of one no other handle exists, and none can
        // appear: cloning needs a handle.
        let status = if Arc::strong_count(&self.inner) == 1 {
            self.inner.consumed.store(true, Ordering::Release);
            TensorStatus::ReadWrite
        } else {
            TensorStatus::ReadOnly
        };
        TensorIr {
            id: self.inner.id,
            shape: self.inner.shape.clone(),
            dtype: self.inner.dtype,
            status,
        }
    }
}

impl core::fmt::Debug for RouterTensor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RouterTensor")
            .field("id", &self.inner.id)
            .field("shape", &self.inner.shape)
            .field("dtype", &self.inner.dtype)
            .finish()
    }
}

impl TensorMetadata for RouterTensor {
    fn dtype(&self) -> DType {
        self.inner.dtype
    }

    fn shape(&self) -> Shape {
        self.inner.shape.clone()
    }

    fn rank(&self) -> usize {
        self.inner.shape.num_dims()
    }
}
