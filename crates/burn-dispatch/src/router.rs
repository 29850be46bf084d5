//! The router device: any device of the catalog, reached through the IR.
//!
//! `RouterBackend` is `burn_router::BackendRouter` over a channel whose
//! client is an in-process `TensorInterpreter<Dispatch>` for the wrapped
//! device: each op is recorded as IR, then executed from the IR by the
//! backend holding that device. Results are those of the wrapped device;
//! what it adds is the round trip, which is how the IR, the router and the
//! interpreter are tested against the shared suites (`cargo test-router`).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;

use burn_backend::{Backend, DeviceId, DeviceOps};
use burn_router::{BackendRouter, DirectChannel, DirectClient, RunnerChannel, RunnerClient};

use crate::{Dispatch, DispatchDevice};

/// The backend of router devices.
pub type RouterBackend = BackendRouter<RouterChannel>;

/// A device reached through the router: the device that executes, wrapped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RouterDevice {
    inner: Box<DispatchDevice>,
}

impl RouterDevice {
    /// The router over `inner` (its autodiff context, if any, is dropped: a
    /// device's context belongs to the tensors created there, see
    /// `DispatchDevice::autodiff`).
    pub fn new(inner: DispatchDevice) -> Self {
        Self {
            inner: Box::new(inner.without_autodiff()),
        }
    }

    /// The device that executes.
    pub fn inner(&self) -> &DispatchDevice {
        &self.inner
    }
}

impl DeviceOps for RouterDevice {
    fn id(&self) -> DeviceId {
        self.inner.id()
    }
}

/// The channel of router devices: the in-process executor of the wrapped device.
#[derive(Clone, Copy, Default, Debug)]
pub struct RouterChannel;

impl RunnerChannel for RouterChannel {
    type Device = RouterDevice;

    fn client(device: &RouterDevice) -> Arc<dyn RunnerClient> {
        DirectClient::<Dispatch>::of(&device.inner)
    }

    fn name(device: &RouterDevice) -> String {
        format!("router<{}>", Dispatch::name(&device.inner))
    }

    fn device(client: &dyn RunnerClient) -> RouterDevice {
        RouterDevice::new(DirectChannel::<Dispatch>::device(client))
    }
}
