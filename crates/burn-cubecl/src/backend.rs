//! `CubeBackend` as a `Backend`. The ops traits come from burn-backend's kernel
//! adapters over the kernel traits that `crate::ops` implements, one per
//! file; this file holds what is CubeBackend's own: the primitive types, moving
//! data between host and devices, the backend's identity and the fused
//! softmax.

use alloc::string::String;

use burn_backend::kernels::{DeviceKernels, Kernels};
use burn_backend::{ActivationOps, Backend, BackendTypes, ExecutionError, TransactionOps};
use burn_std::{DType, TensorData};

use crate::client::{CubeClient, with_runtime};
use crate::dtype::BOOL;
use crate::{CubeDevice, CubeTensor};

/// The CubeCL backend: one backend for every CubeCL runtime, the device
/// picks which (CUDA, ROCm, WGPU or the CPU runtime).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeBackend;

impl BackendTypes for CubeBackend {
    type Device = CubeDevice;
    type FloatTensorPrimitive = CubeTensor;
    type IntTensorPrimitive = CubeTensor;
    type BoolTensorPrimitive = CubeTensor;
    type QuantizedTensorPrimitive = CubeTensor;
}

impl Backend for CubeBackend {
    fn name(device: &CubeDevice) -> String {
        alloc::format!("cubecl<{}>", device.runtime_name())
    }

    fn seed(_device: &CubeDevice, seed: u64) {
        // cubek's generator is process-wide: every device draws from it.
        cubek::random::seed(seed);
    }

    fn sync(device: &CubeDevice) -> Result<(), ExecutionError> {
        let client = CubeClient::of(device);
        with_runtime!(&client, R, c => cubecl::future::block_on(c.sync())).map_err(|err| {
            ExecutionError::Failed {
                op: String::from("sync"),
                reason: alloc::format!("{err:?}"),
            }
        })
    }

    fn supports_dtype(device: &CubeDevice, dtype: DType) -> bool {
        crate::dtype::supports(&CubeClient::of(device), dtype)
    }

    fn bool_dtype(_device: &CubeDevice) -> DType {
        crate::dtype::BOOL
    }

    fn default_int_dtype(_device: &CubeDevice) -> DType {
        // 64-bit integers are optional on GPUs (WGSL has none without an
        // extension); i32 is native everywhere.
        DType::I32
    }
}

// Empty: each kernel family is implemented in its file of `crate::ops`.
impl Kernels for CubeBackend {}

// Each tensor carries its device; moving to another reads back and uploads.
impl DeviceKernels for CubeBackend {
    type Tensor = CubeTensor;
    const BOOL: DType = BOOL;

    fn from_data(data: TensorData, device: &CubeDevice) -> CubeTensor {
        CubeTensor::from_data(data, device)
    }
    fn into_data(tensor: CubeTensor) -> Result<TensorData, ExecutionError> {
        tensor.into_data()
    }
    fn device(tensor: &CubeTensor) -> CubeDevice {
        tensor.device.clone()
    }
    fn to_device(tensor: CubeTensor, device: &CubeDevice) -> CubeTensor {
        crate::ops::creation::to_device(tensor, device)
    }
}

// Composites: the trait's defaults over CubeBackend's kernels, except softmax,
// fused into one kernel (one cube per row) instead of five.
impl ActivationOps<Self> for CubeBackend {
    fn softmax(tensor: CubeTensor, dim: usize) -> CubeTensor {
        crate::ops::softmax::softmax(tensor, dim, false)
    }

    fn log_softmax(tensor: CubeTensor, dim: usize) -> CubeTensor {
        crate::ops::softmax::softmax(tensor, dim, true)
    }
}
impl TransactionOps<Self> for CubeBackend {}
