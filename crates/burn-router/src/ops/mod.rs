//! The router's ops: each trait method records one [`OperationIr`] and
//! returns handles to its outputs.
//!
//! The trait impls (one file per trait, as in every layer crate) are one
//! line a method; the work is in the non-generic functions of this module
//! and of [`base`] and [`numeric`], compiled once whatever the channel:
//! compute the output shapes and dtypes (the recording side must know them,
//! since a recorder such as graph capture executes nothing), build the IR,
//! hand it to the client.

pub(crate) mod activation;
pub(crate) mod base;
pub(crate) mod bool;
pub(crate) mod float;
pub(crate) mod int;
pub(crate) mod module;
pub(crate) mod numeric;
pub(crate) mod qtensor;
pub(crate) mod transaction;

use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_ir::{BinaryOpIr, DimOpIr, OperationIr, ScalarIr, ScalarOpIr, TensorIr, UnaryOpIr};
use burn_std::{DType, Scalar, Shape};

use crate::{RouterTensor, RunnerClient};

/// One operation being recorded: the client it goes to, and the input
/// handles it keeps alive until the operation is registered (see
/// [`RouterTensor::ir_use`]).
pub(crate) struct Recorder {
    op: &'static str,
    client: Arc<dyn RunnerClient>,
    inputs: Vec<RouterTensor>,
}

impl Recorder {
    /// A recording of `op` on the client holding `first`.
    pub(crate) fn new(op: &'static str, first: &RouterTensor) -> Self {
        Self::on(op, first.client().clone())
    }

    /// A recording of `op` on `client` (creation ops).
    pub(crate) fn on(op: &'static str, client: Arc<dyn RunnerClient>) -> Self {
        Self {
            op,
            client,
            inputs: Vec::new(),
        }
    }

    /// One use of an input.
    #[track_caller]
    pub(crate) fn input(&mut self, tensor: RouterTensor) -> TensorIr {
        if !Arc::ptr_eq(tensor.client(), &self.client) {
            panic!(
                "{}: operands are on different devices: {:?} and {:?}",
                self.op,
                self.client,
                tensor.client()
            );
        }
        let ir = tensor.ir_use();
        self.inputs.push(tensor);
        ir
    }

    /// An optional input.
    pub(crate) fn input_opt(&mut self, tensor: Option<RouterTensor>) -> Option<TensorIr> {
        tensor.map(|tensor| self.input(tensor))
    }

    /// A new output.
    pub(crate) fn output(&self, shape: Shape, dtype: DType) -> RouterTensor {
        RouterTensor::new(
            self.client.new_tensor_id(),
            shape,
            dtype,
            self.client.clone(),
        )
    }

    /// Hands the operation to the client; the inputs are released after.
    pub(crate) fn register(self, op: OperationIr) {
        self.client.register_op(op);
        drop(self.inputs);
    }
}

/// A scalar applied in the dtype of `tensor`.
pub(crate) fn scalar_ir(value: Scalar, tensor: &RouterTensor) -> ScalarIr {
    ScalarIr::new(value, tensor.dtype())
}

/// One input, one output of `shape` and `dtype`.
pub(crate) fn unary_to(
    name: &'static str,
    input: RouterTensor,
    shape: Shape,
    dtype: DType,
    make: impl FnOnce(UnaryOpIr) -> OperationIr,
) -> RouterTensor {
    let mut rec = Recorder::new(name, &input);
    let out = rec.output(shape, dtype);
    let desc = UnaryOpIr {
        input: rec.input(input),
        out: out.ir_uninit(),
    };
    rec.register(make(desc));
    out
}

/// One input, one output of the same shape and `dtype`.
pub(crate) fn unary(
    name: &'static str,
    input: RouterTensor,
    dtype: DType,
    make: impl FnOnce(UnaryOpIr) -> OperationIr,
) -> RouterTensor {
    let shape = input.shape();
    unary_to(name, input, shape, dtype, make)
}

/// One input, one output of the same shape and dtype.
pub(crate) fn unary_same(
    name: &'static str,
    input: RouterTensor,
    make: impl FnOnce(UnaryOpIr) -> OperationIr,
) -> RouterTensor {
    let dtype = input.dtype();
    unary(name, input, dtype, make)
}

/// Two inputs, one output of `shape` and `dtype`.
pub(crate) fn binary_to(
    name: &'static str,
    lhs: RouterTensor,
    rhs: RouterTensor,
    shape: Shape,
    dtype: DType,
    make: impl FnOnce(BinaryOpIr) -> OperationIr,
) -> RouterTensor {
    let mut rec = Recorder::new(name, &lhs);
    let out = rec.output(shape, dtype);
    let desc = BinaryOpIr {
        lhs: rec.input(lhs),
        rhs: rec.input(rhs),
        out: out.ir_uninit(),
    };
    rec.register(make(desc));
    out
}

/// Two inputs broadcast together, one output of `dtype`.
#[track_caller]
pub(crate) fn binary(
    name: &'static str,
    lhs: RouterTensor,
    rhs: RouterTensor,
    dtype: DType,
    make: impl FnOnce(BinaryOpIr) -> OperationIr,
) -> RouterTensor {
    let shape = burn_backend::check::broadcast(name, &lhs.shape(), &rhs.shape());
    binary_to(name, lhs, rhs, shape, dtype, make)
}

/// A tensor and a scalar, one output of the tensor's shape and `dtype`.
pub(crate) fn scalar(
    name: &'static str,
    lhs: RouterTensor,
    rhs: Scalar,
    dtype: DType,
    make: impl FnOnce(ScalarOpIr) -> OperationIr,
) -> RouterTensor {
    let mut rec = Recorder::new(name, &lhs);
    let out = rec.output(lhs.shape(), dtype);
    let rhs = scalar_ir(rhs, &lhs);
    let desc = ScalarOpIr {
        lhs: rec.input(lhs),
        rhs,
        out: out.ir_uninit(),
    };
    rec.register(make(desc));
    out
}

/// One input and a dim, one output of `shape` and `dtype`.
pub(crate) fn dim_to(
    name: &'static str,
    input: RouterTensor,
    dim: usize,
    shape: Shape,
    dtype: DType,
    make: impl FnOnce(DimOpIr) -> OperationIr,
) -> RouterTensor {
    let mut rec = Recorder::new(name, &input);
    let out = rec.output(shape, dtype);
    let desc = DimOpIr {
        input: rec.input(input),
        dim,
        out: out.ir_uninit(),
    };
    rec.register(make(desc));
    out
}

/// `shape` with `dim` set to `size`, after checking `dim` is in range.
#[track_caller]
pub(crate) fn with_dim(name: &str, shape: &Shape, dim: usize, size: usize) -> Shape {
    burn_backend::check::dim(name, dim, shape);
    let mut dims = shape.dims.clone();
    dims[dim] = size;
    Shape::from(dims)
}

/// The `[1]` shape of whole-tensor reductions.
pub(crate) fn scalar_shape() -> Shape {
    Shape::new([1])
}
