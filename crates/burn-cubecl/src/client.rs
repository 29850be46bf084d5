//! The compute client of a device, erased over the runtime.
//!
//! cubecl's clients are generic over the runtime; the backend is not. A
//! [`CubeClient`] holds the client of one runtime, and [`with_runtime!`]
//! runs a generic launch function with the matching runtime type, so every
//! kernel is written once as `fn launch<R: Runtime>(client: &ComputeClient<R>, ..)`.

use cubecl::prelude::ComputeClient;

use crate::CubeDevice;

/// The compute client of one device, for whichever runtime the device uses.
#[derive(Clone)]
pub enum CubeClient {
    /// CUDA.
    #[cfg(feature = "cuda")]
    Cuda(ComputeClient<cubecl::cuda::CudaRuntime>),
    /// HIP (ROCm).
    #[cfg(feature = "rocm")]
    Rocm(ComputeClient<cubecl::hip::HipRuntime>),
    /// WGPU.
    #[cfg(feature = "wgpu")]
    Wgpu(ComputeClient<cubecl::wgpu::WgpuRuntime>),
    /// The CubeCL CPU runtime.
    #[cfg(feature = "cpu")]
    Cpu(ComputeClient<cubecl::cpu::CpuRuntime>),
}

impl core::fmt::Debug for CubeClient {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CubeClient")
    }
}

impl CubeClient {
    /// The client of `device`; cubecl starts the device's server on first use
    /// and hands out cheap clones afterwards.
    pub fn of(device: &CubeDevice) -> Self {
        use cubecl::Runtime;
        #[allow(unreachable_patterns)]
        match device {
            #[cfg(feature = "cuda")]
            CubeDevice::Cuda(index) => Self::Cuda(cubecl::cuda::CudaRuntime::client(
                &cubecl::cuda::CudaDevice::new(*index),
            )),
            #[cfg(feature = "rocm")]
            CubeDevice::Rocm(index) => Self::Rocm(cubecl::hip::HipRuntime::client(
                &cubecl::hip::AmdDevice::new(*index),
            )),
            #[cfg(feature = "wgpu")]
            CubeDevice::Wgpu(device) => Self::Wgpu(cubecl::wgpu::WgpuRuntime::client(device)),
            #[cfg(feature = "cpu")]
            CubeDevice::Cpu => Self::Cpu(cubecl::cpu::CpuRuntime::client(&cubecl::cpu::CpuDevice)),
            _ => unreachable!("CubeDevice has no variant without a runtime feature"),
        }
    }
}

/// Runs `$body` with `$c` bound to the typed client of `$client` and `$R`
/// naming its runtime type.
macro_rules! with_runtime {
    ($client:expr, $R:ident, $c:ident => $body:expr) => {{
        #[allow(unreachable_patterns, unused_variables)]
        match $client {
            #[cfg(feature = "cuda")]
            $crate::client::CubeClient::Cuda($c) => {
                #[allow(dead_code)]
                type $R = cubecl::cuda::CudaRuntime;
                $body
            }
            #[cfg(feature = "rocm")]
            $crate::client::CubeClient::Rocm($c) => {
                #[allow(dead_code)]
                type $R = cubecl::hip::HipRuntime;
                $body
            }
            #[cfg(feature = "wgpu")]
            $crate::client::CubeClient::Wgpu($c) => {
                #[allow(dead_code)]
                type $R = cubecl::wgpu::WgpuRuntime;
                $body
            }
            #[cfg(feature = "cpu")]
            $crate::client::CubeClient::Cpu($c) => {
                #[allow(dead_code)]
                type $R = cubecl::cpu::CpuRuntime;
                $body
            }
            _ => unreachable!("burn-cubecl was built without a runtime"),
        }
    }};
}
pub(crate) use with_runtime;

/// A kernel launch written once for every runtime, for backend extensions:
/// `launch` is generic over the runtime (a closure cannot be), and
/// [`CubeClient::launch`] calls it with the runtime of the device.
///
/// ```ignore
/// struct Double<'a> { input: &'a CubeTensor, output: &'a CubeTensor }
/// impl CubeLaunch for Double<'_> {
///     type Output = ();
///     fn launch<R: cubecl::Runtime>(self, client: &ComputeClient<R>) {
///         let (count, dim) = burn_cubecl::launch_dims(client, self.output.num_elements());
///         unsafe {
///             double_kernel::launch_unchecked::<R>(
///                 client, count, dim, self.input.as_tensor_arg(), self.output.as_tensor_arg(), ..
///             )
///         }
///     }
/// }
/// ```
pub trait CubeLaunch {
    /// What the launch returns.
    type Output;

    /// Launches on `client`'s device.
    fn launch<R: cubecl::Runtime>(self, client: &ComputeClient<R>) -> Self::Output;
}

impl CubeClient {
    /// Runs `launch` with this client's runtime.
    pub fn launch<L: CubeLaunch>(&self, launch: L) -> L::Output {
        with_runtime!(self, R, c => launch.launch::<R>(c))
    }
}

/// The cube count and cube dim of an element-wise kernel over `units`
/// positions (one unit each), as the backend's own kernels launch.
pub fn launch_dims<R: cubecl::Runtime>(
    client: &ComputeClient<R>,
    units: usize,
) -> (cubecl::prelude::CubeCount, cubecl::prelude::CubeDim) {
    crate::ops::elemwise_dims(client, units)
}

/// What a device's memory pools hold, from cubecl's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryReport {
    /// Buffers in use.
    pub allocations: u64,
    /// Bytes of those buffers.
    pub bytes_in_use: u64,
    /// Bytes the pools hold from the device, in use or not.
    pub bytes_reserved: u64,
}

/// The memory report of `device`, after the work submitted so far has run.
pub fn memory_report(device: &CubeDevice) -> Result<MemoryReport, String> {
    let client = CubeClient::of(device);
    with_runtime!(&client, R, c => {
        cubecl::future::block_on(c.sync()).map_err(|e| alloc::format!("memory_report: {e:?}"))?;
        let usage = c
            .memory_usage()
            .map_err(|e| alloc::format!("memory_report: {e:?}"))?;
        Ok(MemoryReport {
            allocations: usage.number_allocs,
            bytes_in_use: usage.bytes_in_use,
            bytes_reserved: usage.bytes_reserved,
        })
    })
}
