//! The CubeCL device: which runtime, and which of its devices.

use burn_backend::{DeviceId, DeviceOps};

#[cfg(feature = "wgpu")]
pub use cubecl::wgpu::WgpuDevice;

/// A device of one of the CubeCL runtimes compiled in.
///
/// Every runtime shares the one [`CubeBackend`](crate::CubeBackend): the device
/// picks the runtime. The variants present depend on the crate features
/// (`cuda`, `rocm`, `wgpu`, `cpu`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CubeDevice {
    /// An NVIDIA GPU, by ordinal (CUDA runtime, `cuda` feature).
    #[cfg(feature = "cuda")]
    Cuda(usize),
    /// An AMD GPU, by ordinal (HIP runtime, `rocm` feature).
    #[cfg(feature = "rocm")]
    Rocm(usize),
    /// An adapter of the WGPU runtime (`wgpu` feature): Vulkan, Metal,
    /// DirectX or WebGPU, whichever the platform offers.
    #[cfg(feature = "wgpu")]
    Wgpu(WgpuDevice),
    /// The host CPU through CubeCL's MLIR/LLVM runtime (`cpu` feature).
    #[cfg(feature = "cpu")]
    Cpu,
}

impl Default for CubeDevice {
    /// The first runtime compiled in, in the order CUDA, ROCm, WGPU, CPU.
    #[allow(unreachable_code)]
    fn default() -> Self {
        #[cfg(feature = "cuda")]
        return Self::Cuda(0);
        #[cfg(feature = "rocm")]
        return Self::Rocm(0);
        #[cfg(feature = "wgpu")]
        return Self::Wgpu(WgpuDevice::DefaultDevice);
        #[cfg(feature = "cpu")]
        return Self::Cpu;
        panic!(
            "CubeDevice::default(): burn-cubecl was built without a runtime; \
             enable one of the features `cuda`, `rocm`, `wgpu` or `cpu`"
        )
    }
}

impl DeviceOps for CubeDevice {
    fn id(&self) -> DeviceId {
        // type_id: runtime × 16 + the runtime's own device kind.
        #[allow(unreachable_patterns)]
        match self {
            #[cfg(feature = "cuda")]
            Self::Cuda(index) => DeviceId::new(0, *index as u32),
            #[cfg(feature = "rocm")]
            Self::Rocm(index) => DeviceId::new(16, *index as u32),
            #[cfg(feature = "wgpu")]
            Self::Wgpu(device) => {
                let (kind, index) = match device {
                    WgpuDevice::DiscreteGpu(i) => (0, *i as u32),
                    WgpuDevice::IntegratedGpu(i) => (1, *i as u32),
                    WgpuDevice::VirtualGpu(i) => (2, *i as u32),
                    WgpuDevice::Cpu => (3, 0),
                    WgpuDevice::Existing(id) => (5, *id),
                    _ => (4, 0),
                };
                DeviceId::new(32 + kind, index)
            }
            #[cfg(feature = "cpu")]
            Self::Cpu => DeviceId::new(48, 0),
            _ => unreachable!("CubeDevice has no variant without a runtime feature"),
        }
    }
}

impl CubeDevice {
    /// The runtime's name, e.g. `"cuda"` or `"wgpu"`.
    pub fn runtime_name(&self) -> &'static str {
        #[allow(unreachable_patterns)]
        match self {
            #[cfg(feature = "cuda")]
            Self::Cuda(_) => "cuda",
            #[cfg(feature = "rocm")]
            Self::Rocm(_) => "rocm",
            #[cfg(feature = "wgpu")]
            Self::Wgpu(_) => "wgpu",
            #[cfg(feature = "cpu")]
            Self::Cpu => "cpu",
            _ => unreachable!("CubeDevice has no variant without a runtime feature"),
        }
    }
}

impl CubeDevice {
    /// Every device of `probe`'s runtime, as CubeCL lists them: each GPU
    /// ordinal for CUDA and ROCm, each adapter of the graphics API for WGPU,
    /// the host for the CPU runtime.
    ///
    /// CubeCL lists a runtime's devices from a running server, so this
    /// starts `probe`'s (the first device of the runtime, typically). A
    /// runtime whose driver cannot be loaded, or that has no device, lists
    /// nothing instead of failing (its loader's panic message is printed).
    pub fn enumerate(probe: &CubeDevice) -> Vec<CubeDevice> {
        let listed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let client = crate::client::CubeClient::of(probe);
            crate::client::with_runtime!(&client, R, c => c
                .enumerate_all_devices()
                .into_iter()
                .map(|id| (id.type_id, id.index_id as usize))
                .collect::<Vec<_>>())
        }));
        let Ok(ids) = listed else {
            return Vec::new();
        };
        #[allow(unreachable_code, unused_variables)]
        ids.into_iter()
            .map(|(kind, index)| match probe {
                #[cfg(feature = "cuda")]
                Self::Cuda(_) => Self::Cuda(index),
                #[cfg(feature = "rocm")]
                Self::Rocm(_) => Self::Rocm(index),
                #[cfg(feature = "wgpu")]
                Self::Wgpu(_) => Self::Wgpu(match kind {
                    0 => WgpuDevice::DiscreteGpu(index),
                    1 => WgpuDevice::IntegratedGpu(index),
                    2 => WgpuDevice::VirtualGpu(index),
                    3 => WgpuDevice::Cpu,
                    5 => WgpuDevice::Existing(index as u32),
                    _ => WgpuDevice::DefaultDevice,
                }),
                #[cfg(feature = "cpu")]
                Self::Cpu => Self::Cpu,
                #[allow(unreachable_patterns)]
                _ => unreachable!("CubeDevice has no variant without a runtime feature"),
            })
            .collect()
    }
}
