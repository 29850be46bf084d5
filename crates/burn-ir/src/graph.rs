//! A recorded sequence of operations with declared boundaries.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::{OperationIr, TensorId};

/// Operations in execution order, with the tensors that enter the graph
/// from outside (its runtime inputs) and the tensors it hands back.
///
/// Tensors that the operations read without producing them and that are not
/// inputs are constants whose values travel beside the graph (a captured
/// graph's `values`, for instance the weights of a model).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphIr {
    /// The operations, in the order they were recorded.
    pub operations: Vec<OperationIr>,
    /// The runtime inputs, in declaration order.
    pub inputs: Vec<TensorId>,
    /// The outputs, in declaration order.
    pub outputs: Vec<TensorId>,
}
