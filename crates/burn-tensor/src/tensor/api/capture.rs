//! Naming tensors as the boundaries of a captured graph.

use crate::{Tensor, TensorKind};

impl<const D: usize, K: TensorKind> Tensor<D, K> {
    /// The tensor's id on its capture device, the name
    /// [`CaptureScope::complete`](burn_capture::CaptureScope::complete) and
    /// the captured graph use for it.
    ///
    /// # Panics
    /// If the tensor is not on a capture device (`Device::capture()`).
    pub fn capture_id(&self) -> burn_capture::TensorId {
        self.primitive.capture_id().unwrap_or_else(|| {
            panic!(
                "capture_id: the tensor is on {}, not on a capture device",
                self.device()
            )
        })
    }
}

impl<const D: usize, K: TensorKind> burn_capture::CaptureTensor for Tensor<D, K> {
    fn capture_id(&self) -> burn_capture::TensorId {
        Tensor::capture_id(self)
    }
}

impl<const D: usize, K: TensorKind> burn_capture::CaptureTensor for &Tensor<D, K> {
    fn capture_id(&self) -> burn_capture::TensorId {
        Tensor::capture_id(self)
    }
}
