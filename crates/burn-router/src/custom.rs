//! Recording a backend extension's op ([`CustomOpIr`]): what the code
//! `#[backend_extension]` generates for `Fusion` calls.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;

use burn_ir::{CustomOpIr, CustomRun, OperationIr};
use burn_std::{DType, Shape};

use crate::RouterTensor;

/// Records the op `id` on the executor holding `inputs`, creating tensors
/// of the `outputs` shapes and dtypes, and returns them; `run` (a
/// [`CustomFn`](burn_ir::CustomFn) of the executor's backend) computes
/// them when the executor runs the op.
///
/// # Panics
/// If `inputs` is empty, or its tensors are held by different executors.
#[track_caller]
pub fn record_custom(
    id: &str,
    inputs: Vec<RouterTensor>,
    outputs: Vec<(Shape, DType)>,
    run: Arc<dyn Any + Send + Sync>,
) -> Vec<RouterTensor> {
    let client = inputs
        .first()
        .unwrap_or_else(|| panic!("{id}: an extension op needs a tensor input to run on"))
        .client()
        .clone();
    let same = |other: &RouterTensor| {
        core::ptr::addr_eq(Arc::as_ptr(other.client()), Arc::as_ptr(&client))
    };
    if let Some(other) = inputs.iter().find(|t| !same(t)) {
        panic!(
            "{id}: operands are on different devices: {:?} and {:?}",
            client,
            other.client()
        );
    }
    let created: Vec<RouterTensor> = outputs
        .into_iter()
        .map(|(shape, dtype)| {
            RouterTensor::new(client.new_tensor_id(), shape, dtype, client.clone())
        })
        .collect();
    let op = CustomOpIr {
        id: String::from(id),
        inputs: inputs.iter().map(RouterTensor::ir_use).collect(),
        outputs: created.iter().map(RouterTensor::ir_uninit).collect(),
        run: CustomRun(Some(run)),
    };
    client.register_op(OperationIr::Custom(op));
    // The inputs are dropped after the op is registered (see `ir_use`).
    drop(inputs);
    created
}
