//! `TensorInterpreter`: executes IR on a concrete backend.
//!
//! Each operation is mapped back onto the trait method it was recorded
//! from (the vocabulary op `BinaryOp::Add` on a float tensor is
//! `B::float_add`), so a backend's own override of a composite (Flex's
//! fused softmax, say) runs exactly as it would without the router. The
//! matches below are exhaustive over the IR and over the vocabulary: an
//! operation the interpreter does not handle fails to compile.
//!
//! The per-kind tables ([`BaseKind`], [`NumKind`]) are how one match over
//! an op family serves the float, int and bool primitives that share it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use burn_backend::ops::vocabulary::{
    ArgReduceOp, BinaryOp, BitwiseOp, BoolOp, CmpOp, CumOp, FloatBinaryOp, FloatUnaryOp,
    IntUnaryOp, ReduceOp,
};
use burn_backend::{
    Backend, BoolTensor, ConvTransposeOptions, ExecutionError, FloatTensor, IntTensor,
    TensorMetadata,
};
use burn_ir::{
    ActivationOperationIr, BaseOperationIr, BoolOperationIr, CustomOpIr, FloatOperationIr, Handle,
    HandleContainer, HandleError, InitOperationIr, IntOperationIr, ModuleOperationIr, NumericKind,
    NumericOperationIr, OperationIr, TensorIr, TensorKind,
};
use burn_std::{Scalar, Shape, Slice, TensorData};

/// Why the interpreter could not execute an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpreterError {
    /// An input id is unknown or of the wrong kind.
    Handle {
        /// The operation.
        op: &'static str,
        /// What was wrong with the id.
        error: HandleError,
    },
    /// The backend produced an output unlike the one the IR declared.
    Mismatch {
        /// The operation.
        op: &'static str,
        /// Both shapes and dtypes.
        detail: String,
    },
    /// The operation is not defined for the operands it names (an IR that
    /// no router records, from a hostile or buggy sender).
    Invalid {
        /// The operation.
        op: &'static str,
        /// Why.
        reason: String,
    },
}

impl core::fmt::Display for InterpreterError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            InterpreterError::Handle { op, error } => write!(f, "{op}: {error}"),
            InterpreterError::Mismatch { op, detail } => write!(f, "{op}: {detail}"),
            InterpreterError::Invalid { op, reason } => write!(f, "{op}: {reason}"),
        }
    }
}

type Result<T> = core::result::Result<T, InterpreterError>;

/// The error for an op of the IR naming a quantized tensor: quantized
/// tensors only enter as data and leave as data (the router quantizes and
/// dequantizes through those), so no recorder emits one.
fn no_quantized(op: &'static str) -> InterpreterError {
    InterpreterError::Invalid {
        op,
        reason: String::from("the IR has no such op on quantized tensors"),
    }
}

/// Executes IR on the backend `B`, holding the tensors by id.
#[derive(Debug)]
pub struct TensorInterpreter<B: Backend> {
    handles: HandleContainer<B>,
    device: B::Device,
}

impl<B: Backend> TensorInterpreter<B> {
    /// An interpreter creating its tensors on `device`.
    pub fn new(device: B::Device) -> Self {
        Self {
            handles: HandleContainer::new(),
            device,
        }
    }

    /// The device tensors are created on.
    pub fn device(&self) -> &B::Device {
        &self.device
    }

    /// The tensors held.
    pub fn handles(&self) -> &HandleContainer<B> {
        &self.handles
    }

    /// The tensors held, for an executor that runs some operations its own
    /// way (a fused block) and the rest through [`execute`](Self::execute).
    pub fn handles_mut(&mut self) -> &mut HandleContainer<B> {
        &mut self.handles
    }

    /// Creates `out` from `data`.
    pub fn register_tensor(&mut self, out: &TensorIr, data: TensorData) -> Result<()> {
        let op = "from_data";
        if data.shape != out.shape || data.dtype != out.dtype {
            return Err(InterpreterError::Invalid {
                op,
                reason: format!(
                    "data of shape {} and dtype {} declared as {} {}",
                    data.shape, data.dtype, out.shape, out.dtype
                ),
            });
        }
        let handle = match TensorKind::of(data.dtype) {
            TensorKind::Float => Handle::Float(B::float_from_data(data, &self.device)),
            TensorKind::Int => Handle::Int(B::int_from_data(data, &self.device)),
            TensorKind::Bool => Handle::Bool(B::bool_from_data(data, &self.device)),
            TensorKind::Quantized => Handle::Quantized(B::q_from_data(data, &self.device)),
        };
        self.put(op, out, handle)
    }

    /// Reads one use of a tensor back.
    pub fn read(&mut self, tensor: &TensorIr) -> core::result::Result<TensorData, ExecutionError> {
        let handle = self
            .handles
            .take(tensor)
            .map_err(|error| ExecutionError::Failed {
                op: String::from("read"),
                reason: format!("{error}"),
            })?;
        match handle {
            Handle::Float(t) => B::float_into_data(t),
            Handle::Int(t) => B::int_into_data(t),
            Handle::Bool(t) => B::bool_into_data(t),
            Handle::Quantized(t) => B::q_into_data(t),
        }
    }

    /// Executes one operation.
    pub fn execute(&mut self, op: OperationIr) -> Result<()> {
        match op {
            OperationIr::Init(op) => self.init(op),
            OperationIr::Base(kind, op) => match kind {
                TensorKind::Float => self.base::<FloatKind>(op),
                TensorKind::Int => self.base::<IntKind>(op),
                TensorKind::Bool => self.base::<BoolKind>(op),
                TensorKind::Quantized => Err(no_quantized("base")),
            },
            OperationIr::Numeric(kind, op) => match kind {
                NumericKind::Float => self.numeric::<FloatKind>(op),
                NumericKind::Int => self.numeric::<IntKind>(op),
            },
            OperationIr::Float(op) => self.float(op),
            OperationIr::Int(op) => self.int(op),
            OperationIr::Bool(op) => self.bool(op),
            OperationIr::Module(op) => self.module(op),
            OperationIr::Activation(op) => self.activation(op),
            OperationIr::Quantized(op) => match op {},
            OperationIr::Drop(tensor) => {
                // Unknown ids are fine: an output whose operation failed is
                // dropped without ever having been created.
                self.handles.remove(tensor.id);
                Ok(())
            }
            OperationIr::Custom(op) => self.custom(op),
        }
    }

    /// A backend extension's op: its code, given the inputs' handles; each
    /// output checked against the shape and dtype recorded for it.
    fn custom(&mut self, op: CustomOpIr) -> Result<()> {
        let name = "custom";
        let invalid = |reason: String| InterpreterError::Invalid { op: name, reason };
        let Some(run) = op.run.get::<B>() else {
            return Err(invalid(format!(
                "`{}` has no code here: a backend extension's op runs only in the process, \
                 and on the backend, that recorded it",
                op.id
            )));
        };
        let inputs = op
            .inputs
            .iter()
            .map(|t| self.handles.take(t))
            .collect::<core::result::Result<Vec<_>, _>>()
            .map_err(|error| InterpreterError::Handle { op: name, error })?;
        let outputs = run(inputs);
        if outputs.len() != op.outputs.len() {
            return Err(invalid(format!(
                "`{}` returned {} tensors, not the {} recorded",
                op.id,
                outputs.len(),
                op.outputs.len()
            )));
        }
        for (out, handle) in op.outputs.iter().zip(outputs) {
            self.handles
                .register(out, handle)
                .map_err(|detail| invalid(format!("`{}`: {detail}", op.id)))?;
        }
        Ok(())
    }

    // ------------------------------------------------------------- helpers

    fn put(&mut self, op: &'static str, out: &TensorIr, handle: Handle<B>) -> Result<()> {
        self.handles
            .register(out, handle)
            .map_err(|detail| InterpreterError::Mismatch { op, detail })
    }

    fn f(&mut self, op: &'static str, tensor: &TensorIr) -> Result<FloatTensor<B>> {
        self.handles
            .take_float(tensor)
            .map_err(|error| InterpreterError::Handle { op, error })
    }

    fn i(&mut self, op: &'static str, tensor: &TensorIr) -> Result<IntTensor<B>> {
        self.handles
            .take_int(tensor)
            .map_err(|error| InterpreterError::Handle { op, error })
    }

    fn b(&mut self, op: &'static str, tensor: &TensorIr) -> Result<BoolTensor<B>> {
        self.handles
            .take_bool(tensor)
            .map_err(|error| InterpreterError::Handle { op, error })
    }

    fn f_opt(
        &mut self,
        op: &'static str,
        tensor: &Option<TensorIr>,
    ) -> Result<Option<FloatTensor<B>>> {
        tensor.as_ref().map(|t| self.f(op, t)).transpose()
    }

    fn put_f(&mut self, op: &'static str, out: &TensorIr, t: FloatTensor<B>) -> Result<()> {
        self.put(op, out, Handle::Float(t))
    }

    fn put_i(&mut self, op: &'static str, out: &TensorIr, t: IntTensor<B>) -> Result<()> {
        self.put(op, out, Handle::Int(t))
    }

    fn put_b(&mut self, op: &'static str, out: &TensorIr, t: BoolTensor<B>) -> Result<()> {
        self.put(op, out, Handle::Bool(t))
    }

    // ---------------------------------------------------------------- init

    fn init(&mut self, op: InitOperationIr) -> Result<()> {
        let device = self.device.clone();
        let (name, out, handle) = match op {
            InitOperationIr::FromData { out } => {
                return Err(InterpreterError::Invalid {
                    op: "from_data",
                    reason: format!(
                        "tensor {} is created with its data, not as an operation",
                        out.id
                    ),
                });
            }
            InitOperationIr::Full { value, out } => {
                let (shape, dtype) = (out.shape.clone(), out.dtype);
                let handle = match TensorKind::of(dtype) {
                    TensorKind::Float => {
                        Handle::Float(B::float_full(shape, value.value, &device, dtype))
                    }
                    TensorKind::Int => Handle::Int(B::int_full(shape, value.value, &device, dtype)),
                    TensorKind::Bool => {
                        Handle::Bool(B::bool_full(shape, value.value.to_bool(), &device))
                    }
                    TensorKind::Quantized => return Err(no_quantized("full")),
                };
                ("full", out, handle)
            }
            InitOperationIr::Empty { out } => {
                let (shape, dtype) = (out.shape.clone(), out.dtype);
                let handle = match TensorKind::of(dtype) {
                    TensorKind::Float => Handle::Float(B::float_empty(shape, &device, dtype)),
                    TensorKind::Int => Handle::Int(B::int_empty(shape, &device, dtype)),
                    TensorKind::Bool => Handle::Bool(B::bool_empty(shape, &device)),
                    TensorKind::Quantized => return Err(no_quantized("empty")),
                };
                ("empty", out, handle)
            }
            InitOperationIr::Random { distribution, out } => {
                let (shape, dtype) = (out.shape.clone(), out.dtype);
                let handle = match TensorKind::of(dtype) {
                    TensorKind::Float => {
                        Handle::Float(B::float_random(shape, distribution, &device, dtype))
                    }
                    TensorKind::Int => {
                        Handle::Int(B::int_random(shape, distribution, &device, dtype))
                    }
                    TensorKind::Bool => {
                        return Err(InterpreterError::Invalid {
                            op: "random",
                            reason: format!("no random bool tensors (dtype {dtype})"),
                        });
                    }
                    TensorKind::Quantized => return Err(no_quantized("random")),
                };
                ("random", out, handle)
            }
            InitOperationIr::Arange {
                start,
                end,
                step,
                out,
            } => {
                let dtype = out.dtype;
                let handle = match TensorKind::of(dtype) {
                    TensorKind::Float if step == 1 => {
                        Handle::Float(B::float_arange(start..end, &device, dtype))
                    }
                    TensorKind::Int if step == 1 => {
                        Handle::Int(B::int_arange(start..end, &device, dtype))
                    }
                    TensorKind::Int => {
                        Handle::Int(B::int_arange_step(start..end, step, &device, dtype))
                    }
                    TensorKind::Float | TensorKind::Bool | TensorKind::Quantized => {
                        return Err(InterpreterError::Invalid {
                            op: "arange",
                            reason: format!("no arange of dtype {dtype} with step {step}"),
                        });
                    }
                };
                ("arange", out, handle)
            }
        };
        self.put(name, &out, handle)
    }

    // ---------------------------------------------------------------- base

    fn base<K: BaseKind<B>>(&mut self, op: BaseOperationIr) -> Result<()> {
        use BaseOperationIr as O;
        let (name, out, result) = match op {
            O::Reshape(d) => (
                "reshape",
                d.out.clone(),
                K::reshape(K::take(self, "reshape", &d.input)?, d.out.shape),
            ),
            O::Permute { input, axes, out } => (
                "permute",
                out,
                K::permute(K::take(self, "permute", &input)?, &axes),
            ),
            O::SwapDims {
                input,
                dim1,
                dim2,
                out,
            } => (
                "swap_dims",
                out,
                K::swap_dims(K::take(self, "swap_dims", &input)?, dim1, dim2),
            ),
            O::Flip { input, axes, out } => {
                ("flip", out, K::flip(K::take(self, "flip", &input)?, &axes))
            }
            O::Expand(d) => (
                "expand",
                d.out.clone(),
                K::expand(K::take(self, "expand", &d.input)?, d.out.shape),
            ),
            O::Slice { input, slices, out } => (
                "slice",
                out,
                K::slice(K::take(self, "slice", &input)?, &slices),
            ),
            O::SliceAssign {
                input,
                slices,
                value,
                out,
            } => {
                let tensor = K::take(self, "slice_assign", &input)?;
                let value = K::take(self, "slice_assign", &value)?;
                ("slice_assign", out, K::slice_assign(tensor, &slices, value))
            }
            O::Narrow {
                input,
                dim,
                start,
                length,
                out,
            } => (
                "narrow",
                out,
                K::narrow(K::take(self, "narrow", &input)?, dim, start, length),
            ),
            O::Cat { inputs, dim, out } => {
                let tensors = inputs
                    .iter()
                    .map(|t| K::take(self, "cat", t))
                    .collect::<Result<Vec<_>>>()?;
                ("cat", out, K::cat(tensors, dim))
            }
            O::RepeatDim {
                input,
                dim,
                times,
                out,
            } => (
                "repeat_dim",
                out,
                K::repeat_dim(K::take(self, "repeat_dim", &input)?, dim, times),
            ),
            O::Gather {
                dim,
                input,
                indices,
                out,
            } => {
                let tensor = K::take(self, "gather", &input)?;
                let indices = self.i("gather", &indices)?;
                ("gather", out, K::gather(dim, tensor, indices))
            }
            O::Select {
                input,
                dim,
                indices,
                out,
            } => {
                let tensor = K::take(self, "select", &input)?;
                let indices = self.i("select", &indices)?;
                ("select", out, K::select(tensor, dim, indices))
            }
            O::MaskWhere {
                input,
                mask,
                value,
                out,
            } => {
                let tensor = K::take(self, "mask_where", &input)?;
                let mask = self.b("mask_where", &mask)?;
                let value = K::take(self, "mask_where", &value)?;
                ("mask_where", out, K::mask_where(tensor, mask, value))
            }
        };
        self.put(name, &out, K::wrap(result))
    }

    // ------------------------------------------------------------- numeric

    fn numeric<K: NumKind<B>>(&mut self, op: NumericOperationIr) -> Result<()> {
        use NumericOperationIr as O;
        match op {
            O::Binary { op, desc } => {
                let lhs = K::take(self, op.name(), &desc.lhs)?;
                let rhs = K::take(self, op.name(), &desc.rhs)?;
                self.put(op.name(), &desc.out, K::wrap(K::binary(op, lhs, rhs)))
            }
            O::BinaryScalar { op, desc } => {
                let lhs = K::take(self, op.name(), &desc.lhs)?;
                self.put(
                    op.name(),
                    &desc.out,
                    K::wrap(K::binary_scalar(op, lhs, desc.rhs.value)),
                )
            }
            O::Compare { op, desc } => {
                let lhs = K::take(self, op.name(), &desc.lhs)?;
                let rhs = K::take(self, op.name(), &desc.rhs)?;
                self.put_b(op.name(), &desc.out, K::compare(op, lhs, rhs))
            }
            O::CompareScalar { op, desc } => {
                let lhs = K::take(self, op.name(), &desc.lhs)?;
                self.put_b(
                    op.name(),
                    &desc.out,
                    K::compare_scalar(op, lhs, desc.rhs.value),
                )
            }
            O::Cast(d) => {
                let t = K::take(self, "cast", &d.input)?;
                self.put("cast", &d.out, K::wrap(K::cast(t, d.out.dtype)))
            }
            O::Matmul(d) => {
                let lhs = K::take(self, "matmul", &d.lhs)?;
                let rhs = K::take(self, "matmul", &d.rhs)?;
                self.put("matmul", &d.out, K::wrap(K::matmul(lhs, rhs)))
            }
            O::Clamp {
                input,
                min,
                max,
                out,
            } => {
                let t = K::take(self, "clamp", &input)?;
                let result = match (min, max) {
                    (Some(min), Some(max)) => K::clamp(t, min.value, max.value),
                    (Some(min), None) => K::clamp_min(t, min.value),
                    (None, Some(max)) => K::clamp_max(t, max.value),
                    (None, None) => t,
                };
                self.put("clamp", &out, K::wrap(result))
            }
            O::Reduce { op, desc } => {
                let t = K::take(self, op.name(), &desc.input)?;
                self.put(op.name(), &desc.out, K::wrap(K::reduce(op, t)))
            }
            O::ReduceDim { op, desc } => {
                let t = K::take(self, op.name(), &desc.input)?;
                self.put(
                    op.name(),
                    &desc.out,
                    K::wrap(K::reduce_dim(op, t, desc.dim)),
                )
            }
            O::Mean(d) => {
                let t = K::take(self, "mean", &d.input)?;
                self.put("mean", &d.out, K::wrap(K::mean(t)))
            }
            O::MeanDim(d) => {
                let t = K::take(self, "mean_dim", &d.input)?;
                self.put("mean_dim", &d.out, K::wrap(K::mean_dim(t, d.dim)))
            }
            O::ArgReduce { op, desc } => {
                let t = K::take(self, op.name(), &desc.input)?;
                self.put_i(op.name(), &desc.out, K::arg_reduce(op, t, desc.dim))
            }
            O::ReduceDimWithIndices { op, desc, indices } => {
                let t = K::take(self, op.name(), &desc.input)?;
                let (values, index) = K::reduce_dim_with_indices(op, t, desc.dim);
                self.put(op.name(), &desc.out, K::wrap(values))?;
                self.put_i(op.name(), &indices, index)
            }
            O::Any { input, dim, out } => {
                let t = K::take(self, "any", &input)?;
                self.put_b("any", &out, K::any(t, dim))
            }
            O::All { input, dim, out } => {
                let t = K::take(self, "all", &input)?;
                self.put_b("all", &out, K::all(t, dim))
            }
            O::Cumulative { op, desc } => {
                let t = K::take(self, op.name(), &desc.input)?;
                self.put(
                    op.name(),
                    &desc.out,
                    K::wrap(K::cumulative(op, t, desc.dim)),
                )
            }
            O::Sort { desc, descending } => {
                let t = K::take(self, "sort", &desc.input)?;
                self.put("sort", &desc.out, K::wrap(K::sort(t, desc.dim, descending)))
            }
            O::SortWithIndices {
                desc,
                descending,
                indices,
            } => {
                let t = K::take(self, "sort_with_indices", &desc.input)?;
                let (values, index) = K::sort_with_indices(t, desc.dim, descending);
                self.put("sort_with_indices", &desc.out, K::wrap(values))?;
                self.put_i("sort_with_indices", &indices, index)
            }
            O::Argsort { desc, descending } => {
                let t = K::take(self, "argsort", &desc.input)?;
                self.put_i("argsort", &desc.out, K::argsort(t, desc.dim, descending))
            }
            O::TopkWithIndices { desc, k, indices } => {
                let t = K::take(self, "topk", &desc.input)?;
                let (values, index) = K::topk_with_indices(t, desc.dim, k);
                self.put("topk", &desc.out, K::wrap(values))?;
                self.put_i("topk", &indices, index)
            }
            O::ScatterAdd {
                dim,
                input,
                indices,
                value,
                out,
            } => {
                let t = K::take(self, "scatter_add", &input)?;
                let indices = self.i("scatter_add", &indices)?;
                let value = K::take(self, "scatter_add", &value)?;
                self.put(
                    "scatter_add",
                    &out,
                    K::wrap(K::scatter_add(dim, t, indices, value)),
                )
            }
            O::SelectAdd {
                input,
                dim,
                indices,
                value,
                out,
            } => {
                let t = K::take(self, "select_add", &input)?;
                let indices = self.i("select_add", &indices)?;
                let value = K::take(self, "select_add", &value)?;
                self.put(
                    "select_add",
                    &out,
                    K::wrap(K::select_add(t, dim, indices, value)),
                )
            }
            O::MaskFill {
                input,
                mask,
                value,
                out,
            } => {
                let t = K::take(self, "mask_fill", &input)?;
                let mask = self.b("mask_fill", &mask)?;
                self.put(
                    "mask_fill",
                    &out,
                    K::wrap(K::mask_fill(t, mask, value.value)),
                )
            }
            O::Tril {
                input,
                diagonal,
                out,
            } => {
                let t = K::take(self, "tril", &input)?;
                self.put("tril", &out, K::wrap(K::tril(t, diagonal)))
            }
            O::Triu {
                input,
                diagonal,
                out,
            } => {
                let t = K::take(self, "triu", &input)?;
                self.put("triu", &out, K::wrap(K::triu(t, diagonal)))
            }
        }
    }

    // --------------------------------------------------------------- float

    fn float(&mut self, op: FloatOperationIr) -> Result<()> {
        use FloatOperationIr as O;
        match op {
            O::Unary { op, desc } => {
                let t = self.f(op.name(), &desc.input)?;
                self.put_f(op.name(), &desc.out, float_unary::<B>(op, t))
            }
            O::Binary { op, desc } => {
                let lhs = self.f(op.name(), &desc.lhs)?;
                let rhs = self.f(op.name(), &desc.rhs)?;
                let out = match op {
                    FloatBinaryOp::Atan2 => B::float_atan2(lhs, rhs),
                };
                self.put_f(op.name(), &desc.out, out)
            }
            O::IntoInt(d) => {
                let t = self.f("float_into_int", &d.input)?;
                self.put_i("float_into_int", &d.out, B::float_into_int(t, d.out.dtype))
            }
            O::PowInt(d) => {
                let lhs = self.f("float_powi", &d.lhs)?;
                let rhs = self.i("float_powi", &d.rhs)?;
                self.put_f("float_powi", &d.out, B::float_powi(lhs, rhs))
            }
            O::PowIntScalar(d) => {
                let lhs = self.f("float_powi_scalar", &d.lhs)?;
                self.put_f(
                    "float_powi_scalar",
                    &d.out,
                    B::float_powi_scalar(lhs, d.rhs.value),
                )
            }
            O::IsNan(d) => {
                let t = self.f("float_is_nan", &d.input)?;
                self.put_b("float_is_nan", &d.out, B::float_is_nan(t))
            }
            O::IsInf(d) => {
                let t = self.f("float_is_inf", &d.input)?;
                self.put_b("float_is_inf", &d.out, B::float_is_inf(t))
            }
            O::MaxAbs(d) => {
                let t = self.f("float_max_abs", &d.input)?;
                self.put_f("float_max_abs", &d.out, B::float_max_abs(t))
            }
        }
    }

    // ----------------------------------------------------------------- int

    fn int(&mut self, op: IntOperationIr) -> Result<()> {
        use IntOperationIr as O;
        match op {
            O::Unary { op, desc } => {
                let t = self.i(op.name(), &desc.input)?;
                let out = match op {
                    IntUnaryOp::Neg => B::int_neg(t),
                    IntUnaryOp::Abs => B::int_abs(t),
                    IntUnaryOp::Sign => B::int_sign(t),
                    IntUnaryOp::BitNot => B::bitwise_not(t),
                };
                self.put_i(op.name(), &desc.out, out)
            }
            O::Bitwise { op, desc } => {
                let lhs = self.i(op.name(), &desc.lhs)?;
                let rhs = self.i(op.name(), &desc.rhs)?;
                let out = match op {
                    BitwiseOp::And => B::bitwise_and(lhs, rhs),
                    BitwiseOp::Or => B::bitwise_or(lhs, rhs),
                    BitwiseOp::Xor => B::bitwise_xor(lhs, rhs),
                    BitwiseOp::Shl => B::bitwise_left_shift(lhs, rhs),
                    BitwiseOp::Shr => B::bitwise_right_shift(lhs, rhs),
                };
                self.put_i(op.name(), &desc.out, out)
            }
            O::BitwiseScalar { op, desc } => {
                let lhs = self.i(op.name(), &desc.lhs)?;
                let s = desc.rhs.value;
                let out = match op {
                    BitwiseOp::And => B::bitwise_and_scalar(lhs, s),
                    BitwiseOp::Or => B::bitwise_or_scalar(lhs, s),
                    BitwiseOp::Xor => B::bitwise_xor_scalar(lhs, s),
                    // The contract has no scalar shifts; a shift by a
                    // scalar is a shift by a tensor full of it.
                    BitwiseOp::Shl => {
                        let amount = full_like::<B>(&lhs, s);
                        B::bitwise_left_shift(lhs, amount)
                    }
                    BitwiseOp::Shr => {
                        let amount = full_like::<B>(&lhs, s);
                        B::bitwise_right_shift(lhs, amount)
                    }
                };
                self.put_i(op.name(), &desc.out, out)
            }
            O::IntoFloat(d) => {
                let t = self.i("int_into_float", &d.input)?;
                self.put_f("int_into_float", &d.out, B::int_into_float(t, d.out.dtype))
            }
            O::PowFloat(d) => {
                let lhs = self.i("int_powf", &d.lhs)?;
                let rhs = self.f("int_powf", &d.rhs)?;
                self.put_i("int_powf", &d.out, B::int_powf(lhs, rhs))
            }
            O::PowFloatScalar(d) => {
                let lhs = self.i("int_powf_scalar", &d.lhs)?;
                self.put_i(
                    "int_powf_scalar",
                    &d.out,
                    B::int_powf_scalar(lhs, d.rhs.value),
                )
            }
        }
    }

    // ---------------------------------------------------------------- bool

    fn bool(&mut self, op: BoolOperationIr) -> Result<()> {
        use BoolOperationIr as O;
        match op {
            O::Binary { op, desc } => {
                let lhs = self.b(op.name(), &desc.lhs)?;
                let rhs = self.b(op.name(), &desc.rhs)?;
                let out = match op {
                    BoolOp::And => B::bool_and(lhs, rhs),
                    BoolOp::Or => B::bool_or(lhs, rhs),
                    BoolOp::Xor => B::bool_xor(lhs, rhs),
                    BoolOp::Eq => B::bool_equal(lhs, rhs),
                };
                self.put_b(op.name(), &desc.out, out)
            }
            O::Not(d) => {
                let t = self.b("bool_not", &d.input)?;
                self.put_b("bool_not", &d.out, B::bool_not(t))
            }
            O::IntoInt(d) => {
                let t = self.b("bool_into_int", &d.input)?;
                self.put_i("bool_into_int", &d.out, B::bool_into_int(t, d.out.dtype))
            }
            O::IntoFloat(d) => {
                let t = self.b("bool_into_float", &d.input)?;
                self.put_f(
                    "bool_into_float",
                    &d.out,
                    B::bool_into_float(t, d.out.dtype),
                )
            }
            O::Any { input, dim, out } => {
                let t = self.b("bool_any", &input)?;
                let result = match dim {
                    Some(dim) => B::bool_any_dim(t, dim),
                    None => B::bool_any(t),
                };
                self.put_b("bool_any", &out, result)
            }
            O::All { input, dim, out } => {
                let t = self.b("bool_all", &input)?;
                let result = match dim {
                    Some(dim) => B::bool_all_dim(t, dim),
                    None => B::bool_all(t),
                };
                self.put_b("bool_all", &out, result)
            }
        }
    }

    // -------------------------------------------------------------- module

    fn module(&mut self, op: ModuleOperationIr) -> Result<()> {
        use ModuleOperationIr as O;
        match op {
            O::Embedding {
                weights,
                indices,
                out,
            } => {
                let w = self.f("embedding", &weights)?;
                let i = self.i("embedding", &indices)?;
                self.put_f("embedding", &out, B::embedding(w, i))
            }
            O::EmbeddingBackward {
                weights,
                output_grad,
                indices,
                out,
            } => {
                let w = self.f("embedding_backward", &weights)?;
                let g = self.f("embedding_backward", &output_grad)?;
                let i = self.i("embedding_backward", &indices)?;
                self.put_f("embedding_backward", &out, B::embedding_backward(w, g, i))
            }
            O::Conv1d(d) => {
                let (x, w, b) = (
                    self.f("conv1d", &d.x)?,
                    self.f("conv1d", &d.weight)?,
                    self.f_opt("conv1d", &d.bias)?,
                );
                self.put_f("conv1d", &d.out, B::conv1d(x, w, b, d.options))
            }
            O::Conv2d(d) => {
                let (x, w, b) = (
                    self.f("conv2d", &d.x)?,
                    self.f("conv2d", &d.weight)?,
                    self.f_opt("conv2d", &d.bias)?,
                );
                self.put_f("conv2d", &d.out, B::conv2d(x, w, b, d.options))
            }
            O::Conv3d(d) => {
                let (x, w, b) = (
                    self.f("conv3d", &d.x)?,
                    self.f("conv3d", &d.weight)?,
                    self.f_opt("conv3d", &d.bias)?,
                );
                self.put_f("conv3d", &d.out, B::conv3d(x, w, b, d.options))
            }
            O::Conv3dWeightBackward {
                x,
                output_grad,
                options,
                out,
            } => {
                let name = "conv3d_weight_backward";
                let (x, g) = (self.f(name, &x)?, self.f(name, &output_grad)?);
                self.put_f(
                    name,
                    &out,
                    B::conv3d_weight_backward(x, g, out.shape.clone(), options),
                )
            }
            O::ConvTranspose1d(d) => {
                let name = "conv_transpose1d";
                let (x, w, b) = (
                    self.f(name, &d.x)?,
                    self.f(name, &d.weight)?,
                    self.f_opt(name, &d.bias)?,
                );
                self.put_f(name, &d.out, B::conv_transpose1d(x, w, b, d.options))
            }
            O::ConvTranspose2d(d) => {
                let name = "conv_transpose2d";
                let (x, w, b) = (
                    self.f(name, &d.x)?,
                    self.f(name, &d.weight)?,
                    self.f_opt(name, &d.bias)?,
                );
                self.put_f(name, &d.out, B::conv_transpose2d(x, w, b, d.options))
            }
            O::ConvTranspose3d(d) => {
                let name = "conv_transpose3d";
                let (x, w, b) = (
                    self.f(name, &d.x)?,
                    self.f(name, &d.weight)?,
                    self.f_opt(name, &d.bias)?,
                );
                let options: ConvTransposeOptions<3> = d.options;
                self.put_f(name, &d.out, B::conv_transpose3d(x, w, b, options))
            }
            O::Unfold4d {
                x,
                kernel_size,
                options,
                out,
            } => {
                let x = self.f("unfold4d", &x)?;
                self.put_f("unfold4d", &out, B::unfold4d(x, kernel_size, options))
            }
            O::MaxPool1d { x, pool, out } => {
                let x = self.f("max_pool1d", &x)?;
                let p = pool;
                self.put_f(
                    "max_pool1d",
                    &out,
                    B::max_pool1d(
                        x,
                        p.kernel_size,
                        p.stride,
                        p.padding,
                        p.dilation,
                        p.ceil_mode,
                    ),
                )
            }
            O::MaxPool1dWithIndices {
                x,
                pool,
                out,
                indices,
            } => {
                let name = "max_pool1d_with_indices";
                let x = self.f(name, &x)?;
                let p = pool;
                let (values, index) = B::max_pool1d_with_indices(
                    x,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    p.dilation,
                    p.ceil_mode,
                );
                self.put_f(name, &out, values)?;
                self.put_i(name, &indices, index)
            }
            O::MaxPool2d { x, pool, out } => {
                let x = self.f("max_pool2d", &x)?;
                let p = pool;
                self.put_f(
                    "max_pool2d",
                    &out,
                    B::max_pool2d(
                        x,
                        p.kernel_size,
                        p.stride,
                        p.padding,
                        p.dilation,
                        p.ceil_mode,
                    ),
                )
            }
            O::MaxPool2dWithIndices {
                x,
                pool,
                out,
                indices,
            } => {
                let name = "max_pool2d_with_indices";
                let x = self.f(name, &x)?;
                let p = pool;
                let (values, index) = B::max_pool2d_with_indices(
                    x,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    p.dilation,
                    p.ceil_mode,
                );
                self.put_f(name, &out, values)?;
                self.put_i(name, &indices, index)
            }
            O::MaxPool2dWithIndicesBackward {
                x,
                pool,
                output_grad,
                indices,
                out,
            } => {
                let name = "max_pool2d_with_indices_backward";
                let x = self.f(name, &x)?;
                let g = self.f(name, &output_grad)?;
                let i = self.i(name, &indices)?;
                let p = pool;
                let result = B::max_pool2d_with_indices_backward(
                    x,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    p.dilation,
                    p.ceil_mode,
                    g,
                    i,
                );
                self.put_f(name, &out, result)
            }
            O::AvgPool1d {
                x,
                pool,
                count_include_pad,
                out,
            } => {
                let x = self.f("avg_pool1d", &x)?;
                let p = pool;
                let result = B::avg_pool1d(
                    x,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    count_include_pad,
                    p.ceil_mode,
                );
                self.put_f("avg_pool1d", &out, result)
            }
            O::AvgPool2d {
                x,
                pool,
                count_include_pad,
                out,
            } => {
                let x = self.f("avg_pool2d", &x)?;
                let p = pool;
                let result = B::avg_pool2d(
                    x,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    count_include_pad,
                    p.ceil_mode,
                );
                self.put_f("avg_pool2d", &out, result)
            }
            O::AvgPool2dBackward {
                x,
                grad,
                pool,
                count_include_pad,
                out,
            } => {
                let name = "avg_pool2d_backward";
                let (x, g) = (self.f(name, &x)?, self.f(name, &grad)?);
                let p = pool;
                let result = B::avg_pool2d_backward(
                    x,
                    g,
                    p.kernel_size,
                    p.stride,
                    p.padding,
                    count_include_pad,
                    p.ceil_mode,
                );
                self.put_f(name, &out, result)
            }
            O::AdaptiveAvgPool1d(d) => {
                let x = self.f("adaptive_avg_pool1d", &d.input)?;
                let size = d.out.shape.dims[2];
                self.put_f(
                    "adaptive_avg_pool1d",
                    &d.out,
                    B::adaptive_avg_pool1d(x, size),
                )
            }
            O::AdaptiveAvgPool2d(d) => {
                let x = self.f("adaptive_avg_pool2d", &d.input)?;
                let size = spatial2("adaptive_avg_pool2d", &d.out.shape)?;
                self.put_f(
                    "adaptive_avg_pool2d",
                    &d.out,
                    B::adaptive_avg_pool2d(x, size),
                )
            }
            O::AdaptiveAvgPool2dBackward { x, grad, out } => {
                let name = "adaptive_avg_pool2d_backward";
                let (x, g) = (self.f(name, &x)?, self.f(name, &grad)?);
                self.put_f(name, &out, B::adaptive_avg_pool2d_backward(x, g))
            }
            O::Interpolate { x, options, out } => {
                let size = spatial2("interpolate", &out.shape)?;
                let x = self.f("interpolate", &x)?;
                self.put_f("interpolate", &out, B::interpolate(x, size, options))
            }
            O::InterpolateBackward {
                x,
                grad,
                options,
                out,
            } => {
                let name = "interpolate_backward";
                let size = spatial2(name, &grad.shape)?;
                let (x, g) = (self.f(name, &x)?, self.f(name, &grad)?);
                self.put_f(name, &out, B::interpolate_backward(x, g, size, options))
            }
            O::Attention {
                query,
                key,
                value,
                mask,
                options,
                out,
            } => {
                let (q, k, v) = (
                    self.f("attention", &query)?,
                    self.f("attention", &key)?,
                    self.f("attention", &value)?,
                );
                let mask = mask.as_ref().map(|m| self.b("attention", m)).transpose()?;
                self.put_f("attention", &out, B::attention(q, k, v, mask, options))
            }
        }
    }

    // ---------------------------------------------------------- activation

    fn activation(&mut self, op: ActivationOperationIr) -> Result<()> {
        use ActivationOperationIr as O;
        let (name, out, result) = match op {
            O::Relu(d) => ("relu", d.out.clone(), B::relu(self.f("relu", &d.input)?)),
            O::ReluBackward(d) => {
                let (a, g) = (
                    self.f("relu_backward", &d.lhs)?,
                    self.f("relu_backward", &d.rhs)?,
                );
                ("relu_backward", d.out, B::relu_backward(a, g))
            }
            O::LeakyRelu(d) => (
                "leaky_relu",
                d.out.clone(),
                B::leaky_relu(self.f("leaky_relu", &d.lhs)?, d.rhs.value),
            ),
            O::Gelu(d) => ("gelu", d.out.clone(), B::gelu(self.f("gelu", &d.input)?)),
            O::GeluBackward(d) => {
                let (a, g) = (
                    self.f("gelu_backward", &d.lhs)?,
                    self.f("gelu_backward", &d.rhs)?,
                );
                ("gelu_backward", d.out, B::gelu_backward(a, g))
            }
            O::Sigmoid(d) => (
                "sigmoid",
                d.out.clone(),
                B::sigmoid(self.f("sigmoid", &d.input)?),
            ),
            O::SigmoidBackward(d) => {
                let (a, g) = (
                    self.f("sigmoid_backward", &d.lhs)?,
                    self.f("sigmoid_backward", &d.rhs)?,
                );
                ("sigmoid_backward", d.out, B::sigmoid_backward(a, g))
            }
            O::HardSigmoid {
                input,
                alpha,
                beta,
                out,
            } => {
                let t = self.f("hard_sigmoid", &input)?;
                (
                    "hard_sigmoid",
                    out,
                    B::hard_sigmoid(t, alpha.value, beta.value),
                )
            }
            O::LogSigmoid(d) => (
                "log_sigmoid",
                d.out.clone(),
                B::log_sigmoid(self.f("log_sigmoid", &d.input)?),
            ),
            O::LogSigmoidBackward(d) => {
                let (a, g) = (
                    self.f("log_sigmoid_backward", &d.lhs)?,
                    self.f("log_sigmoid_backward", &d.rhs)?,
                );
                ("log_sigmoid_backward", d.out, B::log_sigmoid_backward(a, g))
            }
            O::Silu(d) => ("silu", d.out.clone(), B::silu(self.f("silu", &d.input)?)),
            O::Softmax(d) => (
                "softmax",
                d.out.clone(),
                B::softmax(self.f("softmax", &d.input)?, d.dim),
            ),
            O::LogSoftmax(d) => (
                "log_softmax",
                d.out.clone(),
                B::log_softmax(self.f("log_softmax", &d.input)?, d.dim),
            ),
        };
        self.put_f(name, &out, result)
    }
}

/// An int tensor of `like`'s shape, dtype and device, every element `value`.
fn full_like<B: Backend>(like: &IntTensor<B>, value: Scalar) -> IntTensor<B> {
    B::int_full(like.shape(), value, &B::int_device(like), like.dtype())
}

/// The height and width of a `[batch, channels, height, width]` shape.
fn spatial2(op: &'static str, shape: &Shape) -> Result<[usize; 2]> {
    match shape.dims[..] {
        [_, _, h, w] => Ok([h, w]),
        _ => Err(InterpreterError::Invalid {
            op,
            reason: format!("expected a 4-d shape, got {shape}"),
        }),
    }
}

/// A float function applied with its trait method.
fn float_unary<B: Backend>(op: FloatUnaryOp, t: FloatTensor<B>) -> FloatTensor<B> {
    use FloatUnaryOp as U;
    match op {
        U::Neg => B::float_neg(t),
        U::Recip => B::float_recip(t),
        U::Abs => B::float_abs(t),
        U::Exp => B::float_exp(t),
        U::Log => B::float_log(t),
        U::Log1p => B::float_log1p(t),
        U::Sqrt => B::float_sqrt(t),
        U::Sin => B::float_sin(t),
        U::Cos => B::float_cos(t),
        U::Tan => B::float_tan(t),
        U::Sinh => B::float_sinh(t),
        U::Cosh => B::float_cosh(t),
        U::Tanh => B::float_tanh(t),
        U::Asin => B::float_asin(t),
        U::Acos => B::float_acos(t),
        U::Atan => B::float_atan(t),
        U::Asinh => B::float_asinh(t),
        U::Acosh => B::float_acosh(t),
        U::Atanh => B::float_atanh(t),
        U::Erf => B::float_erf(t),
        U::Round => B::float_round(t),
        U::Floor => B::float_floor(t),
        U::Ceil => B::float_ceil(t),
        U::Trunc => B::float_trunc(t),
        U::Sign => B::float_sign(t),
    }
}

// ------------------------------------------------------------ kind tables

/// The layout ops of one tensor kind, as trait methods of `B`.
trait BaseKind<B: Backend> {
    type P;
    fn take(it: &mut TensorInterpreter<B>, op: &'static str, t: &TensorIr) -> Result<Self::P>;
    fn wrap(t: Self::P) -> Handle<B>;
    fn reshape(t: Self::P, shape: Shape) -> Self::P;
    fn permute(t: Self::P, axes: &[usize]) -> Self::P;
    fn swap_dims(t: Self::P, dim1: usize, dim2: usize) -> Self::P;
    fn flip(t: Self::P, axes: &[usize]) -> Self::P;
    fn expand(t: Self::P, shape: Shape) -> Self::P;
    fn slice(t: Self::P, slices: &[Slice]) -> Self::P;
    fn slice_assign(t: Self::P, slices: &[Slice], value: Self::P) -> Self::P;
    fn narrow(t: Self::P, dim: usize, start: usize, length: usize) -> Self::P;
    fn cat(ts: Vec<Self::P>, dim: usize) -> Self::P;
    fn repeat_dim(t: Self::P, dim: usize, times: usize) -> Self::P;
    fn gather(dim: usize, t: Self::P, indices: IntTensor<B>) -> Self::P;
    fn select(t: Self::P, dim: usize, indices: IntTensor<B>) -> Self::P;
    fn mask_where(t: Self::P, mask: BoolTensor<B>, value: Self::P) -> Self::P;
}

/// The ops float and int tensors share, as trait methods of `B`.
trait NumKind<B: Backend>: BaseKind<B> {
    fn binary(op: BinaryOp, lhs: Self::P, rhs: Self::P) -> Self::P;
    fn binary_scalar(op: BinaryOp, lhs: Self::P, rhs: Scalar) -> Self::P;
    fn compare(op: CmpOp, lhs: Self::P, rhs: Self::P) -> BoolTensor<B>;
    fn compare_scalar(op: CmpOp, lhs: Self::P, rhs: Scalar) -> BoolTensor<B>;
    fn cast(t: Self::P, dtype: burn_std::DType) -> Self::P;
    fn matmul(lhs: Self::P, rhs: Self::P) -> Self::P;
    fn clamp(t: Self::P, min: Scalar, max: Scalar) -> Self::P;
    fn clamp_min(t: Self::P, min: Scalar) -> Self::P;
    fn clamp_max(t: Self::P, max: Scalar) -> Self::P;
    fn reduce(op: ReduceOp, t: Self::P) -> Self::P;
    fn reduce_dim(op: ReduceOp, t: Self::P, dim: usize) -> Self::P;
    fn mean(t: Self::P) -> Self::P;
    fn mean_dim(t: Self::P, dim: usize) -> Self::P;
    fn arg_reduce(op: ArgReduceOp, t: Self::P, dim: usize) -> IntTensor<B>;
    fn reduce_dim_with_indices(op: ArgReduceOp, t: Self::P, dim: usize) -> (Self::P, IntTensor<B>);
    fn any(t: Self::P, dim: Option<usize>) -> BoolTensor<B>;
    fn all(t: Self::P, dim: Option<usize>) -> BoolTensor<B>;
    fn cumulative(op: CumOp, t: Self::P, dim: usize) -> Self::P;
    fn sort(t: Self::P, dim: usize, descending: bool) -> Self::P;
    fn sort_with_indices(t: Self::P, dim: usize, descending: bool) -> (Self::P, IntTensor<B>);
    fn argsort(t: Self::P, dim: usize, descending: bool) -> IntTensor<B>;
    fn topk_with_indices(t: Self::P, dim: usize, k: usize) -> (Self::P, IntTensor<B>);
    fn scatter_add(dim: usize, t: Self::P, indices: IntTensor<B>, value: Self::P) -> Self::P;
    fn select_add(t: Self::P, dim: usize, indices: IntTensor<B>, value: Self::P) -> Self::P;
    fn mask_fill(t: Self::P, mask: BoolTensor<B>, value: Scalar) -> Self::P;
    fn tril(t: Self::P, diagonal: i64) -> Self::P;
    fn triu(t: Self::P, diagonal: i64) -> Self::P;
}

struct FloatKind;
struct IntKind;
struct BoolKind;

/// `impl BaseKind` for one kind: its primitive, how to take and wrap it,
/// and the trait method of that kind for each op.
macro_rules! base_kind {
    ($kind:ty, $prim:ident, $take:ident, $wrap:ident, [
        $reshape:ident, $permute:ident, $swap_dims:ident, $flip:ident, $expand:ident,
        $slice:ident, $slice_assign:ident, $narrow:ident, $cat:ident, $repeat_dim:ident,
        $gather:ident, $select:ident, $mask_where:ident $(,)?
    ]) => {
        impl<B: Backend> BaseKind<B> for $kind {
            type P = $prim<B>;
            fn take(
                it: &mut TensorInterpreter<B>,
                op: &'static str,
                t: &TensorIr,
            ) -> Result<Self::P> {
                it.$take(op, t)
            }
            fn wrap(t: Self::P) -> Handle<B> {
                Handle::$wrap(t)
            }
            fn reshape(t: Self::P, shape: Shape) -> Self::P {
                B::$reshape(t, shape)
            }
            fn permute(t: Self::P, axes: &[usize]) -> Self::P {
                B::$permute(t, axes)
            }
            fn swap_dims(t: Self::P, dim1: usize, dim2: usize) -> Self::P {
                B::$swap_dims(t, dim1, dim2)
            }
            fn flip(t: Self::P, axes: &[usize]) -> Self::P {
                B::$flip(t, axes)
            }
            fn expand(t: Self::P, shape: Shape) -> Self::P {
                B::$expand(t, shape)
            }
            fn slice(t: Self::P, slices: &[Slice]) -> Self::P {
                B::$slice(t, slices)
            }
            fn slice_assign(t: Self::P, slices: &[Slice], value: Self::P) -> Self::P {
                B::$slice_assign(t, slices, value)
            }
            fn narrow(t: Self::P, dim: usize, start: usize, length: usize) -> Self::P {
                B::$narrow(t, dim, start, length)
            }
            fn cat(ts: Vec<Self::P>, dim: usize) -> Self::P {
                B::$cat(ts, dim)
            }
            fn repeat_dim(t: Self::P, dim: usize, times: usize) -> Self::P {
                B::$repeat_dim(t, dim, times)
            }
            fn gather(dim: usize, t: Self::P, indices: IntTensor<B>) -> Self::P {
                B::$gather(dim, t, indices)
            }
            fn select(t: Self::P, dim: usize, indices: IntTensor<B>) -> Self::P {
                B::$select(t, dim, indices)
            }
            fn mask_where(t: Self::P, mask: BoolTensor<B>, value: Self::P) -> Self::P {
                B::$mask_where(t, mask, value)
            }
        }
    };
}

base_kind!(
    FloatKind,
    FloatTensor,
    f,
    Float,
    [
        float_reshape,
        float_permute,
        float_swap_dims,
        float_flip,
        float_expand,
        float_slice,
        float_slice_assign,
        float_narrow,
        float_cat,
        float_repeat_dim,
        float_gather,
        float_select,
        float_mask_where,
    ]
);
base_kind!(
    IntKind,
    IntTensor,
    i,
    Int,
    [
        int_reshape,
        int_permute,
        int_swap_dims,
        int_flip,
        int_expand,
        int_slice,
        int_slice_assign,
        int_narrow,
        int_cat,
        int_repeat_dim,
        int_gather,
        int_select,
        int_mask_where,
    ]
);
base_kind!(
    BoolKind,
    BoolTensor,
    b,
    Bool,
    [
        bool_reshape,
        bool_permute,
        bool_swap_dims,
        bool_flip,
        bool_expand,
        bool_slice,
        bool_slice_assign,
        bool_narrow,
        bool_cat,
        bool_repeat_dim,
        bool_gather,
        bool_select,
        bool_mask_where,
    ]
);

/// `impl NumKind` for float or int: every vocabulary op mapped onto the
/// trait method of that kind (listed in the vocabulary's order), exhaustively.
macro_rules! num_kind {
    ($kind:ty {
        binary: [$add:ident, $sub:ident, $mul:ident, $div:ident, $rem:ident, $pow:ident, $max_pair:ident, $min_pair:ident],
        binary_scalar: [$add_s:ident, $sub_s:ident, $mul_s:ident, $div_s:ident, $rem_s:ident, $pow_s:ident, $clamp_min_s:ident, $clamp_max_s:ident],
        compare: [$eq:ident, $ne:ident, $gt:ident, $ge:ident, $lt:ident, $le:ident],
        compare_scalar: [$eq_s:ident, $ne_s:ident, $gt_s:ident, $ge_s:ident, $lt_s:ident, $le_s:ident],
        reduce: [$sum:ident, $prod:ident, $max:ident, $min:ident],
        reduce_dim: [$sum_d:ident, $prod_d:ident, $max_d:ident, $min_d:ident],
        arg_reduce: [$argmax:ident, $argmin:ident],
        with_indices: [$max_wi:ident, $min_wi:ident],
        any: [$any:ident, $any_dim:ident],
        all: [$all:ident, $all_dim:ident],
        cumulative: [$cumsum:ident, $cumprod:ident, $cummax:ident, $cummin:ident],
        other: [$cast:ident, $matmul:ident, $clamp:ident, $clamp_min:ident, $clamp_max:ident,
            $mean:ident, $mean_dim:ident, $sort:ident, $sort_wi:ident, $argsort:ident,
            $topk:ident, $scatter_add:ident, $select_add:ident, $mask_fill:ident,
            $tril:ident, $triu:ident],
    }) => {
        impl<B: Backend> NumKind<B> for $kind {
            fn binary(op: BinaryOp, lhs: Self::P, rhs: Self::P) -> Self::P {
                match op {
                    BinaryOp::Add => B::$add(lhs, rhs),
                    BinaryOp::Sub => B::$sub(lhs, rhs),
                    BinaryOp::Mul => B::$mul(lhs, rhs),
                    BinaryOp::Div => B::$div(lhs, rhs),
                    BinaryOp::Rem => B::$rem(lhs, rhs),
                    BinaryOp::Pow => B::$pow(lhs, rhs),
                    BinaryOp::Max => B::$max_pair(lhs, rhs),
                    BinaryOp::Min => B::$min_pair(lhs, rhs),
                }
            }
            fn binary_scalar(op: BinaryOp, lhs: Self::P, rhs: Scalar) -> Self::P {
                match op {
                    BinaryOp::Add => B::$add_s(lhs, rhs),
                    BinaryOp::Sub => B::$sub_s(lhs, rhs),
                    BinaryOp::Mul => B::$mul_s(lhs, rhs),
                    BinaryOp::Div => B::$div_s(lhs, rhs),
                    BinaryOp::Rem => B::$rem_s(lhs, rhs),
                    BinaryOp::Pow => B::$pow_s(lhs, rhs),
                    // The larger of x and s is x clamped below at s.
                    BinaryOp::Max => B::$clamp_min_s(lhs, rhs),
                    BinaryOp::Min => B::$clamp_max_s(lhs, rhs),
                }
            }
            fn compare(op: CmpOp, lhs: Self::P, rhs: Self::P) -> BoolTensor<B> {
                match op {
                    CmpOp::Eq => B::$eq(lhs, rhs),
                    CmpOp::Ne => B::$ne(lhs, rhs),
                    CmpOp::Gt => B::$gt(lhs, rhs),
                    CmpOp::Ge => B::$ge(lhs, rhs),
                    CmpOp::Lt => B::$lt(lhs, rhs),
                    CmpOp::Le => B::$le(lhs, rhs),
                }
            }
            fn compare_scalar(op: CmpOp, lhs: Self::P, rhs: Scalar) -> BoolTensor<B> {
                match op {
                    CmpOp::Eq => B::$eq_s(lhs, rhs),
                    CmpOp::Ne => B::$ne_s(lhs, rhs),
                    CmpOp::Gt => B::$gt_s(lhs, rhs),
                    CmpOp::Ge => B::$ge_s(lhs, rhs),
                    CmpOp::Lt => B::$lt_s(lhs, rhs),
                    CmpOp::Le => B::$le_s(lhs, rhs),
                }
            }
            fn cast(t: Self::P, dtype: burn_std::DType) -> Self::P {
                B::$cast(t, dtype)
            }
            fn matmul(lhs: Self::P, rhs: Self::P) -> Self::P {
                B::$matmul(lhs, rhs)
            }
            fn clamp(t: Self::P, min: Scalar, max: Scalar) -> Self::P {
                B::$clamp(t, min, max)
            }
            fn clamp_min(t: Self::P, min: Scalar) -> Self::P {
                B::$clamp_min(t, min)
            }
            fn clamp_max(t: Self::P, max: Scalar) -> Self::P {
                B::$clamp_max(t, max)
            }
            fn reduce(op: ReduceOp, t: Self::P) -> Self::P {
                match op {
                    ReduceOp::Sum => B::$sum(t),
                    ReduceOp::Prod => B::$prod(t),
                    ReduceOp::Max => B::$max(t),
                    ReduceOp::Min => B::$min(t),
                }
            }
            fn reduce_dim(op: ReduceOp, t: Self::P, dim: usize) -> Self::P {
                match op {
                    ReduceOp::Sum => B::$sum_d(t, dim),
                    ReduceOp::Prod => B::$prod_d(t, dim),
                    ReduceOp::Max => B::$max_d(t, dim),
                    ReduceOp::Min => B::$min_d(t, dim),
                }
            }
            fn mean(t: Self::P) -> Self::P {
                B::$mean(t)
            }
            fn mean_dim(t: Self::P, dim: usize) -> Self::P {
                B::$mean_dim(t, dim)
            }
            fn arg_reduce(op: ArgReduceOp, t: Self::P, dim: usize) -> IntTensor<B> {
                match op {
                    ArgReduceOp::ArgMax => B::$argmax(t, dim),
                    ArgReduceOp::ArgMin => B::$argmin(t, dim),
                }
            }
            fn reduce_dim_with_indices(
                op: ArgReduceOp,
                t: Self::P,
                dim: usize,
            ) -> (Self::P, IntTensor<B>) {
                match op {
                    ArgReduceOp::ArgMax => B::$max_wi(t, dim),
                    ArgReduceOp::ArgMin => B::$min_wi(t, dim),
                }
            }
            fn any(t: Self::P, dim: Option<usize>) -> BoolTensor<B> {
                match dim {
                    Some(dim) => B::$any_dim(t, dim),
                    None => B::$any(t),
                }
            }
            fn all(t: Self::P, dim: Option<usize>) -> BoolTensor<B> {
                match dim {
                    Some(dim) => B::$all_dim(t, dim),
                    None => B::$all(t),
                }
            }
            fn cumulative(op: CumOp, t: Self::P, dim: usize) -> Self::P {
                match op {
                    CumOp::Sum => B::$cumsum(t, dim),
                    CumOp::Prod => B::$cumprod(t, dim),
                    CumOp::Max => B::$cummax(t, dim),
                    CumOp::Min => B::$cummin(t, dim),
                }
            }
            fn sort(t: Self::P, dim: usize, descending: bool) -> Self::P {
                B::$sort(t, dim, descending)
            }
            fn sort_with_indices(
                t: Self::P,
                dim: usize,
                descending: bool,
            ) -> (Self::P, IntTensor<B>) {
                B::$sort_wi(t, dim, descending)
            }
            fn argsort(t: Self::P, dim: usize, descending: bool) -> IntTensor<B> {
                B::$argsort(t, dim, descending)
            }
            fn topk_with_indices(t: Self::P, dim: usize, k: usize) -> (Self::P, IntTensor<B>) {
                B::$topk(t, dim, k)
            }
            fn scatter_add(
                dim: usize,
                t: Self::P,
                indices: IntTensor<B>,
                value: Self::P,
            ) -> Self::P {
                B::$scatter_add(dim, t, indices, value)
            }
            fn select_add(
                t: Self::P,
                dim: usize,
                indices: IntTensor<B>,
                value: Self::P,
            ) -> Self::P {
                B::$select_add(t, dim, indices, value)
            }
            fn mask_fill(t: Self::P, mask: BoolTensor<B>, value: Scalar) -> Self::P {
                B::$mask_fill(t, mask, value)
            }
            fn tril(t: Self::P, diagonal: i64) -> Self::P {
                B::$tril(t, diagonal)
            }
            fn triu(t: Self::P, diagonal: i64) -> Self::P {
                B::$triu(t, diagonal)
            }
        }
    };
}

num_kind!(FloatKind {
    binary: [
        float_add,
        float_sub,
        float_mul,
        float_div,
        float_remainder,
        float_powf,
        float_max_pair,
        float_min_pair
    ],
    binary_scalar: [
        float_add_scalar,
        float_sub_scalar,
        float_mul_scalar,
        float_div_scalar,
        float_remainder_scalar,
        float_powf_scalar,
        float_clamp_min,
        float_clamp_max
    ],
    compare: [
        float_equal,
        float_not_equal,
        float_greater,
        float_greater_equal,
        float_lower,
        float_lower_equal
    ],
    compare_scalar: [
        float_equal_elem,
        float_not_equal_elem,
        float_greater_elem,
        float_greater_equal_elem,
        float_lower_elem,
        float_lower_equal_elem
    ],
    reduce: [float_sum, float_prod, float_max, float_min],
    reduce_dim: [float_sum_dim, float_prod_dim, float_max_dim, float_min_dim],
    arg_reduce: [float_argmax, float_argmin],
    with_indices: [float_max_dim_with_indices, float_min_dim_with_indices],
    any: [float_any, float_any_dim],
    all: [float_all, float_all_dim],
    cumulative: [float_cumsum, float_cumprod, float_cummax, float_cummin],
    other: [
        float_cast,
        float_matmul,
        float_clamp,
        float_clamp_min,
        float_clamp_max,
        float_mean,
        float_mean_dim,
        float_sort,
        float_sort_with_indices,
        float_argsort,
        float_topk_with_indices,
        float_scatter_add,
        float_select_add,
        float_mask_fill,
        float_tril,
        float_triu
    ],
});

// An int to the power of an int scalar has no method of its own: the
// contract's scalar power of ints is `int_powf_scalar`.
num_kind!(IntKind {
    binary: [
        int_add,
        int_sub,
        int_mul,
        int_div,
        int_remainder,
        int_powi,
        int_max_pair,
        int_min_pair
    ],
    binary_scalar: [
        int_add_scalar,
        int_sub_scalar,
        int_mul_scalar,
        int_div_scalar,
        int_remainder_scalar,
        int_powf_scalar,
        int_clamp_min,
        int_clamp_max
    ],
    compare: [
        int_equal,
        int_not_equal,
        int_greater,
        int_greater_equal,
        int_lower,
        int_lower_equal
    ],
    compare_scalar: [
        int_equal_elem,
        int_not_equal_elem,
        int_greater_elem,
        int_greater_equal_elem,
        int_lower_elem,
        int_lower_equal_elem
    ],
    reduce: [int_sum, int_prod, int_max, int_min],
    reduce_dim: [int_sum_dim, int_prod_dim, int_max_dim, int_min_dim],
    arg_reduce: [int_argmax, int_argmin],
    with_indices: [int_max_dim_with_indices, int_min_dim_with_indices],
    any: [int_any, int_any_dim],
    all: [int_all, int_all_dim],
    cumulative: [int_cumsum, int_cumprod, int_cummax, int_cummin],
    other: [
        int_cast,
        int_matmul,
        int_clamp,
        int_clamp_min,
        int_clamp_max,
        int_mean,
        int_mean_dim,
        int_sort,
        int_sort_with_indices,
        int_argsort,
        int_topk_with_indices,
        int_scatter_add,
        int_select_add,
        int_mask_fill,
        int_tril,
        int_triu
    ],
});
