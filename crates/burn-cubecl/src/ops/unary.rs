//! Unary element-wise kernels: one kernel per tensor kind, the op a
//! compile-time parameter, the dtype a run-time one.

use burn_backend::kernels::{BinaryKernels, UnaryKernels};
use burn_backend::{BitwiseOp, FloatUnaryOp, IntUnaryOp};
use cubecl::prelude::*;

use burn_cubecl_fusion::math::{float_unary, strided_offset};

use super::{Walk, elemwise_dims, walk};
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

#[cube(launch_unchecked)]
fn float_unary_kernel<F: Float, N: Size>(
    input: &Tensor<Vector<F, N>>,
    out: &mut Tensor<Vector<F, N>>,
    len: usize,
    offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: FloatUnaryOp,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut i = offset + pos;
    if comptime![rank > 0] {
        i = offset + strided_offset(input, out, pos, rank);
    }
    out[pos] = float_unary::<F, N>(input[i], op);
}

#[cube]
fn int_apply<I: Int, N: Size>(
    x: Vector<I, N>,
    #[comptime] op: IntUnaryOp,
    #[comptime] signed: bool,
) -> Vector<I, N> {
    let zero = Vector::<I, N>::new(I::new(0));
    let one = Vector::<I, N>::new(I::new(1));
    match op {
        IntUnaryOp::Neg => zero - x,
        IntUnaryOp::Abs => {
            if comptime![signed] {
                select_many(x.less_than(zero), zero - x, x)
            } else {
                x
            }
        }
        IntUnaryOp::Sign => {
            if comptime![signed] {
                select_many(
                    x.greater_than(zero),
                    one,
                    select_many(x.less_than(zero), zero - one, zero),
                )
            } else {
                select_many(x.greater_than(zero), one, zero)
            }
        }
        IntUnaryOp::BitNot => !x,
    }
}

#[cube(launch_unchecked)]
fn int_unary_kernel<I: Int, N: Size>(
    input: &Tensor<Vector<I, N>>,
    out: &mut Tensor<Vector<I, N>>,
    len: usize,
    offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: IntUnaryOp,
    #[comptime] signed: bool,
    #[define(I)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut i = offset + pos;
    if comptime![rank > 0] {
        i = offset + strided_offset(input, out, pos, rank);
    }
    out[pos] = int_apply::<I, N>(input[i], op, signed);
}

fn launch_float<R: Runtime>(
    c: &ComputeClient<R>,
    input: &CubeTensor,
    out: &CubeTensor,
    w: Walk,
    op: FloatUnaryOp,
    ty: StorageType,
) {
    let units = out.num_elements() / w.vector;
    let (count, dim) = elemwise_dims(c, units);
    unsafe {
        float_unary_kernel::launch_unchecked::<R>(
            c,
            count,
            dim,
            w.vector,
            input.arg::<R>(),
            out.arg::<R>(),
            units,
            input.offset / w.vector,
            w.rank,
            op,
            ty,
        );
    }
}

// ------------------------------------------------------------ UnaryKernels

impl UnaryKernels for CubeBackend {
    /// Applies `op` to every element of a float tensor.
    fn float_unary(op: FloatUnaryOp, tensor: CubeTensor) -> CubeTensor {
        assert!(
            tensor.dtype.is_float(),
            "{op}: expected a float tensor, got {}",
            tensor.dtype
        );
        let out = tensor.empty_like(tensor.shape.clone(), tensor.dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(tensor.dtype);
        with_runtime!(&tensor.client, R, c => {
            let w = walk(c, &out.shape, tensor.dtype.size(), &[&tensor]);
            launch_float::<R>(c, &tensor, &out, w, op, ty);
        });
        out
    }

    /// Applies `op` to every element of an int (or bool-as-u32) tensor.
    fn int_unary(op: IntUnaryOp, tensor: CubeTensor) -> CubeTensor {
        let dtype = tensor.dtype;
        assert!(
            dtype.is_int() || dtype.is_bool(),
            "{op}: expected an int tensor, got {dtype}"
        );
        let out = tensor.empty_like(tensor.shape.clone(), dtype);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(dtype);
        let signed = dtype.is_signed();
        with_runtime!(&tensor.client, R, c => {
            let w = walk(c, &out.shape, dtype.size(), &[&tensor]);
            let units = n / w.vector;
            let (count, dim) = elemwise_dims(c, units);
            unsafe {
                int_unary_kernel::launch_unchecked::<R>(
                    c,
                    count,
                    dim,
                    w.vector,
                    tensor.arg::<R>(),
                    out.arg::<R>(),
                    units,
                    tensor.offset / w.vector,
                    w.rank,
                    op,
                    signed,
                    ty,
                );
            }
        });
        out
    }

    /// Logical not of a bool tensor (`u32` words 0/1).
    fn logical_not(tensor: CubeTensor) -> CubeTensor {
        CubeBackend::bitwise_scalar(BitwiseOp::Xor, tensor, burn_std::Scalar::UInt(1))
    }
}
