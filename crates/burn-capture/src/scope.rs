//! One recording: the scope, its completion, the graph and its errors.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::TensorData;
use burn_ir::{GraphIr, InitOperationIr, OperationIr, TensorId, TensorStatus};

use crate::CaptureDevice;
use crate::client::{CaptureClient, Session};

/// A tensor that can name itself as a graph boundary.
pub trait CaptureTensor {
    /// The id of the tensor on its capture device.
    ///
    /// # Panics
    /// If the tensor is not on a capture device.
    fn capture_id(&self) -> TensorId;
}

/// One tensor or a collection of them, as graph outputs.
pub trait IntoCaptureOutputs {
    /// The ids, in order.
    fn into_capture_ids(self) -> Vec<TensorId>;
}

impl<T: CaptureTensor> IntoCaptureOutputs for T {
    fn into_capture_ids(self) -> Vec<TensorId> {
        alloc::vec![self.capture_id()]
    }
}

impl<T: CaptureTensor> IntoCaptureOutputs for Vec<T> {
    fn into_capture_ids(self) -> Vec<TensorId> {
        self.iter().map(CaptureTensor::capture_id).collect()
    }
}

impl<T: CaptureTensor, const N: usize> IntoCaptureOutputs for [T; N] {
    fn into_capture_ids(self) -> Vec<TensorId> {
        self.iter().map(CaptureTensor::capture_id).collect()
    }
}

macro_rules! tuple_outputs {
    ($($t:ident $i:tt),+) => {
        impl<$($t: CaptureTensor),+> IntoCaptureOutputs for ($($t,)+) {
            fn into_capture_ids(self) -> Vec<TensorId> {
                alloc::vec![$(self.$i.capture_id()),+]
            }
        }
    };
}

tuple_outputs!(A 0, B 1);
tuple_outputs!(A 0, B 1, C 2);
tuple_outputs!(A 0, B 1, C 2, D 3);

/// What a capture scope produced.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedGraph {
    /// The operations in order, with the declared inputs and outputs.
    pub graph: GraphIr,
    /// The values of the tensors that entered with data and are not runtime
    /// inputs (weights and other constants), by id.
    pub values: BTreeMap<TensorId, TensorData>,
}

/// Why a capture did not produce a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureError {
    /// Another scope is active on the device.
    AlreadyActive,
    /// The device is not a capture device.
    InvalidDevice,
    /// A declared boundary names a tensor this scope never saw.
    UnknownBoundary {
        /// `"input"` or `"output"`.
        boundary: &'static str,
        /// The tensor.
        tensor: TensorId,
    },
    /// A tensor is declared twice at the same boundary.
    DuplicateBoundary {
        /// `"input"` or `"output"`.
        boundary: &'static str,
        /// The tensor.
        tensor: TensorId,
    },
    /// An operation reads a tensor that neither entered with data in this
    /// scope nor was computed in it (a tensor from an earlier scope).
    UndeclaredInput {
        /// The tensor.
        tensor: TensorId,
    },
    /// A declared input is computed inside the graph, not supplied to it.
    InvalidInput {
        /// The tensor.
        tensor: TensorId,
    },
    /// A declared output was consumed by a later operation (its last handle
    /// passed to it), so the graph cannot hand it back.
    InvalidOutput {
        /// The tensor.
        tensor: TensorId,
    },
}

impl core::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::AlreadyActive => write!(f, "a capture scope is already active on this device"),
            Self::InvalidDevice => write!(
                f,
                "capture_scope needs a capture device (Device::capture())"
            ),
            Self::UnknownBoundary { boundary, tensor } => {
                write!(
                    f,
                    "the {boundary} {tensor} is not a tensor of this capture scope"
                )
            }
            Self::DuplicateBoundary { boundary, tensor } => {
                write!(f, "{tensor} is declared twice as an {boundary}")
            }
            Self::UndeclaredInput { tensor } => write!(
                f,
                "an operation reads {tensor}, which neither entered this scope with data nor was \
                 computed in it"
            ),
            Self::InvalidInput { tensor } => write!(
                f,
                "the input {tensor} is computed inside the graph; inputs must enter with data \
                 (for example moved onto the capture device)"
            ),
            Self::InvalidOutput { tensor } => write!(
                f,
                "the output {tensor} is consumed by a later operation of the graph"
            ),
        }
    }
}

impl std::error::Error for CaptureError {}

/// The token a capture closure receives: it declares the graph's boundaries
/// and ends the recording.
#[derive(Debug)]
pub struct CaptureScope {
    client: Arc<CaptureClient>,
    scope: u64,
    inputs: Vec<TensorId>,
}

/// The boundaries a completed scope declared; only [`CaptureScope::complete`]
/// makes one, so a capture cannot end without them.
#[derive(Debug)]
pub struct CompletedCaptureScope {
    scope: u64,
    inputs: Vec<TensorId>,
    outputs: Vec<TensorId>,
}

impl CaptureScope {
    /// Declares `tensor` a runtime input and hands it back.
    pub fn input<T: CaptureTensor>(&mut self, tensor: T) -> T {
        let id = tensor.capture_id();
        if !self.inputs.contains(&id) {
            self.inputs.push(id);
        }
        tensor
    }

    /// Ends the recording with the inputs declared through
    /// [`input`](Self::input) and `outputs`.
    pub fn complete_with<O: IntoCaptureOutputs>(mut self, outputs: O) -> CompletedCaptureScope {
        let inputs = core::mem::take(&mut self.inputs);
        self.complete(inputs, outputs.into_capture_ids())
    }

    /// Ends the recording, declaring the runtime inputs and the outputs in
    /// order. Operations on the device are refused from here on, even
    /// before the closure returns.
    pub fn complete(
        self,
        inputs: impl IntoIterator<Item = TensorId>,
        outputs: impl IntoIterator<Item = TensorId>,
    ) -> CompletedCaptureScope {
        self.client.close(self.scope);
        CompletedCaptureScope {
            scope: self.scope,
            inputs: inputs.into_iter().collect(),
            outputs: outputs.into_iter().collect(),
        }
    }
}

/// Ends the session when the closure unwinds, so the device can be used again.
struct EndOnDrop {
    client: Arc<CaptureClient>,
    scope: u64,
}

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        self.client.end(self.scope);
    }
}

impl CaptureDevice {
    /// Records the tensor code of `capture` on this device as a graph.
    ///
    /// The closure receives the [`CaptureScope`] and returns what
    /// [`CaptureScope::complete`] gives; the graph's inputs are tensors that
    /// entered with data (moved onto this device, for instance), its outputs
    /// any tensors of the scope that are still alive.
    pub fn capture_scope(
        &self,
        capture: impl FnOnce(CaptureScope) -> CompletedCaptureScope,
    ) -> Result<CapturedGraph, CaptureError> {
        let client = self.client();
        let scope = client.begin().ok_or(CaptureError::AlreadyActive)?;
        let guard = EndOnDrop {
            client: client.clone(),
            scope,
        };
        let completed = capture(CaptureScope {
            client: client.clone(),
            scope,
            inputs: Vec::new(),
        });
        let session = client.end(scope);
        drop(guard);
        match session {
            Some(session) if completed.scope == scope => finish(session, completed),
            // A token of another scope: this one was never completed.
            _ => Err(CaptureError::InvalidDevice),
        }
    }
}

/// Checks the declared boundaries against what was recorded.
fn finish(
    session: Session,
    completed: CompletedCaptureScope,
) -> Result<CapturedGraph, CaptureError> {
    let Session {
        operations,
        mut values,
        ..
    } = session;
    let mut computed = BTreeSet::new();
    let mut consumed = BTreeSet::new();
    let mut undeclared = None;
    for op in &operations {
        let tensors = op.tensors();
        for input in tensors.inputs {
            let known = values.contains_key(&input.id) || computed.contains(&input.id);
            if !known && undeclared.is_none() {
                undeclared = Some(input.id);
            }
            if input.status == TensorStatus::ReadWrite {
                consumed.insert(input.id);
            }
        }
        if !matches!(op, OperationIr::Init(InitOperationIr::FromData { .. })) {
            computed.extend(tensors.outputs.iter().map(|t| t.id));
        }
    }

    let mut seen = BTreeSet::new();
    for &tensor in &completed.inputs {
        if !seen.insert(tensor) {
            return Err(CaptureError::DuplicateBoundary {
                boundary: "input",
                tensor,
            });
        }
        if computed.contains(&tensor) {
            return Err(CaptureError::InvalidInput { tensor });
        }
        if !values.contains_key(&tensor) {
            return Err(CaptureError::UnknownBoundary {
                boundary: "input",
                tensor,
            });
        }
    }
    let mut seen = BTreeSet::new();
    for &tensor in &completed.outputs {
        if !seen.insert(tensor) {
            return Err(CaptureError::DuplicateBoundary {
                boundary: "output",
                tensor,
            });
        }
        if !values.contains_key(&tensor) && !computed.contains(&tensor) {
            return Err(CaptureError::UnknownBoundary {
                boundary: "output",
                tensor,
            });
        }
        if consumed.contains(&tensor) {
            return Err(CaptureError::InvalidOutput { tensor });
        }
    }
    if let Some(tensor) = undeclared {
        return Err(CaptureError::UndeclaredInput { tensor });
    }
    for input in &completed.inputs {
        values.remove(input);
    }
    Ok(CapturedGraph {
        graph: GraphIr {
            operations,
            inputs: completed.inputs,
            outputs: completed.outputs,
        },
        values,
    })
}
