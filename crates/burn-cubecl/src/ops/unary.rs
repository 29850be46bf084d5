//! Unary element-wise kernels: one kernel per tensor kind, the op a
//! compile-time parameter, the dtype a run-time one.

use burn_backend::kernels::{BinaryKernels, UnaryKernels};
use burn_backend::{BitwiseOp, FloatUnaryOp, IntUnaryOp};
use cubecl::prelude::*;

use super::{Walk, elemwise_dims, strided_offset, walk};
use crate::client::with_runtime;
use crate::dtype;
use crate::{Cube, CubeTensor};

#[cube]
fn float_apply<F: Float, N: Size>(x: Vector<F, N>, #[comptime] op: FloatUnaryOp) -> Vector<F, N> {
    let zero = Vector::<F, N>::new(F::new(0.0));
    let one = Vector::<F, N>::new(F::new(1.0));
    let minus_one = Vector::<F, N>::new(F::new(-1.0));
    match op {
        // Unary minus on vectors does not compile on CUDA in cubecl 0.10;
        // × −1 is the same value, −0 and NaN included.
        FloatUnaryOp::Neg => x * minus_one,
        FloatUnaryOp::Recip => one / x,
        FloatUnaryOp::Abs => Vector::abs(x),
        FloatUnaryOp::Exp => Vector::exp(x),
        FloatUnaryOp::Log => Vector::ln(x),
        // Near zero, the series x − x²/2 + … + x⁷/7 (error below x⁸/8);
        // elsewhere Kahan's form log(u)·x/(u − 1), u = 1 + x. Some drivers'
        // log is only absolutely accurate near 1 (lavapipe's), which would
        // lose the relative precision of small results.
        FloatUnaryOp::Log1p => {
            let c2 = Vector::<F, N>::new(F::new(0.5));
            let c3 = Vector::<F, N>::new(F::new(1.0 / 3.0));
            let c4 = Vector::<F, N>::new(F::new(0.25));
            let c5 = Vector::<F, N>::new(F::new(0.2));
            let c6 = Vector::<F, N>::new(F::new(1.0 / 6.0));
            let c7 = Vector::<F, N>::new(F::new(1.0 / 7.0));
            let series = x * (one - x * (c2 - x * (c3 - x * (c4 - x * (c5 - x * (c6 - x * c7))))));
            let u = one + x;
            let d = u - one;
            let kahan = Vector::ln(u) * (x / select_many(d.equal(zero), one, d));
            select_many(
                Vector::abs(x).less_than(Vector::new(F::new(0.05))),
                series,
                kahan,
            )
        }
        FloatUnaryOp::Sqrt => Vector::sqrt(x),
        FloatUnaryOp::Sin => Vector::sin(x),
        FloatUnaryOp::Cos => Vector::cos(x),
        FloatUnaryOp::Tan => Vector::tan(x),
        FloatUnaryOp::Sinh => Vector::sinh(x),
        FloatUnaryOp::Cosh => Vector::cosh(x),
        FloatUnaryOp::Tanh => Vector::tanh(x),
        FloatUnaryOp::Asin => Vector::asin(x),
        FloatUnaryOp::Acos => Vector::acos(x),
        FloatUnaryOp::Atan => Vector::atan(x),
        FloatUnaryOp::Asinh => Vector::asinh(x),
        FloatUnaryOp::Acosh => Vector::acosh(x),
        FloatUnaryOp::Atanh => Vector::atanh(x),
        FloatUnaryOp::Erf => Vector::erf(x),
        FloatUnaryOp::Round => Vector::round(x),
        FloatUnaryOp::Floor => Vector::floor(x),
        FloatUnaryOp::Ceil => Vector::ceil(x),
        FloatUnaryOp::Trunc => Vector::trunc(x),
        // ±0 and NaN map to themselves.
        FloatUnaryOp::Sign => select_many(
            x.greater_than(zero),
            one,
            select_many(x.less_than(zero), minus_one, x),
        ),
    }
}

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
    out[pos] = float_apply::<F, N>(input[i], op);
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

impl UnaryKernels for Cube {
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
        Cube::bitwise_scalar(BitwiseOp::Xor, tensor, burn_std::Scalar::UInt(1))
    }
}
