//! Every operation family survives serialization unchanged, in JSON and in
//! CBOR (the format burn-pack and the remote transport use), and names the
//! tensors it reads and creates.

use burn_backend::ops::vocabulary::*;
use burn_backend::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions,
    UnfoldOptions,
};
use burn_ir::*;
use burn_std::{BoolStore, DType, Distribution, Scalar, Shape, Slice};

fn t(id: u64) -> TensorIr {
    TensorIr {
        id: TensorId::new(id),
        shape: Shape::new([2, 3, 4, 5]),
        dtype: DType::F32,
        status: TensorStatus::ReadOnly,
    }
}

fn out(id: u64) -> TensorIr {
    TensorIr::uninit(TensorId::new(id), Shape::new([2, 3]), DType::F16)
}

fn s(value: f64) -> ScalarIr {
    ScalarIr::new(Scalar::Float(value), DType::F32)
}

fn unary() -> UnaryOpIr {
    UnaryOpIr {
        input: t(1),
        out: out(2),
    }
}

fn binary() -> BinaryOpIr {
    BinaryOpIr {
        lhs: t(1),
        rhs: t(2),
        out: out(3),
    }
}

fn scalar() -> ScalarOpIr {
    ScalarOpIr {
        lhs: t(1),
        rhs: s(2.5),
        out: out(2),
    }
}

fn dim() -> DimOpIr {
    DimOpIr {
        input: t(1),
        dim: 1,
        out: out(2),
    }
}

fn pool2d() -> Pool2dIr {
    Pool2dIr {
        kernel_size: [3, 2],
        stride: [2, 1],
        padding: [1, 0],
        dilation: [1, 2],
        ceil_mode: true,
    }
}

fn pool1d() -> Pool1dIr {
    Pool1dIr {
        kernel_size: 3,
        stride: 2,
        padding: 1,
        dilation: 1,
        ceil_mode: false,
    }
}

/// One operation of every variant of every family.
fn samples() -> Vec<OperationIr> {
    use OperationIr as O;
    let mut ops = vec![
        O::Init(InitOperationIr::FromData { out: out(0) }),
        O::Init(InitOperationIr::Full {
            value: ScalarIr::new(Scalar::Bool(true), DType::Bool(BoolStore::U8)),
            out: out(0),
        }),
        O::Init(InitOperationIr::Empty { out: out(0) }),
        O::Init(InitOperationIr::Random {
            distribution: Distribution::Normal(0.5, 2.0),
            out: out(0),
        }),
        O::Init(InitOperationIr::Arange {
            start: -3,
            end: 9,
            step: 2,
            out: out(0),
        }),
        O::Drop(t(7)),
    ];
    let base = vec![
        BaseOperationIr::Reshape(unary()),
        BaseOperationIr::Permute {
            input: t(1),
            axes: vec![3, 0, 2, 1],
            out: out(2),
        },
        BaseOperationIr::SwapDims {
            input: t(1),
            dim1: 0,
            dim2: 3,
            out: out(2),
        },
        BaseOperationIr::Flip {
            input: t(1),
            axes: vec![1],
            out: out(2),
        },
        BaseOperationIr::Expand(unary()),
        BaseOperationIr::Slice {
            input: t(1),
            slices: vec![Slice::new(1, Some(-1), 2), Slice::full()],
            out: out(2),
        },
        BaseOperationIr::SliceAssign {
            input: t(1),
            slices: vec![Slice::new(-2, None, -1)],
            value: t(3),
            out: out(2),
        },
        BaseOperationIr::Narrow {
            input: t(1),
            dim: 2,
            start: 1,
            length: 2,
            out: out(2),
        },
        BaseOperationIr::Cat {
            inputs: vec![t(1), t(3), t(4)],
            dim: 0,
            out: out(2),
        },
        BaseOperationIr::RepeatDim {
            input: t(1),
            dim: 1,
            times: 3,
            out: out(2),
        },
        BaseOperationIr::Gather {
            dim: 1,
            input: t(1),
            indices: t(3),
            out: out(2),
        },
        BaseOperationIr::Select {
            input: t(1),
            dim: 0,
            indices: t(3),
            out: out(2),
        },
        BaseOperationIr::MaskWhere {
            input: t(1),
            mask: t(3),
            value: t(4),
            out: out(2),
        },
    ];
    for kind in [TensorKind::Float, TensorKind::Int, TensorKind::Bool] {
        ops.extend(base.iter().cloned().map(|op| O::Base(kind, op)));
    }
    let mut numeric = vec![
        NumericOperationIr::Cast(unary()),
        NumericOperationIr::Matmul(binary()),
        NumericOperationIr::Clamp {
            input: t(1),
            min: Some(s(-1.0)),
            max: None,
            out: out(2),
        },
        NumericOperationIr::Mean(unary()),
        NumericOperationIr::MeanDim(dim()),
        NumericOperationIr::Any {
            input: t(1),
            dim: Some(2),
            out: out(2),
        },
        NumericOperationIr::All {
            input: t(1),
            dim: None,
            out: out(2),
        },
        NumericOperationIr::Sort {
            desc: dim(),
            descending: true,
        },
        NumericOperationIr::SortWithIndices {
            desc: dim(),
            descending: false,
            indices: out(3),
        },
        NumericOperationIr::Argsort {
            desc: dim(),
            descending: true,
        },
        NumericOperationIr::TopkWithIndices {
            desc: dim(),
            k: 2,
            indices: out(3),
        },
        NumericOperationIr::ScatterAdd {
            dim: 1,
            input: t(1),
            indices: t(3),
            value: t(4),
            out: out(2),
        },
        NumericOperationIr::SelectAdd {
            input: t(1),
            dim: 0,
            indices: t(3),
            value: t(4),
            out: out(2),
        },
        NumericOperationIr::MaskFill {
            input: t(1),
            mask: t(3),
            value: s(f64::NEG_INFINITY),
            out: out(2),
        },
        NumericOperationIr::Tril {
            input: t(1),
            diagonal: -1,
            out: out(2),
        },
        NumericOperationIr::Triu {
            input: t(1),
            diagonal: 2,
            out: out(2),
        },
    ];
    numeric.extend(
        BinaryOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::Binary { op, desc: binary() }),
    );
    numeric.extend(
        BinaryOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::BinaryScalar { op, desc: scalar() }),
    );
    numeric.extend(
        CmpOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::Compare { op, desc: binary() }),
    );
    numeric.extend(
        CmpOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::CompareScalar { op, desc: scalar() }),
    );
    numeric.extend(
        ReduceOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::Reduce { op, desc: unary() }),
    );
    numeric.extend(
        ReduceOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::ReduceDim { op, desc: dim() }),
    );
    numeric.extend(
        ArgReduceOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::ArgReduce { op, desc: dim() }),
    );
    numeric.extend(
        ArgReduceOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::ReduceDimWithIndices {
                op,
                desc: dim(),
                indices: out(3),
            }),
    );
    numeric.extend(
        CumOp::ALL
            .iter()
            .map(|&op| NumericOperationIr::Cumulative { op, desc: dim() }),
    );
    for kind in [NumericKind::Float, NumericKind::Int] {
        ops.extend(numeric.iter().cloned().map(|op| O::Numeric(kind, op)));
    }

    ops.extend(
        FloatUnaryOp::ALL
            .iter()
            .map(|&op| O::Float(FloatOperationIr::Unary { op, desc: unary() })),
    );
    ops.extend(
        FloatBinaryOp::ALL
            .iter()
            .map(|&op| O::Float(FloatOperationIr::Binary { op, desc: binary() })),
    );
    ops.extend([
        O::Float(FloatOperationIr::IntoInt(unary())),
        O::Float(FloatOperationIr::PowInt(binary())),
        O::Float(FloatOperationIr::PowIntScalar(scalar())),
        O::Float(FloatOperationIr::IsNan(unary())),
        O::Float(FloatOperationIr::IsInf(unary())),
        O::Float(FloatOperationIr::MaxAbs(unary())),
    ]);
    ops.extend(
        IntUnaryOp::ALL
            .iter()
            .map(|&op| O::Int(IntOperationIr::Unary { op, desc: unary() })),
    );
    ops.extend(
        BitwiseOp::ALL
            .iter()
            .map(|&op| O::Int(IntOperationIr::Bitwise { op, desc: binary() })),
    );
    ops.extend(
        BitwiseOp::ALL
            .iter()
            .map(|&op| O::Int(IntOperationIr::BitwiseScalar { op, desc: scalar() })),
    );
    ops.extend([
        O::Int(IntOperationIr::IntoFloat(unary())),
        O::Int(IntOperationIr::PowFloat(binary())),
        O::Int(IntOperationIr::PowFloatScalar(scalar())),
    ]);
    ops.extend(
        BoolOp::ALL
            .iter()
            .map(|&op| O::Bool(BoolOperationIr::Binary { op, desc: binary() })),
    );
    ops.extend([
        O::Bool(BoolOperationIr::Not(unary())),
        O::Bool(BoolOperationIr::IntoInt(unary())),
        O::Bool(BoolOperationIr::IntoFloat(unary())),
        O::Bool(BoolOperationIr::Any {
            input: t(1),
            dim: None,
            out: out(2),
        }),
        O::Bool(BoolOperationIr::All {
            input: t(1),
            dim: Some(0),
            out: out(2),
        }),
    ]);

    let conv = |n| (ConvOptions::new([2; 3], [1; 3], [1; 3], 2), n);
    let (options3, _) = conv(3);
    let options2 = ConvOptions::new([2, 1], [0, 1], [1, 2], 1);
    let options1 = ConvOptions::new([3], [2], [1], 4);
    let transpose3 = ConvTransposeOptions::new([2; 3], [1; 3], [1; 3], [1; 3], 2);
    use ModuleOperationIr as M;
    ops.extend(
        [
            M::Embedding {
                weights: t(1),
                indices: t(3),
                out: out(2),
            },
            M::EmbeddingBackward {
                weights: t(1),
                output_grad: t(3),
                indices: t(4),
                out: out(2),
            },
            M::Conv1d(ConvIr {
                x: t(1),
                weight: t(3),
                bias: Some(t(4)),
                options: options1,
                out: out(2),
            }),
            M::Conv2d(ConvIr {
                x: t(1),
                weight: t(3),
                bias: None,
                options: options2,
                out: out(2),
            }),
            M::Conv3d(ConvIr {
                x: t(1),
                weight: t(3),
                bias: Some(t(4)),
                options: options3,
                out: out(2),
            }),
            M::Conv3dWeightBackward {
                x: t(1),
                output_grad: t(3),
                options: options3,
                out: out(2),
            },
            M::ConvTranspose1d(ConvTransposeIr {
                x: t(1),
                weight: t(3),
                bias: None,
                options: ConvTransposeOptions::new([2], [0], [1], [1], 1),
                out: out(2),
            }),
            M::ConvTranspose2d(ConvTransposeIr {
                x: t(1),
                weight: t(3),
                bias: Some(t(4)),
                options: ConvTransposeOptions::new([1, 2], [0, 1], [0, 1], [1, 1], 3),
                out: out(2),
            }),
            M::ConvTranspose3d(ConvTransposeIr {
                x: t(1),
                weight: t(3),
                bias: None,
                options: transpose3,
                out: out(2),
            }),
            M::Unfold4d {
                x: t(1),
                kernel_size: [2, 3],
                options: UnfoldOptions::new([1, 2], [0, 1], [2, 1]),
                out: out(2),
            },
            M::MaxPool1d {
                x: t(1),
                pool: pool1d(),
                out: out(2),
            },
            M::MaxPool1dWithIndices {
                x: t(1),
                pool: pool1d(),
                out: out(2),
                indices: out(3),
            },
            M::MaxPool2d {
                x: t(1),
                pool: pool2d(),
                out: out(2),
            },
            M::MaxPool2dWithIndices {
                x: t(1),
                pool: pool2d(),
                out: out(2),
                indices: out(3),
            },
            M::MaxPool2dWithIndicesBackward {
                x: t(1),
                pool: pool2d(),
                output_grad: t(3),
                indices: t(4),
                out: out(2),
            },
            M::AvgPool1d {
                x: t(1),
                pool: pool1d(),
                count_include_pad: true,
                out: out(2),
            },
            M::AvgPool2d {
                x: t(1),
                pool: pool2d(),
                count_include_pad: false,
                out: out(2),
            },
            M::AvgPool2dBackward {
                x: t(1),
                grad: t(3),
                pool: pool2d(),
                count_include_pad: true,
                out: out(2),
            },
            M::AdaptiveAvgPool1d(unary()),
            M::AdaptiveAvgPool2d(unary()),
            M::AdaptiveAvgPool2dBackward {
                x: t(1),
                grad: t(3),
                out: out(2),
            },
            M::Interpolate {
                x: t(1),
                options: InterpolateOptions::new(InterpolateMode::Bicubic).with_align_corners(true),
                out: out(2),
            },
            M::InterpolateBackward {
                x: t(1),
                grad: t(3),
                options: InterpolateOptions::new(InterpolateMode::Nearest),
                out: out(2),
            },
            M::Attention {
                query: t(1),
                key: t(3),
                value: t(4),
                mask: Some(t(5)),
                options: AttentionOptions {
                    scale: Some(0.125),
                    is_causal: true,
                },
                out: out(2),
            },
        ]
        .map(O::Module),
    );
    use ActivationOperationIr as A;
    ops.extend(
        [
            A::Relu(unary()),
            A::ReluBackward(binary()),
            A::LeakyRelu(scalar()),
            A::Gelu(unary()),
            A::GeluBackward(binary()),
            A::Sigmoid(unary()),
            A::SigmoidBackward(binary()),
            A::HardSigmoid {
                input: t(1),
                alpha: s(0.2),
                beta: s(0.5),
                out: out(2),
            },
            A::LogSigmoid(unary()),
            A::LogSigmoidBackward(binary()),
            A::Silu(unary()),
            A::Softmax(dim()),
            A::LogSoftmax(dim()),
        ]
        .map(O::Activation),
    );
    ops
}

/// Whether the operation carries a non-finite scalar, which JSON has no
/// number for (serde_json writes `null`, and reading it back fails loudly).
fn has_non_finite(op: &OperationIr) -> bool {
    let json = format!("{op:?}");
    json.contains("inf") || json.contains("NaN")
}

#[test]
fn every_family_round_trips_through_json() {
    for op in samples().into_iter().filter(|op| !has_non_finite(op)) {
        let json = serde_json::to_string(&op).unwrap();
        let back: OperationIr = serde_json::from_str(&json).unwrap();
        assert_eq!(back, op, "{json}");
    }
}

#[test]
fn every_family_round_trips_through_cbor() {
    for op in samples() {
        let mut bytes = Vec::new();
        ciborium::into_writer(&op, &mut bytes).unwrap();
        let back: OperationIr = ciborium::from_reader(bytes.as_slice()).unwrap();
        assert_eq!(back, op);
    }
}

#[test]
fn non_finite_scalars_round_trip_through_cbor() {
    for value in [f64::NEG_INFINITY, f64::INFINITY, f64::NAN] {
        let op = OperationIr::Numeric(
            NumericKind::Float,
            NumericOperationIr::MaskFill {
                input: t(1),
                mask: t(3),
                value: s(value),
                out: out(2),
            },
        );
        let mut bytes = Vec::new();
        ciborium::into_writer(&op, &mut bytes).unwrap();
        let back: OperationIr = ciborium::from_reader(bytes.as_slice()).unwrap();
        let OperationIr::Numeric(_, NumericOperationIr::MaskFill { value: back, .. }) = back else {
            panic!("the variant changed");
        };
        assert_eq!(back.value.to_f64().to_bits(), value.to_bits());
    }
    assert!(
        samples().iter().any(has_non_finite),
        "a sample carries -inf"
    );
}

#[test]
fn a_graph_round_trips() {
    let graph = GraphIr {
        operations: samples()
            .into_iter()
            .filter(|op| !has_non_finite(op))
            .collect(),
        inputs: vec![TensorId::new(1)],
        outputs: vec![TensorId::new(2), TensorId::new(3)],
    };
    let json = serde_json::to_string(&graph).unwrap();
    assert_eq!(serde_json::from_str::<GraphIr>(&json).unwrap(), graph);
}

#[test]
fn operations_name_what_they_read_and_create() {
    for op in samples() {
        let tensors = op.tensors();
        // Every sample creates its outputs with fresh (NotInit) tensors and
        // reads existing ones, except a drop, which only reads.
        for output in &tensors.outputs {
            assert_eq!(output.status, TensorStatus::NotInit, "{op:?}");
        }
        for input in &tensors.inputs {
            assert_ne!(input.status, TensorStatus::NotInit, "{op:?}");
        }
        match &op {
            OperationIr::Drop(_) => assert!(tensors.outputs.is_empty()),
            _ => assert!(!tensors.outputs.is_empty(), "{op:?} creates nothing"),
        }
    }
    let conv = OperationIr::Module(ModuleOperationIr::Conv2d(ConvIr {
        x: t(1),
        weight: t(3),
        bias: Some(t(4)),
        options: ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        out: out(2),
    }));
    let ids = |ts: Vec<&TensorIr>| ts.iter().map(|t| t.id.value()).collect::<Vec<_>>();
    assert_eq!(ids(conv.tensors().inputs), [1, 3, 4]);
    assert_eq!(ids(conv.tensors().outputs), [2]);
    let sort = OperationIr::Numeric(
        NumericKind::Int,
        NumericOperationIr::SortWithIndices {
            desc: dim(),
            descending: false,
            indices: out(3),
        },
    );
    assert_eq!(ids(sort.tensors().outputs), [2, 3]);
}

#[test]
fn conv_options_reject_a_wrong_rank() {
    // A 2-d convolution's arrays hold exactly two values: a serialized 3-d
    // one must not be read as one.
    let json = serde_json::to_string(&ConvOptions::new([1; 3], [0; 3], [1; 3], 1)).unwrap();
    assert!(serde_json::from_str::<ConvOptions<2>>(&json).is_err());
    assert!(serde_json::from_str::<ConvOptions<3>>(&json).is_ok());
}

#[test]
fn the_mutable_visitors_see_what_the_shared_ones_see() {
    for mut op in samples() {
        let (inputs, outputs) = {
            let t = op.tensors();
            (
                t.inputs.iter().map(|t| t.id).collect::<Vec<_>>(),
                t.outputs.iter().map(|t| t.id).collect::<Vec<_>>(),
            )
        };
        let t = op.tensors_mut();
        assert_eq!(
            t.inputs.iter().map(|t| t.id).collect::<Vec<_>>(),
            inputs,
            "{op:?}"
        );
        assert_eq!(t.outputs.iter().map(|t| t.id).collect::<Vec<_>>(), outputs);
        // Renumbering through the mutable view changes the ids the shared one reports.
        for t in op.tensors_mut().inputs {
            t.id = TensorId::new(t.id.value() + 100);
        }
        assert!(op.tensors().inputs.iter().all(|t| t.id.value() >= 100));
    }
}

#[test]
fn scalar_arguments_are_listed() {
    let with = |op: &mut OperationIr| op.scalars_mut().len();
    let mut mask_fill = OperationIr::Numeric(
        NumericKind::Float,
        NumericOperationIr::MaskFill {
            input: t(1),
            mask: t(3),
            value: s(2.0),
            out: out(2),
        },
    );
    assert_eq!(with(&mut mask_fill), 1);
    let mut clamp = OperationIr::Numeric(
        NumericKind::Int,
        NumericOperationIr::Clamp {
            input: t(1),
            min: Some(s(0.0)),
            max: Some(s(1.0)),
            out: out(2),
        },
    );
    assert_eq!(with(&mut clamp), 2);
    let mut add = OperationIr::Numeric(
        NumericKind::Float,
        NumericOperationIr::Binary {
            op: BinaryOp::Add,
            desc: binary(),
        },
    );
    assert_eq!(with(&mut add), 0);
    // Every scalar operand of the samples is reachable (ScalarOpIr, Full, clamp bounds, …).
    let total: usize = samples().iter_mut().map(|op| op.scalars_mut().len()).sum();
    assert!(total > 20, "{total}");
}
