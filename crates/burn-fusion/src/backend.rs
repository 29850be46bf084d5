//! `Fusion<B>`: the router over a lazy, fusing executor of `B`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::marker::PhantomData;

use burn_backend::Backend;
use burn_router::{BackendRouter, RunnerChannel, RunnerClient};

use crate::{FusionClient, OptimizationBuilder};

/// A backend whose operations can be fused: it says which blocks of
/// operations it can run as one kernel.
///
/// A backend with no builder still works under [`Fusion`]: its operations
/// are queued and run one by one at the next read.
pub trait FusionBackend: Backend {
    /// Fresh builders of the blocks this backend fuses on `device`, tried in
    /// order by the search.
    fn optimizations(_device: &Self::Device) -> Vec<Box<dyn OptimizationBuilder<Self>>> {
        Vec::new()
    }

    /// Runs `f`, which executes work queued on `device` (kernels, uploads,
    /// reads, a sync), from whichever thread triggered it.
    ///
    /// The queue of a device is shared by every thread, so one thread may
    /// run operations another recorded. A runtime that orders work per
    /// calling thread (CubeCL's streams) must run all of it in one order
    /// here, or a kernel may read a buffer another thread's stream has not
    /// finished writing (or has already freed and reused). The default runs
    /// `f` as it is, for backends whose work completes in call order.
    fn execution_scope<T>(_device: &Self::Device, f: impl FnOnce() -> T) -> T {
        f()
    }
}

/// The Fusion decorator over `B`: operations are recorded as IR (by the
/// router's shared recording code), queued per device, and executed when a
/// value is read, the device synced, or the queue is long, blocks of them
/// fused by `B`'s builders.
pub type Fusion<B> = BackendRouter<FusionChannel<B>>;

/// The router channel of [`Fusion`]: one lazy, fusing client per device.
#[derive(Clone, Copy, Default, Debug)]
pub struct FusionChannel<B: FusionBackend> {
    _backend: PhantomData<B>,
}

impl<B: FusionBackend> RunnerChannel for FusionChannel<B> {
    type Device = B::Device;

    fn client(device: &B::Device) -> Arc<dyn RunnerClient> {
        FusionClient::<B>::of(device)
    }

    fn name(device: &B::Device) -> String {
        format!("fusion<{}>", B::name(device))
    }
}
