//! `BoolTensorOps` of the router: one recorded operation a method.

use alloc::vec::Vec;

use burn_backend::ops::vocabulary::BoolOp;
use burn_backend::{BoolTensorOps, ExecutionError, TensorMetadata};
use burn_ir::{BoolOperationIr, OperationIr, TensorKind};
use burn_std::{DType, Scalar, Shape, Slice, TensorData};

use super::{Recorder, base, binary, scalar_shape, unary, with_dim};
use crate::{BackendRouter, RouterTensor, RunnerChannel};

type T = RouterTensor;
const K: TensorKind = TensorKind::Bool;

fn boolean(op: BoolOperationIr) -> OperationIr {
    OperationIr::Bool(op)
}

/// Element-wise logic with broadcasting.
fn logic(op: BoolOp, lhs: T, rhs: T) -> T {
    let dtype = lhs.client().bool_dtype();
    binary(op.name(), lhs, rhs, dtype, |desc| {
        boolean(BoolOperationIr::Binary { op, desc })
    })
}

/// Whether any (`all == false`) or every element, along `dim` or of the
/// whole tensor, is true.
fn any_all(tensor: T, dim: Option<usize>, all: bool) -> T {
    let name = if all { "bool_all" } else { "bool_any" };
    let shape = match dim {
        Some(dim) => with_dim(name, &tensor.shape(), dim, 1),
        None => scalar_shape(),
    };
    let mut rec = Recorder::new(name, &tensor);
    let out = rec.output(shape, tensor.client().bool_dtype());
    let (input, out_ir) = (rec.input(tensor), out.ir_uninit());
    let op = if all {
        BoolOperationIr::All {
            input,
            dim,
            out: out_ir,
        }
    } else {
        BoolOperationIr::Any {
            input,
            dim,
            out: out_ir,
        }
    };
    rec.register(boolean(op));
    out
}

/// The positions of the true elements, `[count, rank]`. The count depends
/// on the values, so the recording side cannot know the output's shape: the
/// tensor is read back and the positions are uploaded (on a recorder that
/// holds no values, graph capture, the read is an error).
fn argwhere(tensor: T) -> T {
    let client = tensor.client().clone();
    let shape = tensor.shape();
    let data = base::into_data(tensor)
        .unwrap_or_else(|error| panic!("bool_argwhere: reading the mask back failed: {error}"));
    let flags = data
        .convert_dtype(DType::U8)
        .into_vec::<u8>()
        .unwrap_or_else(|error| panic!("bool_argwhere: unreadable mask data: {error:?}"));
    let rank = shape.num_dims();
    let mut positions: Vec<i64> = Vec::new();
    let mut index = alloc::vec![0usize; rank];
    for (linear, &flag) in flags.iter().enumerate() {
        if flag != 0 {
            let mut rest = linear;
            for d in (0..rank).rev() {
                index[d] = rest % shape.dims[d];
                rest /= shape.dims[d];
            }
            positions.extend(index.iter().map(|&i| i as i64));
        }
    }
    let count = positions.len() / rank.max(1);
    let data = TensorData::new(positions, [count, rank]).convert_dtype(client.index_dtype());
    base::from_data(client, data)
}

impl<C: RunnerChannel> BoolTensorOps<Self> for BackendRouter<C> {
    fn bool_from_data(data: TensorData, device: &C::Device) -> T {
        if !data.dtype.is_bool() {
            panic!("bool_from_data: expected a bool dtype, got {}", data.dtype);
        }
        // Recorded in the device's bool dtype, which the backend stores
        // (the CubeCL backend keeps bools as u32 words).
        let client = C::client(device);
        let dtype = client.bool_dtype();
        let data = if data.dtype == dtype {
            data
        } else {
            data.convert_dtype(dtype)
        };
        base::from_data(client, data)
    }
    fn bool_full(shape: Shape, value: bool, device: &C::Device) -> T {
        let client = C::client(device);
        let dtype = client.bool_dtype();
        base::full(client, shape, Scalar::Bool(value), dtype)
    }
    fn bool_zeros(shape: Shape, device: &C::Device) -> T {
        Self::bool_full(shape, false, device)
    }
    fn bool_ones(shape: Shape, device: &C::Device) -> T {
        Self::bool_full(shape, true, device)
    }
    fn bool_empty(shape: Shape, device: &C::Device) -> T {
        let client = C::client(device);
        let dtype = client.bool_dtype();
        base::empty(client, shape, dtype)
    }
    fn bool_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        base::into_data(tensor)
    }
    fn bool_device(tensor: &T) -> C::Device {
        C::device(&**tensor.client())
    }
    fn bool_to_device(tensor: T, device: &C::Device) -> T {
        base::to_client("bool_to_device", tensor, C::client(device))
    }
    fn bool_into_int(tensor: T, dtype: DType) -> T {
        unary("bool_into_int", tensor, dtype, |desc| {
            boolean(BoolOperationIr::IntoInt(desc))
        })
    }
    fn bool_into_float(tensor: T, dtype: DType) -> T {
        unary("bool_into_float", tensor, dtype, |desc| {
            boolean(BoolOperationIr::IntoFloat(desc))
        })
    }

    fn bool_reshape(tensor: T, shape: Shape) -> T {
        base::reshape(K, tensor, shape)
    }
    fn bool_permute(tensor: T, axes: &[usize]) -> T {
        base::permute(K, tensor, axes)
    }
    fn bool_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        base::swap_dims(K, tensor, dim1, dim2)
    }
    fn bool_flip(tensor: T, axes: &[usize]) -> T {
        base::flip(K, tensor, axes)
    }
    fn bool_expand(tensor: T, shape: Shape) -> T {
        base::expand(K, tensor, shape)
    }
    fn bool_slice(tensor: T, slices: &[Slice]) -> T {
        base::slice(K, tensor, slices)
    }
    fn bool_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        base::slice_assign(K, tensor, slices, value)
    }
    fn bool_narrow(tensor: T, dim: usize, start: usize, length: usize) -> T {
        base::narrow(K, tensor, dim, start, length)
    }
    fn bool_cat(tensors: Vec<T>, dim: usize) -> T {
        base::cat(K, tensors, dim)
    }
    fn bool_repeat_dim(tensor: T, dim: usize, times: usize) -> T {
        base::repeat_dim(K, tensor, dim, times)
    }
    fn bool_select(tensor: T, dim: usize, indices: T) -> T {
        base::select(K, tensor, dim, indices)
    }
    fn bool_gather(dim: usize, tensor: T, indices: T) -> T {
        base::gather(K, dim, tensor, indices)
    }
    fn bool_mask_where(tensor: T, mask: T, value: T) -> T {
        base::mask_where(K, tensor, mask, value)
    }

    fn bool_not(tensor: T) -> T {
        let dtype = tensor.client().bool_dtype();
        unary("bool_not", tensor, dtype, |desc| {
            boolean(BoolOperationIr::Not(desc))
        })
    }
    fn bool_and(lhs: T, rhs: T) -> T {
        logic(BoolOp::And, lhs, rhs)
    }
    fn bool_or(lhs: T, rhs: T) -> T {
        logic(BoolOp::Or, lhs, rhs)
    }
    fn bool_xor(lhs: T, rhs: T) -> T {
        logic(BoolOp::Xor, lhs, rhs)
    }
    fn bool_equal(lhs: T, rhs: T) -> T {
        logic(BoolOp::Eq, lhs, rhs)
    }
    fn bool_not_equal(lhs: T, rhs: T) -> T {
        // Unequal bools are exactly one true.
        logic(BoolOp::Xor, lhs, rhs)
    }
    fn bool_any(tensor: T) -> T {
        any_all(tensor, None, false)
    }
    fn bool_any_dim(tensor: T, dim: usize) -> T {
        any_all(tensor, Some(dim), false)
    }
    fn bool_all(tensor: T) -> T {
        any_all(tensor, None, true)
    }
    fn bool_all_dim(tensor: T, dim: usize) -> T {
        any_all(tensor, Some(dim), true)
    }
    fn bool_argwhere(tensor: T) -> T {
        argwhere(tensor)
    }
}
