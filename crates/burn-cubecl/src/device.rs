//! The CubeCL device: which runtime, and which of its devices.

use burn_backend::{DeviceId, DeviceOps};

#[cfg(feature = "wgpu")]
pub use cubecl::wgpu::WgpuDevice;

/// A device of one of the CubeCL runtimes compiled in.
///
/// Every runtime shares the one [`Cube`](crate::Cube) backend: the device
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
