//! Ops float and int tensors share, recorded once with their kind.

use burn_backend::ops::vocabulary::{ArgReduceOp, BinaryOp, CmpOp, CumOp, ReduceOp};
use burn_backend::{TensorMetadata, check};
use burn_ir::{DimOpIr, NumericKind, NumericOperationIr, OperationIr};
use burn_std::{DType, Scalar, Shape};

use super::{
    Recorder, binary, binary_to, dim_to, scalar, scalar_ir, scalar_shape, unary, unary_to, with_dim,
};
use crate::RouterTensor;

fn numeric(kind: NumericKind, op: NumericOperationIr) -> OperationIr {
    OperationIr::Numeric(kind, op)
}

/// Element-wise arithmetic with broadcasting.
#[track_caller]
pub(crate) fn binary_op(
    kind: NumericKind,
    op: BinaryOp,
    lhs: RouterTensor,
    rhs: RouterTensor,
) -> RouterTensor {
    let dtype = lhs.dtype();
    binary(op.name(), lhs, rhs, dtype, |desc| {
        numeric(kind, NumericOperationIr::Binary { op, desc })
    })
}

/// Element-wise arithmetic with a scalar.
pub(crate) fn binary_scalar(
    kind: NumericKind,
    op: BinaryOp,
    lhs: RouterTensor,
    rhs: Scalar,
) -> RouterTensor {
    let dtype = lhs.dtype();
    scalar(op.name(), lhs, rhs, dtype, |desc| {
        numeric(kind, NumericOperationIr::BinaryScalar { op, desc })
    })
}

/// Element-wise comparison with broadcasting.
#[track_caller]
pub(crate) fn compare(
    kind: NumericKind,
    op: CmpOp,
    lhs: RouterTensor,
    rhs: RouterTensor,
) -> RouterTensor {
    let dtype = lhs.client().bool_dtype();
    binary(op.name(), lhs, rhs, dtype, |desc| {
        numeric(kind, NumericOperationIr::Compare { op, desc })
    })
}

/// Element-wise comparison with a scalar.
pub(crate) fn compare_scalar(
    kind: NumericKind,
    op: CmpOp,
    lhs: RouterTensor,
    rhs: Scalar,
) -> RouterTensor {
    let dtype = lhs.client().bool_dtype();
    scalar(op.name(), lhs, rhs, dtype, |desc| {
        numeric(kind, NumericOperationIr::CompareScalar { op, desc })
    })
}

/// Conversion to `dtype`, of the same kind.
pub(crate) fn cast(kind: NumericKind, tensor: RouterTensor, dtype: DType) -> RouterTensor {
    unary("cast", tensor, dtype, |desc| {
        numeric(kind, NumericOperationIr::Cast(desc))
    })
}

/// Matrix product over the last two dims, batch dims broadcast.
#[track_caller]
pub(crate) fn matmul(kind: NumericKind, lhs: RouterTensor, rhs: RouterTensor) -> RouterTensor {
    let shape = check::matmul("matmul", &lhs.shape(), &rhs.shape());
    let dtype = lhs.dtype();
    binary_to("matmul", lhs, rhs, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::Matmul(desc))
    })
}

/// Values clamped to the bounds given.
pub(crate) fn clamp(
    kind: NumericKind,
    tensor: RouterTensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> RouterTensor {
    let mut rec = Recorder::new("clamp", &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let min = min.map(|value| scalar_ir(value, &tensor));
    let max = max.map(|value| scalar_ir(value, &tensor));
    let op = NumericOperationIr::Clamp {
        input: rec.input(tensor),
        min,
        max,
        out: out.ir_uninit(),
    };
    rec.register(numeric(kind, op));
    out
}

/// A reduction of the whole tensor.
pub(crate) fn reduce(kind: NumericKind, op: ReduceOp, tensor: RouterTensor) -> RouterTensor {
    let dtype = tensor.dtype();
    unary_to(op.name(), tensor, scalar_shape(), dtype, |desc| {
        numeric(kind, NumericOperationIr::Reduce { op, desc })
    })
}

/// A reduction along `dim`, kept with size 1.
#[track_caller]
pub(crate) fn reduce_dim(
    kind: NumericKind,
    op: ReduceOp,
    tensor: RouterTensor,
    dim: usize,
) -> RouterTensor {
    let shape = with_dim(op.name(), &tensor.shape(), dim, 1);
    let dtype = tensor.dtype();
    dim_to(op.name(), tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::ReduceDim { op, desc })
    })
}

/// The mean of the whole tensor.
pub(crate) fn mean(kind: NumericKind, tensor: RouterTensor) -> RouterTensor {
    let dtype = tensor.dtype();
    unary_to("mean", tensor, scalar_shape(), dtype, |desc| {
        numeric(kind, NumericOperationIr::Mean(desc))
    })
}

/// The mean along `dim`.
#[track_caller]
pub(crate) fn mean_dim(kind: NumericKind, tensor: RouterTensor, dim: usize) -> RouterTensor {
    let shape = with_dim("mean_dim", &tensor.shape(), dim, 1);
    let dtype = tensor.dtype();
    dim_to("mean_dim", tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::MeanDim(desc))
    })
}

/// The index of the extreme along `dim`.
#[track_caller]
pub(crate) fn arg_reduce(
    kind: NumericKind,
    op: ArgReduceOp,
    tensor: RouterTensor,
    dim: usize,
) -> RouterTensor {
    let shape = with_dim(op.name(), &tensor.shape(), dim, 1);
    let dtype = tensor.client().index_dtype();
    dim_to(op.name(), tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::ArgReduce { op, desc })
    })
}

/// Values and indices of a dim-wise op: values of `shape` in the input's
/// dtype, indices of `shape` in the executor's index dtype.
fn with_indices(
    name: &'static str,
    tensor: RouterTensor,
    dim: usize,
    shape: Shape,
    make: impl FnOnce(DimOpIr, burn_ir::TensorIr) -> NumericOperationIr,
    kind: NumericKind,
) -> (RouterTensor, RouterTensor) {
    let mut rec = Recorder::new(name, &tensor);
    let values = rec.output(shape.clone(), tensor.dtype());
    let indices = rec.output(shape, tensor.client().index_dtype());
    let desc = DimOpIr {
        input: rec.input(tensor),
        dim,
        out: values.ir_uninit(),
    };
    let op = make(desc, indices.ir_uninit());
    rec.register(numeric(kind, op));
    (values, indices)
}

/// The extreme along `dim` and its index.
#[track_caller]
pub(crate) fn reduce_dim_with_indices(
    kind: NumericKind,
    op: ArgReduceOp,
    tensor: RouterTensor,
    dim: usize,
) -> (RouterTensor, RouterTensor) {
    let shape = with_dim(op.name(), &tensor.shape(), dim, 1);
    with_indices(
        op.name(),
        tensor,
        dim,
        shape,
        |desc, indices| NumericOperationIr::ReduceDimWithIndices { op, desc, indices },
        kind,
    )
}

/// Whether any (`all == false`) or every element, along `dim` or of the
/// whole tensor, is non-zero.
#[track_caller]
pub(crate) fn any_all(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: Option<usize>,
    all: bool,
) -> RouterTensor {
    let name = if all { "all" } else { "any" };
    let shape = match dim {
        Some(dim) => with_dim(name, &tensor.shape(), dim, 1),
        None => scalar_shape(),
    };
    let mut rec = Recorder::new(name, &tensor);
    let out = rec.output(shape, tensor.client().bool_dtype());
    let input = rec.input(tensor);
    let out_ir = out.ir_uninit();
    let op = if all {
        NumericOperationIr::All {
            input,
            dim,
            out: out_ir,
        }
    } else {
        NumericOperationIr::Any {
            input,
            dim,
            out: out_ir,
        }
    };
    rec.register(numeric(kind, op));
    out
}

/// A running scan along `dim`.
#[track_caller]
pub(crate) fn cumulative(
    kind: NumericKind,
    op: CumOp,
    tensor: RouterTensor,
    dim: usize,
) -> RouterTensor {
    check::dim(op.name(), dim, &tensor.shape());
    let (shape, dtype) = (tensor.shape(), tensor.dtype());
    dim_to(op.name(), tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::Cumulative { op, desc })
    })
}

/// Sorted along `dim`.
#[track_caller]
pub(crate) fn sort(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: usize,
    descending: bool,
) -> RouterTensor {
    check::dim("sort", dim, &tensor.shape());
    let (shape, dtype) = (tensor.shape(), tensor.dtype());
    dim_to("sort", tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::Sort { desc, descending })
    })
}

/// Sorted along `dim`, with the indices the values came from.
#[track_caller]
pub(crate) fn sort_with_indices(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: usize,
    descending: bool,
) -> (RouterTensor, RouterTensor) {
    check::dim("sort_with_indices", dim, &tensor.shape());
    let shape = tensor.shape();
    with_indices(
        "sort_with_indices",
        tensor,
        dim,
        shape,
        |desc, indices| NumericOperationIr::SortWithIndices {
            desc,
            descending,
            indices,
        },
        kind,
    )
}

/// The indices that sort `dim`.
#[track_caller]
pub(crate) fn argsort(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: usize,
    descending: bool,
) -> RouterTensor {
    check::dim("argsort", dim, &tensor.shape());
    let shape = tensor.shape();
    let dtype = tensor.client().index_dtype();
    dim_to("argsort", tensor, dim, shape, dtype, |desc| {
        numeric(kind, NumericOperationIr::Argsort { desc, descending })
    })
}

/// The `k` largest along `dim` with their indices.
#[track_caller]
pub(crate) fn topk_with_indices(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: usize,
    k: usize,
) -> (RouterTensor, RouterTensor) {
    let input_shape = tensor.shape();
    check::dim("topk", dim, &input_shape);
    if k > input_shape.dims[dim] {
        panic!(
            "topk: k = {k} is larger than dim {dim} of shape {input_shape} ({})",
            input_shape.dims[dim]
        );
    }
    let shape = with_dim("topk", &input_shape, dim, k);
    with_indices(
        "topk",
        tensor,
        dim,
        shape,
        |desc, indices| NumericOperationIr::TopkWithIndices { desc, k, indices },
        kind,
    )
}

/// `tensor[..indices[..i..]..] += value[..i..]` along `dim`.
pub(crate) fn scatter_add(
    kind: NumericKind,
    dim: usize,
    tensor: RouterTensor,
    indices: RouterTensor,
    value: RouterTensor,
) -> RouterTensor {
    let mut rec = Recorder::new("scatter_add", &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let op = NumericOperationIr::ScatterAdd {
        dim,
        input: rec.input(tensor),
        indices: rec.input(indices),
        value: rec.input(value),
        out: out.ir_uninit(),
    };
    rec.register(numeric(kind, op));
    out
}

/// `value`'s slices added into the slices of `dim` that `indices` names.
pub(crate) fn select_add(
    kind: NumericKind,
    tensor: RouterTensor,
    dim: usize,
    indices: RouterTensor,
    value: RouterTensor,
) -> RouterTensor {
    let mut rec = Recorder::new("select_add", &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let op = NumericOperationIr::SelectAdd {
        input: rec.input(tensor),
        dim,
        indices: rec.input(indices),
        value: rec.input(value),
        out: out.ir_uninit(),
    };
    rec.register(numeric(kind, op));
    out
}

/// `value` where `mask` is true, `tensor` elsewhere.
#[track_caller]
pub(crate) fn mask_fill(
    kind: NumericKind,
    tensor: RouterTensor,
    mask: RouterTensor,
    value: Scalar,
) -> RouterTensor {
    let shape = check::broadcast("mask_fill", &tensor.shape(), &mask.shape());
    let mut rec = Recorder::new("mask_fill", &tensor);
    let out = rec.output(shape, tensor.dtype());
    let value = scalar_ir(value, &tensor);
    let op = NumericOperationIr::MaskFill {
        input: rec.input(tensor),
        mask: rec.input(mask),
        value,
        out: out.ir_uninit(),
    };
    rec.register(numeric(kind, op));
    out
}

/// Keeps one triangle of the last two dims (`upper`: on and above the
/// diagonal), zeros the rest.
#[track_caller]
pub(crate) fn triangle(
    kind: NumericKind,
    tensor: RouterTensor,
    diagonal: i64,
    upper: bool,
) -> RouterTensor {
    let name = if upper { "triu" } else { "tril" };
    if tensor.shape().num_dims() < 2 {
        panic!(
            "{name}: expected at least 2 dims, got shape {}",
            tensor.shape()
        );
    }
    let mut rec = Recorder::new(name, &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let input = rec.input(tensor);
    let out_ir = out.ir_uninit();
    let op = if upper {
        NumericOperationIr::Triu {
            input,
            diagonal,
            out: out_ir,
        }
    } else {
        NumericOperationIr::Tril {
            input,
            diagonal,
            out: out_ir,
        }
    };
    rec.register(numeric(kind, op));
    out
}
