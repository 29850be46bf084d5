//! The device of the Dispatch backend: which backend, and which of its
//! devices, optionally with an autodiff context.

use burn_backend::{DeviceId, DeviceOps};

/// A device of any enabled backend.
///
/// With no backend feature enabled the enum has no variants: such a build can
/// still define models, but no tensor can be created (`Device::default()` in
/// the tensor API panics with a message saying so).
///
/// Equality and hashing look at the hardware only: a device and its
/// autodiff-enabled form compare equal (the autodiff context is a property of
/// the tensors created there, not a different place).
#[derive(Clone, Debug)]
pub enum DispatchDevice {
    /// The CubeCL backend: a CUDA, ROCm or WGPU GPU, or CubeCL's CPU
    /// runtime; the [`CubeDevice`](burn_cubecl::CubeDevice) picks which.
    #[cfg(feature = "cube")]
    Cube(burn_cubecl::CubeDevice),
    /// The Flex CPU backend.
    #[cfg(feature = "flex")]
    Flex(burn_flex::FlexDevice),
    /// The router over an in-process executor of another device: every op
    /// is recorded as IR and executed from it there.
    #[cfg(feature = "router")]
    Router(crate::router::RouterDevice),
    /// A device of a remote server: ops are sent there as IR.
    #[cfg(feature = "remote")]
    Remote(burn_remote::RemoteDevice),
    /// A graph-capture device: ops are recorded, nothing runs.
    #[cfg(feature = "capture")]
    Capture(burn_capture::CaptureDevice),
    /// A device whose new float tensors carry an autodiff context.
    #[cfg(feature = "autodiff")]
    Autodiff(AutodiffDevice),
}

/// A plain device plus the checkpointing strategy of the autodiff context
/// its new float tensors carry. Built with [`DispatchDevice::autodiff`].
#[cfg(feature = "autodiff")]
#[derive(Clone, Debug)]
pub struct AutodiffDevice {
    inner: alloc::boxed::Box<DispatchDevice>,
    checkpointing: burn_autodiff::Checkpointing,
}

#[cfg(feature = "autodiff")]
impl AutodiffDevice {
    /// The device without the autodiff context.
    pub fn inner(&self) -> &DispatchDevice {
        &self.inner
    }

    /// The checkpointing strategy of tensors created here.
    pub fn checkpointing(&self) -> burn_autodiff::Checkpointing {
        self.checkpointing
    }
}

impl DispatchDevice {
    /// The device without any autodiff context.
    pub fn plain(&self) -> &DispatchDevice {
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(device) = self {
            return &device.inner;
        }
        self
    }

    /// The same device, creating autodiff tensors with `checkpointing`.
    #[cfg(feature = "autodiff")]
    pub fn autodiff(self, checkpointing: burn_autodiff::Checkpointing) -> Self {
        Self::Autodiff(AutodiffDevice {
            inner: alloc::boxed::Box::new(self.without_autodiff()),
            checkpointing,
        })
    }

    /// The same device, creating plain tensors.
    pub fn without_autodiff(self) -> Self {
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(device) = self {
            return *device.inner;
        }
        self
    }

    /// The checkpointing strategy when the device carries an autodiff context.
    #[cfg(feature = "autodiff")]
    pub fn checkpointing(&self) -> Option<burn_autodiff::Checkpointing> {
        match self {
            Self::Autodiff(device) => Some(device.checkpointing),
            _ => None,
        }
    }

    /// Whether new float tensors on this device carry an autodiff context.
    pub fn is_autodiff(&self) -> bool {
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(_) = self {
            return true;
        }
        false
    }

    /// Whether a tensor here lives in this process's memory as one buffer
    /// that reading its data (`into_data`) hands over without a copy when
    /// nothing else shares it, and that data made into a tensor here is
    /// taken as it is: Flex. Not a GPU (a read is a transfer), nor the
    /// router, remote and capture devices.
    pub fn hands_over_buffers(&self) -> bool {
        match self.plain() {
            #[cfg(feature = "flex")]
            Self::Flex(_) => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The catalog name of the backend holding this device, e.g. `"Flex"`.
    pub fn backend_name(&self) -> &'static str {
        burn_backend_extension::backend_name!(self.plain())
    }
}

impl PartialEq for DispatchDevice {
    fn eq(&self, other: &Self) -> bool {
        match (self.plain(), other.plain()) {
            #[cfg(feature = "cube")]
            (Self::Cube(a), Self::Cube(b)) => a == b,
            #[cfg(feature = "flex")]
            (Self::Flex(a), Self::Flex(b)) => a == b,
            #[cfg(feature = "router")]
            (Self::Router(a), Self::Router(b)) => a == b,
            #[cfg(feature = "remote")]
            (Self::Remote(a), Self::Remote(b)) => a == b,
            #[cfg(feature = "capture")]
            (Self::Capture(a), Self::Capture(b)) => a == b,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

impl Eq for DispatchDevice {}

impl core::hash::Hash for DispatchDevice {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let device = self.plain();
        self.backend_name().hash(state);
        route!(device, |_B, d| d.hash(state))
    }
}

impl Default for DispatchDevice {
    /// The first enabled backend in priority order, GPUs before CPUs: a
    /// CubeCL GPU runtime (CUDA, then ROCm, then WGPU), then Flex, then
    /// CubeCL's CPU runtime (Flex is the CPU backend of choice when both are
    /// enabled).
    fn default() -> Self {
        #[allow(unreachable_code)]
        {
            #[cfg(feature = "cuda")]
            return Self::Cube(burn_cubecl::CubeDevice::Cuda(0));
            #[cfg(feature = "rocm")]
            return Self::Cube(burn_cubecl::CubeDevice::Rocm(0));
            #[cfg(feature = "wgpu")]
            return Self::Cube(burn_cubecl::CubeDevice::Wgpu(
                burn_cubecl::WgpuDevice::DefaultDevice,
            ));
            #[cfg(feature = "flex")]
            return Self::Flex(burn_flex::FlexDevice);
            #[cfg(feature = "cpu")]
            return Self::Cube(burn_cubecl::CubeDevice::Cpu);
            panic!(
                "Device::default(): no backend is enabled; enable a backend feature such as \
                 `flex` or `wgpu` (the `cube` feature alone compiles no CubeCL runtime)"
            )
        }
    }
}

impl DeviceOps for DispatchDevice {
    fn id(&self) -> DeviceId {
        route!(self.plain(), |_B, d| d.id())
    }
}

impl core::fmt::Display for DispatchDevice {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let device = self.plain();
        let written: core::fmt::Result = route!(device, |_B, d| write!(
            f,
            "{}({:?})",
            self.backend_name(),
            d
        ));
        written?;
        #[cfg(feature = "autodiff")]
        if let Self::Autodiff(device) = self {
            write!(
                f,
                " with autodiff ({:?} checkpointing)",
                device.checkpointing
            )?;
        }
        Ok(())
    }
}

pub(crate) use burn_backend_extension::route_device as route;
