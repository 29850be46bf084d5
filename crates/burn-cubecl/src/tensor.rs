//! [`CubeTensor`]: a device buffer plus a strided layout and a run-time dtype.

use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_std::{DType, Shape, TensorData};
use cubecl::prelude::*;
use cubecl::server::Handle;

use crate::CubeDevice;
use crate::client::{CubeClient, with_runtime};
use crate::dtype::{self, BOOL};

/// The primitive of every tensor kind of the [`CubeBackend`](crate::CubeBackend).
///
/// `handle` is a whole device buffer; the tensor reads `shape` elements at
/// `offset + Σ coord·stride` (all in elements). Permute, expand (stride 0),
/// slice and reshape of contiguous data are views over the same buffer.
#[derive(Clone)]
pub struct CubeTensor {
    pub(crate) client: CubeClient,
    pub(crate) device: CubeDevice,
    pub(crate) handle: Handle,
    pub(crate) offset: usize,
    pub(crate) shape: Shape,
    pub(crate) strides: Vec<usize>,
    pub(crate) dtype: DType,
}

impl core::fmt::Debug for CubeTensor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CubeTensor")
            .field("device", &self.device)
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .field("offset", &self.offset)
            .field("dtype", &self.dtype)
            .finish()
    }
}

impl TensorMetadata for CubeTensor {
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn shape(&self) -> Shape {
        self.shape.clone()
    }
}

impl CubeTensor {
    /// The device holding the tensor.
    pub fn device(&self) -> &CubeDevice {
        &self.device
    }

    /// The compute client of the tensor's device, to launch kernels of
    /// backend extensions on ([`CubeClient::launch`]).
    pub fn client(&self) -> &CubeClient {
        &self.client
    }

    /// Where the tensor starts in its buffer, in elements: a kernel reads
    /// element `i` of a contiguous tensor at `offset() + i`.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The tensor as a kernel argument: its buffer, shape and strides (the
    /// [`offset`](Self::offset) is not part of it).
    pub fn as_tensor_arg<R: Runtime>(&self) -> TensorArg<R> {
        self.arg()
    }

    /// Number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// The dims of the shape.
    pub fn dims(&self) -> &[usize] {
        self.shape.dims.as_slice()
    }

    /// An uninitialised contiguous tensor on the same device.
    pub fn empty_like(&self, shape: Shape, dtype: DType) -> Self {
        Self::empty(&self.client, &self.device, shape, dtype)
    }

    /// An uninitialised contiguous tensor.
    pub fn empty(client: &CubeClient, device: &CubeDevice, shape: Shape, dtype: DType) -> Self {
        let dtype = dtype::stored(dtype);
        // Zero-element tensors still get a small buffer: a handle always exists.
        let bytes = (shape.num_elements() * dtype.size()).max(4);
        let handle = with_runtime!(client, R, c => c.empty(bytes));
        let strides = shape.contiguous_strides();
        Self {
            client: client.clone(),
            device: device.clone(),
            handle,
            offset: 0,
            shape,
            strides,
            dtype,
        }
    }

    /// Uploads `data` (bools become `u32` words).
    pub fn from_data(data: TensorData, device: &CubeDevice) -> Self {
        let client = CubeClient::of(device);
        let data = if data.dtype.is_bool() {
            data.convert_dtype(BOOL)
        } else {
            data
        };
        check_supported(&client, device, data.dtype, "from_data");
        let mut bytes: Vec<u8> = data.bytes.as_slice().to_vec();
        if bytes.len() < 4 {
            bytes.resize(4, 0);
        }
        let handle = with_runtime!(&client, R, c => c.create_from_slice(&bytes));
        let strides = data.shape.contiguous_strides();
        Self {
            client,
            device: device.clone(),
            handle,
            offset: 0,
            shape: data.shape.clone(),
            strides,
            dtype: data.dtype,
        }
    }

    /// Whether the tensor reads its buffer from `offset` in row-major order.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for (&dim, &stride) in self.shape.dims.as_slice().iter().zip(&self.strides).rev() {
            if dim != 1 && stride != expected {
                return false;
            }
            expected *= dim;
        }
        true
    }

    /// Whether the tensor covers its whole buffer contiguously from the start.
    pub fn is_packed(&self) -> bool {
        self.offset == 0 && self.is_contiguous()
    }

    /// The same values in a fresh contiguous buffer, or `self` if already so.
    pub fn into_contiguous(self) -> Self {
        if self.is_packed() {
            return self;
        }
        crate::ops::shape::copy_contiguous(&self)
    }

    /// Reads the values back (bools as native bools).
    pub fn into_data(self) -> Result<TensorData, burn_backend::ExecutionError> {
        let shape = self.shape.clone();
        let dtype = self.dtype;
        if self.num_elements() == 0 {
            let data = TensorData::from_bytes(burn_std::Bytes::from_vec(Vec::new()), shape, dtype)
                .expect("empty data");
            return Ok(if dtype.is_bool() {
                data.convert_dtype(DType::Bool(burn_std::BoolStore::Native))
            } else {
                data
            });
        }
        // Quantized tensors are always contiguous (they are only created
        // from data); their bytes are values then scales.
        let tensor = if dtype.is_quantized() {
            self
        } else {
            self.into_contiguous()
        };
        let size =
            shape
                .try_num_bytes(dtype)
                .map_err(|err| burn_backend::ExecutionError::Failed {
                    op: alloc::string::String::from("into_data"),
                    reason: alloc::format!("{err}"),
                })?;
        let bytes = with_runtime!(&tensor.client, R, c => c.read_one(tensor.handle.clone()))
            .map_err(|err| burn_backend::ExecutionError::Failed {
                op: alloc::string::String::from("into_data"),
                reason: alloc::format!("{err:?}"),
            })?;
        let data =
            TensorData::from_bytes(burn_std::Bytes::from_slice(&bytes[..size]), shape, dtype)
                .expect("read back the tensor's exact byte count");
        Ok(if dtype.is_bool() {
            data.convert_dtype(DType::Bool(burn_std::BoolStore::Native))
        } else {
            data
        })
    }

    /// The tensor as a kernel argument: its buffer with its shape and strides
    /// (the offset travels as a separate kernel argument).
    pub(crate) fn arg<R: Runtime>(&self) -> TensorArg<R> {
        let shape: Vec<usize> = self.shape.dims.as_slice().to_vec();
        // Rank-0 tensors are passed as one element.
        let (shape, strides) = if shape.is_empty() {
            (alloc::vec![1], alloc::vec![1])
        } else {
            (shape, self.strides.clone())
        };
        unsafe { TensorArg::from_raw_parts(self.handle.clone(), strides.into(), shape.into()) }
    }

    /// The tensor as a cubecl binding, for the cubek kernels; needs
    /// [`is_packed`](Self::is_packed) data.
    pub(crate) fn binding<R: Runtime>(&self) -> TensorBinding<R> {
        let shape: Vec<usize> = self.shape.dims.as_slice().to_vec();
        unsafe {
            TensorBinding::from_raw_parts(
                self.handle.clone(),
                self.strides.clone().into(),
                shape.into(),
            )
        }
    }
}

/// Panics with a message naming the op, dtype and device when the device
/// cannot hold `dtype`.
#[track_caller]
pub(crate) fn check_supported(client: &CubeClient, device: &CubeDevice, dtype: DType, op: &str) {
    if !dtype::supports(client, dtype) {
        panic!("{op}: dtype {dtype} is not supported on {device:?} (see Backend::supports_dtype)");
    }
}
