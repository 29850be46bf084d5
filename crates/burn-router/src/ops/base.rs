//! Layout, indexing and creation ops, shared by every tensor kind.

use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::{TensorMetadata, check};
use burn_ir::{BaseOperationIr, InitOperationIr, OperationIr, TensorIr, TensorKind};
use burn_std::{DType, Distribution, Scalar, Shape, Slice, TensorData};

use super::{Recorder, unary_to, with_dim};
use crate::{RouterTensor, RunnerClient};

fn base(kind: TensorKind, op: BaseOperationIr) -> OperationIr {
    OperationIr::Base(kind, op)
}

// ------------------------------------------------------------------ creation

/// A tensor holding `data`, created on `client`.
pub(crate) fn from_data(client: Arc<dyn RunnerClient>, data: TensorData) -> RouterTensor {
    let out = RouterTensor::new(
        client.new_tensor_id(),
        data.shape.clone(),
        data.dtype,
        client.clone(),
    );
    client.register_tensor(out.ir_uninit(), data);
    out
}

fn init(
    name: &'static str,
    client: Arc<dyn RunnerClient>,
    shape: Shape,
    dtype: DType,
    make: impl FnOnce(TensorIr) -> InitOperationIr,
) -> RouterTensor {
    let rec = Recorder::on(name, client);
    let out = rec.output(shape, dtype);
    let op = make(out.ir_uninit());
    rec.register(OperationIr::Init(op));
    out
}

/// Every element `value`.
pub(crate) fn full(
    client: Arc<dyn RunnerClient>,
    shape: Shape,
    value: Scalar,
    dtype: DType,
) -> RouterTensor {
    let value = burn_ir::ScalarIr::new(value, dtype);
    init("full", client, shape, dtype, |out| InitOperationIr::Full {
        value,
        out,
    })
}

/// Unspecified contents.
pub(crate) fn empty(client: Arc<dyn RunnerClient>, shape: Shape, dtype: DType) -> RouterTensor {
    init("empty", client, shape, dtype, |out| {
        InitOperationIr::Empty { out }
    })
}

/// Drawn from `distribution`.
pub(crate) fn random(
    client: Arc<dyn RunnerClient>,
    shape: Shape,
    distribution: Distribution,
    dtype: DType,
) -> RouterTensor {
    init("random", client, shape, dtype, |out| {
        InitOperationIr::Random { distribution, out }
    })
}

/// `start, start + step, …` below `end`.
#[track_caller]
pub(crate) fn arange(
    client: Arc<dyn RunnerClient>,
    start: i64,
    end: i64,
    step: usize,
    dtype: DType,
) -> RouterTensor {
    if step == 0 {
        panic!("arange: the step must be positive");
    }
    let len = if end > start {
        // The span fits in u64 even when it does not fit in i64.
        (end as i128 - start as i128) as u64 as usize
    } else {
        0
    };
    let len = len.div_ceil(step);
    init("arange", client, Shape::new([len]), dtype, |out| {
        InitOperationIr::Arange {
            start,
            end,
            step,
            out,
        }
    })
}

// -------------------------------------------------------------------- layout

/// Same elements, `shape`.
#[track_caller]
pub(crate) fn reshape(kind: TensorKind, tensor: RouterTensor, shape: Shape) -> RouterTensor {
    check::reshape("reshape", &tensor.shape(), &shape);
    let dtype = tensor.dtype();
    unary_to("reshape", tensor, shape, dtype, |desc| {
        base(kind, BaseOperationIr::Reshape(desc))
    })
}

/// Output dim `i` is input dim `axes[i]`.
#[track_caller]
pub(crate) fn permute(kind: TensorKind, tensor: RouterTensor, axes: &[usize]) -> RouterTensor {
    let input_shape = tensor.shape();
    check::permute("permute", &input_shape, axes);
    let shape = Shape::from(
        axes.iter()
            .map(|&a| input_shape.dims[a])
            .collect::<Vec<_>>(),
    );
    let mut rec = Recorder::new("permute", &tensor);
    let out = rec.output(shape, tensor.dtype());
    let op = BaseOperationIr::Permute {
        input: rec.input(tensor),
        axes: axes.to_vec(),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Two dims exchanged.
#[track_caller]
pub(crate) fn swap_dims(
    kind: TensorKind,
    tensor: RouterTensor,
    dim1: usize,
    dim2: usize,
) -> RouterTensor {
    let mut dims = tensor.shape().dims;
    check::dim("swap_dims", dim1, &tensor.shape());
    check::dim("swap_dims", dim2, &tensor.shape());
    dims.swap(dim1, dim2);
    let mut rec = Recorder::new("swap_dims", &tensor);
    let out = rec.output(Shape::from(dims), tensor.dtype());
    let op = BaseOperationIr::SwapDims {
        input: rec.input(tensor),
        dim1,
        dim2,
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Element order reversed along `axes`.
#[track_caller]
pub(crate) fn flip(kind: TensorKind, tensor: RouterTensor, axes: &[usize]) -> RouterTensor {
    for &axis in axes {
        check::dim("flip", axis, &tensor.shape());
    }
    let mut rec = Recorder::new("flip", &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let op = BaseOperationIr::Flip {
        input: rec.input(tensor),
        axes: axes.to_vec(),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Broadcast to `shape`.
#[track_caller]
pub(crate) fn expand(kind: TensorKind, tensor: RouterTensor, shape: Shape) -> RouterTensor {
    check::expand("expand", &tensor.shape(), &shape);
    let dtype = tensor.dtype();
    unary_to("expand", tensor, shape, dtype, |desc| {
        base(kind, BaseOperationIr::Expand(desc))
    })
}

/// A sub-tensor.
#[track_caller]
pub(crate) fn slice(kind: TensorKind, tensor: RouterTensor, slices: &[Slice]) -> RouterTensor {
    let ranges = check::slices("slice", &tensor.shape(), slices);
    let shape = check::sliced_shape(&ranges);
    let mut rec = Recorder::new("slice", &tensor);
    let out = rec.output(shape, tensor.dtype());
    let op = BaseOperationIr::Slice {
        input: rec.input(tensor),
        slices: slices.to_vec(),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// `value` written into the region `slices` selects.
#[track_caller]
pub(crate) fn slice_assign(
    kind: TensorKind,
    tensor: RouterTensor,
    slices: &[Slice],
    value: RouterTensor,
) -> RouterTensor {
    check::slices("slice_assign", &tensor.shape(), slices);
    let mut rec = Recorder::new("slice_assign", &tensor);
    let out = rec.output(tensor.shape(), tensor.dtype());
    let op = BaseOperationIr::SliceAssign {
        input: rec.input(tensor),
        slices: slices.to_vec(),
        value: rec.input(value),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// `length` elements of `dim` from `start`.
#[track_caller]
pub(crate) fn narrow(
    kind: TensorKind,
    tensor: RouterTensor,
    dim: usize,
    start: usize,
    length: usize,
) -> RouterTensor {
    let shape = tensor.shape();
    check::dim("narrow", dim, &shape);
    if start
        .checked_add(length)
        .is_none_or(|end| end > shape.dims[dim])
    {
        panic!("narrow: {start}..{start}+{length} is out of range for dim {dim} of shape {shape}");
    }
    let mut rec = Recorder::new("narrow", &tensor);
    let out = rec.output(with_dim("narrow", &shape, dim, length), tensor.dtype());
    let op = BaseOperationIr::Narrow {
        input: rec.input(tensor),
        dim,
        start,
        length,
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Concatenation along `dim`.
#[track_caller]
pub(crate) fn cat(kind: TensorKind, tensors: Vec<RouterTensor>, dim: usize) -> RouterTensor {
    let shapes: Vec<Shape> = tensors.iter().map(|t| t.shape()).collect();
    let shape = check::cat("cat", &shapes, dim);
    let first = &tensors[0];
    let mut rec = Recorder::new("cat", first);
    let out = rec.output(shape, first.dtype());
    let inputs = tensors.into_iter().map(|t| rec.input(t)).collect();
    let op = BaseOperationIr::Cat {
        inputs,
        dim,
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// The whole tensor repeated `times` along `dim`.
#[track_caller]
pub(crate) fn repeat_dim(
    kind: TensorKind,
    tensor: RouterTensor,
    dim: usize,
    times: usize,
) -> RouterTensor {
    let shape = tensor.shape();
    check::dim("repeat_dim", dim, &shape);
    let size = shape.dims[dim].checked_mul(times).unwrap_or_else(|| {
        panic!("repeat_dim: {times} copies of dim {dim} of shape {shape} overflow")
    });
    let mut rec = Recorder::new("repeat_dim", &tensor);
    let out = rec.output(with_dim("repeat_dim", &shape, dim, size), tensor.dtype());
    let op = BaseOperationIr::RepeatDim {
        input: rec.input(tensor),
        dim,
        times,
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

// ------------------------------------------------------------------ indexing

/// `out[..i..] = tensor[..indices[..i..]..]` along `dim`.
#[track_caller]
pub(crate) fn gather(
    kind: TensorKind,
    dim: usize,
    tensor: RouterTensor,
    indices: RouterTensor,
) -> RouterTensor {
    check::gather("gather", dim, &tensor.shape(), &indices.shape());
    let mut rec = Recorder::new("gather", &tensor);
    let out = rec.output(indices.shape(), tensor.dtype());
    let op = BaseOperationIr::Gather {
        dim,
        input: rec.input(tensor),
        indices: rec.input(indices),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Whole slices of `dim` picked by a 1-d index tensor.
#[track_caller]
pub(crate) fn select(
    kind: TensorKind,
    tensor: RouterTensor,
    dim: usize,
    indices: RouterTensor,
) -> RouterTensor {
    let index_shape = indices.shape();
    if index_shape.num_dims() != 1 {
        panic!("select: indices must be 1-d, got shape {index_shape}");
    }
    let shape = with_dim("select", &tensor.shape(), dim, index_shape.dims[0]);
    let mut rec = Recorder::new("select", &tensor);
    let out = rec.output(shape, tensor.dtype());
    let op = BaseOperationIr::Select {
        input: rec.input(tensor),
        dim,
        indices: rec.input(indices),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// `value` where `mask` is true, `tensor` elsewhere; all three broadcast.
#[track_caller]
pub(crate) fn mask_where(
    kind: TensorKind,
    tensor: RouterTensor,
    mask: RouterTensor,
    value: RouterTensor,
) -> RouterTensor {
    let shape = check::broadcast("mask_where", &tensor.shape(), &mask.shape());
    let shape = check::broadcast("mask_where", &shape, &value.shape());
    let mut rec = Recorder::new("mask_where", &tensor);
    let out = rec.output(shape, tensor.dtype());
    let op = BaseOperationIr::MaskWhere {
        input: rec.input(tensor),
        mask: rec.input(mask),
        value: rec.input(value),
        out: out.ir_uninit(),
    };
    rec.register(base(kind, op));
    out
}

/// Reads one use of the tensor back through its client.
pub(crate) fn into_data(tensor: RouterTensor) -> Result<TensorData, burn_backend::ExecutionError> {
    let client = tensor.client().clone();
    let ir = tensor.ir_use();
    let data = client.read_tensor(ir);
    drop(tensor);
    data
}

/// The tensor on the client of another device: itself when that is its own
/// client, else its data read back and created there.
#[track_caller]
pub(crate) fn to_client(
    name: &'static str,
    tensor: RouterTensor,
    client: Arc<dyn RunnerClient>,
) -> RouterTensor {
    if Arc::ptr_eq(tensor.client(), &client) {
        return tensor;
    }
    let source = tensor.client().clone();
    let data = into_data(tensor).unwrap_or_else(|error| {
        panic!("{name}: reading the tensor back from {source:?} failed: {error}")
    });
    from_data(client, data)
}
