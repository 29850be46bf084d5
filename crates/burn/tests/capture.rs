//! Graph capture through the facade: the Quick start's model recorded as a
//! graph, checked operation by operation, and every way a capture can fail.
#![cfg(all(feature = "capture", feature = "flex"))]

use burn::capture::CaptureError;
use burn::ir::{
    ActivationOperationIr, BaseOperationIr, InitOperationIr, NumericKind, NumericOperationIr,
    OperationIr, TensorIr, TensorKind, TensorStatus,
};
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::tensor::{DType, Shape};

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(784, 128).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(128, 10).init(device),
        }
    }

    fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let x = self.activation.forward(self.hidden.forward(input));
        self.output.forward(x)
    }
}

/// A compact view of one recorded operation: its name, the shapes of what
/// it reads and creates, and the status of each read.
fn describe(op: &OperationIr) -> String {
    let name = match op {
        OperationIr::Init(InitOperationIr::FromData { .. }) => "from_data".to_string(),
        OperationIr::Base(TensorKind::Float, BaseOperationIr::Reshape(_)) => "reshape".to_string(),
        OperationIr::Numeric(NumericKind::Float, NumericOperationIr::Matmul(_)) => {
            "matmul".to_string()
        }
        OperationIr::Numeric(NumericKind::Float, NumericOperationIr::Binary { op, .. }) => {
            op.name().to_string()
        }
        OperationIr::Activation(ActivationOperationIr::Relu(_)) => "relu".to_string(),
        other => format!("{other:?}"),
    };
    let tensors = op.tensors();
    let shapes = |ts: &[&TensorIr]| {
        ts.iter()
            .map(|t| format!("{:?}", t.shape.dims))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let statuses: String = tensors
        .inputs
        .iter()
        .map(|t| match t.status {
            TensorStatus::ReadOnly => 'r',
            TensorStatus::ReadWrite => 'w',
            TensorStatus::NotInit => '?',
        })
        .collect();
    format!(
        "{name} {}{statuses} -> {}",
        shapes(&tensors.inputs),
        shapes(&tensors.outputs)
    )
    .replace("  ", " ")
}

#[test]
fn the_quick_start_forward_pass_is_recorded_exactly() {
    let model = Mlp::new(&Device::flex());
    let device = Device::capture();
    let mut ids = None;
    let captured = device
        .capture_scope(|scope| {
            let model = model.clone().to_device(&device);
            let input = Tensor::<2>::zeros([32, 784], &Device::flex()).to_device(&device);
            let logits = model.forward(input.clone());
            assert_eq!(logits.dims(), [32, 10]);
            ids = Some((input.capture_id(), logits.capture_id()));
            scope.complete([input.capture_id()], [logits.capture_id()])
        })
        .unwrap();
    let (input, logits) = ids.unwrap();
    let graph = &captured.graph;
    assert_eq!(graph.inputs, [input]);
    assert_eq!(graph.outputs, [logits]);

    let described: Vec<String> = graph.operations.iter().map(describe).collect();
    let expected = [
        // The weights and biases moved onto the device, then the input.
        "from_data -> [784, 128]",
        "from_data -> [128]",
        "from_data -> [128, 10]",
        "from_data -> [10]",
        "from_data -> [32, 784]",
        // hidden: x [32, 784] · w [784, 128] + b; the input is still held
        // by the caller (read only), the sum consumes both its operands.
        "matmul [32, 784] [784, 128]rr -> [32, 128]",
        "reshape [128]r -> [1, 128]",
        "add [32, 128] [1, 128]ww -> [32, 128]",
        "relu [32, 128]w -> [32, 128]",
        // output: [32, 128] · [128, 10] + b.
        "matmul [32, 128] [128, 10]wr -> [32, 10]",
        "reshape [10]r -> [1, 10]",
        "add [32, 10] [1, 10]ww -> [32, 10]",
    ];
    assert_eq!(described, expected, "{described:#?}");

    // The weights are the constants of the graph, with their values; the
    // input is not among them.
    assert_eq!(captured.values.len(), 4);
    assert!(!captured.values.contains_key(&input));
    let hidden_weight = model.hidden.weight.val().into_data();
    let (_, recorded) = captured
        .values
        .iter()
        .find(|(_, data)| data.shape == Shape::new([784, 128]))
        .unwrap();
    assert_eq!(recorded, &hidden_weight);
    // Every output is f32, as the model.
    for op in &graph.operations {
        for out in op.tensors().outputs {
            assert_eq!(out.dtype, DType::F32);
        }
    }
}

#[test]
fn a_device_that_is_not_a_capture_device_is_refused() {
    let result = Device::flex().capture_scope(|scope| scope.complete([], []));
    assert_eq!(result.unwrap_err(), CaptureError::InvalidDevice);
}

#[test]
fn a_second_scope_on_the_same_device_is_refused_while_the_first_records() {
    let device = Device::capture();
    let inner = device
        .capture_scope(|scope| {
            let nested = device.capture_scope(|inner| inner.complete([], []));
            assert_eq!(nested.unwrap_err(), CaptureError::AlreadyActive);
            scope.complete([], [])
        })
        .unwrap();
    assert!(inner.graph.operations.is_empty());
    // The device is free again after the scope.
    assert!(device.capture_scope(|scope| scope.complete([], [])).is_ok());
}

#[test]
fn boundaries_are_checked() {
    let device = Device::capture();
    // An id of an earlier scope is unknown to a later one.
    let earlier = device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0, 2.0], &device);
            let id = x.capture_id();
            scope.complete([id], [id])
        })
        .unwrap()
        .graph
        .inputs[0];
    let err = device
        .capture_scope(|scope| {
            let _x = Tensor::<1>::from_data([1.0], &device);
            scope.complete([earlier], [])
        })
        .unwrap_err();
    assert_eq!(
        err,
        CaptureError::UnknownBoundary {
            boundary: "input",
            tensor: earlier
        }
    );

    let err = device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0], &device);
            scope.complete([x.capture_id(), x.capture_id()], [])
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            CaptureError::DuplicateBoundary {
                boundary: "input",
                ..
            }
        ),
        "{err:?}"
    );

    // A computed tensor is not an input.
    let err = device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0], &device);
            let y = x.exp();
            scope.complete([y.capture_id()], [y.capture_id()])
        })
        .unwrap_err();
    assert!(matches!(err, CaptureError::InvalidInput { .. }), "{err:?}");

    // An output consumed by a later operation cannot be handed back.
    let err = device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0], &device);
            let y = x.exp();
            let id = y.capture_id();
            let _z = y.log();
            scope.complete([], [id])
        })
        .unwrap_err();
    assert!(matches!(err, CaptureError::InvalidOutput { .. }), "{err:?}");
    assert!(err.to_string().contains("consumed"), "{err}");
}

#[test]
fn a_tensor_from_an_earlier_scope_is_an_undeclared_input() {
    let device = Device::capture();
    let mut kept = None;
    device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0, 2.0], &device);
            let id = x.capture_id();
            kept = Some(x);
            scope.complete([id], [id])
        })
        .unwrap();
    let x = kept.unwrap();
    let stale = x.capture_id();
    let err = device
        .capture_scope(|scope| {
            let y = x.exp();
            scope.complete([], [y.capture_id()])
        })
        .unwrap_err();
    assert_eq!(err, CaptureError::UndeclaredInput { tensor: stale });
}

#[test]
fn values_on_a_capture_device_cannot_be_read() {
    let device = Device::capture();
    device
        .capture_scope(|scope| {
            let x = Tensor::<1>::from_data([1.0, 2.0], &device);
            let error = x.clone().exp().try_into_data().unwrap_err();
            assert!(error.to_string().contains("capture device"), "{error}");
            scope.complete([x.capture_id()], [])
        })
        .unwrap();
}

#[test]
#[should_panic(expected = "outside a capture scope")]
fn operations_outside_a_scope_are_refused() {
    let device = Device::capture();
    let _ = Tensor::<1>::zeros([3], &device);
}

#[test]
fn an_empty_scope_records_nothing() {
    let device = Device::capture();
    let captured = device
        .capture_scope(|scope| scope.complete([], []))
        .unwrap();
    assert!(captured.graph.operations.is_empty());
    assert!(captured.values.is_empty());
}
