//! Binary element-wise kernels (arithmetic, comparisons, bool logic), with
//! broadcasting through zero strides and a scalar variant of each.

use burn_backend::kernels::BinaryKernels;
use burn_backend::{BinaryOp, BitwiseOp, BoolOp, CmpOp, FloatBinaryOp};
use burn_std::{DType, Scalar};
use cubecl::prelude::*;

use burn_cubecl_fusion::math::{FloatOp, float_binary, float_powi, small_pow, strided_offset};

use super::{Walk, broadcast_shape, broadcast_to, elemwise_dims, walk};
use crate::client::with_runtime;
use crate::dtype::{self, BOOL};
use crate::{CubeBackend, CubeTensor};

/// What the int kernels compute: an op of every numeric dtype, or a
/// bitwise one (bool words use these too, as 0/1 integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IntOp {
    Numeric(BinaryOp),
    Bitwise(BitwiseOp),
}

/// A binary op with the kernel family that computes it.
#[derive(Clone, Copy, Debug)]
enum KernelOp {
    Float(FloatOp),
    Int(IntOp),
}

impl KernelOp {
    /// The kernel family of `dtype` for an op of every numeric dtype.
    fn numeric(op: BinaryOp, dtype: DType) -> Self {
        if dtype.is_float() {
            KernelOp::Float(FloatOp::Numeric(op))
        } else {
            KernelOp::Int(IntOp::Numeric(op))
        }
    }
}

// ------------------------------------------------------------------ floats

#[cube(launch_unchecked)]
fn float_binary_kernel<F: Float, N: Size>(
    lhs: &Tensor<Vector<F, N>>,
    rhs: &Tensor<Vector<F, N>>,
    out: &mut Tensor<Vector<F, N>>,
    len: usize,
    lhs_offset: usize,
    rhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: FloatOp,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    let mut r = rhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
        r = rhs_offset + strided_offset(rhs, out, pos, rank);
    }
    out[pos] = float_binary::<F, N>(lhs[l], rhs[r], op);
}

#[cube(launch_unchecked)]
fn float_scalar_kernel<F: Float, N: Size>(
    lhs: &Tensor<Vector<F, N>>,
    rhs: InputScalar,
    out: &mut Tensor<Vector<F, N>>,
    len: usize,
    lhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: FloatOp,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
    }
    let b = Vector::<F, N>::new(rhs.get::<F>());
    out[pos] = float_binary::<F, N>(lhs[l], b, op);
}

/// `x^e` for a small integral exponent known when the kernel is built:
/// exact products, as PyTorch computes `x ** 2` and `x ** 3`.
#[cube(launch_unchecked)]
fn float_powi_kernel<F: Float, N: Size>(
    lhs: &Tensor<Vector<F, N>>,
    out: &mut Tensor<Vector<F, N>>,
    len: usize,
    lhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] exponent: i32,
    #[define(F)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
    }
    out[pos] = float_powi::<F, N>(lhs[l], exponent);
}

// ---------------------------------------------------------------- integers

#[cube]
fn int_apply<I: Int, N: Size>(
    a: Vector<I, N>,
    b: Vector<I, N>,
    #[comptime] op: IntOp,
    #[comptime] signed: bool,
    #[comptime] bits: u32,
) -> Vector<I, N> {
    let zero = Vector::<I, N>::new(I::new(0));
    let one = Vector::<I, N>::new(I::new(1));
    let width = Vector::<I, N>::new(I::new(bits as i64));
    match op {
        IntOp::Numeric(BinaryOp::Add) => a + b,
        IntOp::Numeric(BinaryOp::Sub) => a - b,
        IntOp::Numeric(BinaryOp::Mul) => a * b,
        IntOp::Numeric(BinaryOp::Div) => {
            let q = a / b;
            if comptime![signed] {
                // Floor division: round toward −∞ when the signs differ.
                let r = a - q * b;
                let adjust = select_many(
                    r.not_equal(zero),
                    select_many(r.less_than(zero), one, zero)
                        ^ select_many(b.less_than(zero), one, zero),
                    zero,
                );
                q - adjust
            } else {
                q
            }
        }
        IntOp::Numeric(BinaryOp::Rem) => {
            let r = a - (a / b) * b;
            if comptime![signed] {
                let fix = select_many(
                    r.not_equal(zero),
                    select_many(r.less_than(zero), one, zero)
                        ^ select_many(b.less_than(zero), one, zero),
                    zero,
                );
                r + fix * b
            } else {
                r
            }
        }
        IntOp::Numeric(BinaryOp::Pow) => {
            // Square-and-multiply per lane, wrapping; exponents < 0 give
            // 0 except for bases 1 and -1 (integer reciprocal).
            let mut acc = one;
            let mut base = a;
            let mut e = b;
            #[unroll]
            for _ in 0..bits {
                let bit = e & one;
                acc = select_many(bit.equal(one), acc * base, acc);
                base = base * base;
                e = select_many(e.greater_than(zero), e >> one, zero);
            }
            if comptime![signed] {
                let neg_one = zero - one;
                let parity = b & one;
                let recip = select_many(
                    a.equal(one),
                    one,
                    select_many(
                        a.equal(neg_one),
                        select_many(parity.equal(zero), one, neg_one),
                        zero,
                    ),
                );
                select_many(b.less_than(zero), recip, acc)
            } else {
                acc
            }
        }
        IntOp::Numeric(BinaryOp::Max) => select_many(b.greater_than(a), b, a),
        IntOp::Numeric(BinaryOp::Min) => select_many(b.less_than(a), b, a),
        IntOp::Bitwise(BitwiseOp::And) => a & b,
        IntOp::Bitwise(BitwiseOp::Or) => a | b,
        IntOp::Bitwise(BitwiseOp::Xor) => a ^ b,
        IntOp::Bitwise(BitwiseOp::Shl) => {
            let out_of_range = select_many(
                b.less_than(zero),
                one,
                select_many(b.greater_equal(width), one, zero),
            );
            let shifted = a << select_many(out_of_range.equal(one), zero, b);
            select_many(out_of_range.equal(one), zero, shifted)
        }
        IntOp::Bitwise(BitwiseOp::Shr) => {
            let out_of_range = select_many(
                b.less_than(zero),
                one,
                select_many(b.greater_equal(width), one, zero),
            );
            let shifted = a >> select_many(out_of_range.equal(one), zero, b);
            let all_out = select_many(a.less_than(zero), zero - one, zero);
            select_many(out_of_range.equal(one), all_out, shifted)
        }
    }
}

#[cube(launch_unchecked)]
fn int_binary_kernel<I: Int, N: Size>(
    lhs: &Tensor<Vector<I, N>>,
    rhs: &Tensor<Vector<I, N>>,
    out: &mut Tensor<Vector<I, N>>,
    len: usize,
    lhs_offset: usize,
    rhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: IntOp,
    #[comptime] signed: bool,
    #[comptime] bits: u32,
    #[define(I)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    let mut r = rhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
        r = rhs_offset + strided_offset(rhs, out, pos, rank);
    }
    out[pos] = int_apply::<I, N>(lhs[l], rhs[r], op, signed, bits);
}

#[cube(launch_unchecked)]
fn int_scalar_kernel<I: Int, N: Size>(
    lhs: &Tensor<Vector<I, N>>,
    rhs: InputScalar,
    out: &mut Tensor<Vector<I, N>>,
    len: usize,
    lhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: IntOp,
    #[comptime] signed: bool,
    #[comptime] bits: u32,
    #[define(I)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
    }
    let b = Vector::<I, N>::new(rhs.get::<I>());
    out[pos] = int_apply::<I, N>(lhs[l], b, op, signed, bits);
}

// ------------------------------------------------------------- comparisons

#[cube]
fn compare_apply<T: Numeric, N: Size>(
    a: Vector<T, N>,
    b: Vector<T, N>,
    #[comptime] op: CmpOp,
) -> Vector<u32, N> {
    let one = Vector::<u32, N>::new(1u32);
    let zero = Vector::<u32, N>::new(0u32);
    match op {
        CmpOp::Eq => select_many(a.equal(b), one, zero),
        // `!(a == b)`: true when either is NaN, also on drivers whose `!=`
        // is an ordered compare (lavapipe's is).
        CmpOp::Ne => select_many(a.equal(b), zero, one),
        CmpOp::Gt => select_many(a.greater_than(b), one, zero),
        CmpOp::Ge => select_many(a.greater_equal(b), one, zero),
        CmpOp::Lt => select_many(a.less_than(b), one, zero),
        CmpOp::Le => select_many(a.less_equal(b), one, zero),
    }
}

#[cube(launch_unchecked)]
fn compare_kernel<T: Numeric, N: Size>(
    lhs: &Tensor<Vector<T, N>>,
    rhs: &Tensor<Vector<T, N>>,
    out: &mut Tensor<Vector<u32, N>>,
    len: usize,
    lhs_offset: usize,
    rhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: CmpOp,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    let mut r = rhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
        r = rhs_offset + strided_offset(rhs, out, pos, rank);
    }
    out[pos] = compare_apply::<T, N>(lhs[l], rhs[r], op);
}

#[cube(launch_unchecked)]
fn compare_scalar_kernel<T: Numeric, N: Size>(
    lhs: &Tensor<Vector<T, N>>,
    rhs: InputScalar,
    out: &mut Tensor<Vector<u32, N>>,
    len: usize,
    lhs_offset: usize,
    #[comptime] rank: usize,
    #[comptime] op: CmpOp,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut l = lhs_offset + pos;
    if comptime![rank > 0] {
        l = lhs_offset + strided_offset(lhs, out, pos, rank);
    }
    let b = Vector::<T, N>::new(rhs.get::<T>());
    out[pos] = compare_apply::<T, N>(lhs[l], b, op);
}

// ------------------------------------------------------------------- host

/// A scalar as a kernel argument of `dtype` (bools as `u32` words).
pub(crate) fn input_scalar(value: Scalar, dtype: DType) -> InputScalar {
    let ty = dtype::storage(dtype);
    if dtype.is_float() {
        InputScalar::new(value.to_f64(), ty)
    } else if dtype.is_unsigned() || dtype.is_bool() {
        match value {
            Scalar::Bool(b) => InputScalar::new(b as u64, ty),
            Scalar::Float(f) => InputScalar::new(f as u64, ty),
            Scalar::Int(i) => InputScalar::new(i as u64, ty),
            Scalar::UInt(u) => InputScalar::new(u, ty),
        }
    } else {
        InputScalar::new(value.to_i64(), ty)
    }
}

#[track_caller]
fn check_same_dtype(op: &str, lhs: &CubeTensor, rhs: &CubeTensor) {
    assert!(
        lhs.dtype == rhs.dtype,
        "{op}: operands have different dtypes ({} and {})",
        lhs.dtype,
        rhs.dtype
    );
}

/// The walk of an int kernel: integer pow loops per lane over the exponent
/// bits, and scalar lanes keep that unrolled body small.
fn int_walk(op: IntOp, w: Walk) -> Walk {
    if op == IntOp::Numeric(BinaryOp::Pow) {
        Walk { vector: 1, ..w }
    } else {
        w
    }
}

#[track_caller]
fn check_not_float(op: BitwiseOp, dtype: DType) {
    if dtype.is_float() {
        panic!("{op}: expected an int dtype, got {dtype}");
    }
}

/// Launches the kernel family of `op` over `lhs` and `rhs` (same dtype),
/// broadcast to their common shape.
#[track_caller]
fn zip(name: &str, op: KernelOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    let dtype = lhs.dtype;
    let shape = broadcast_shape(name, &lhs, &rhs);
    let lhs = broadcast_to(&lhs, &shape, name);
    let rhs = broadcast_to(&rhs, &shape, name);
    let out = lhs.empty_like(shape.clone(), dtype);
    let n = shape.num_elements();
    if n == 0 {
        return out;
    }
    let ty = dtype::storage(dtype);
    with_runtime!(&lhs.client, R, c => {
        let w = walk(c, &shape, dtype.size(), &[&lhs, &rhs]);
        match op {
            KernelOp::Float(op) => {
                let units = n / w.vector;
                let (count, dim) = elemwise_dims(c, units);
                unsafe {
                    float_binary_kernel::launch_unchecked::<R>(
                        c, count, dim, w.vector,
                        lhs.arg::<R>(), rhs.arg::<R>(), out.arg::<R>(),
                        units, lhs.offset / w.vector, rhs.offset / w.vector,
                        w.rank, op, ty,
                    );
                }
            }
            KernelOp::Int(op) => {
                let w = int_walk(op, w);
                let units = n / w.vector;
                let (count, dim) = elemwise_dims(c, units);
                unsafe {
                    int_binary_kernel::launch_unchecked::<R>(
                        c, count, dim, w.vector,
                        lhs.arg::<R>(), rhs.arg::<R>(), out.arg::<R>(),
                        units, lhs.offset / w.vector, rhs.offset / w.vector,
                        w.rank, op, dtype.is_signed(), (dtype.size() * 8) as u32, ty,
                    );
                }
            }
        }
    });
    out
}

/// Launches the kernel family of `op` over `lhs` and a scalar of its dtype.
fn zip_scalar(op: KernelOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
    let dtype = lhs.dtype;
    let out = lhs.empty_like(lhs.shape.clone(), dtype);
    let n = out.num_elements();
    if n == 0 {
        return out;
    }
    let ty = dtype::storage(dtype);
    let scalar = input_scalar(rhs, dtype);
    with_runtime!(&lhs.client, R, c => {
        let w = walk(c, &out.shape, dtype.size(), &[&lhs]);
        match op {
            KernelOp::Float(op) => {
                let units = n / w.vector;
                let (count, dim) = elemwise_dims(c, units);
                unsafe {
                    float_scalar_kernel::launch_unchecked::<R>(
                        c, count, dim, w.vector,
                        lhs.arg::<R>(), scalar, out.arg::<R>(),
                        units, lhs.offset / w.vector, w.rank, op, ty,
                    );
                }
            }
            KernelOp::Int(op) => {
                let w = int_walk(op, w);
                let units = n / w.vector;
                let (count, dim) = elemwise_dims(c, units);
                unsafe {
                    int_scalar_kernel::launch_unchecked::<R>(
                        c, count, dim, w.vector,
                        lhs.arg::<R>(), scalar, out.arg::<R>(),
                        units, lhs.offset / w.vector, w.rank, op,
                        dtype.is_signed(), (dtype.size() * 8) as u32, ty,
                    );
                }
            }
        }
    });
    out
}

/// `lhs^exponent` by [`float_powi_kernel`], for an exponent [`small_pow`] accepts.
fn powi(lhs: CubeTensor, exponent: i32) -> CubeTensor {
    let dtype = lhs.dtype;
    let out = lhs.empty_like(lhs.shape.clone(), dtype);
    let n = out.num_elements();
    if n == 0 {
        return out;
    }
    let ty = dtype::storage(dtype);
    with_runtime!(&lhs.client, R, c => {
        let w = walk(c, &out.shape, dtype.size(), &[&lhs]);
        let units = n / w.vector;
        let (count, dim) = elemwise_dims(c, units);
        unsafe {
            float_powi_kernel::launch_unchecked::<R>(
                c, count, dim, w.vector,
                lhs.arg::<R>(), out.arg::<R>(),
                units, lhs.offset / w.vector, w.rank, exponent, ty,
            );
        }
    });
    out
}

// ----------------------------------------------------------- BinaryKernels

impl BinaryKernels for CubeBackend {
    /// `lhs op rhs`, broadcasting; both operands share a dtype.
    #[track_caller]
    fn binary(op: BinaryOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        check_same_dtype(op.name(), &lhs, &rhs);
        let kernel = KernelOp::numeric(op, lhs.dtype);
        zip(op.name(), kernel, lhs, rhs)
    }

    /// `lhs op scalar`.
    #[track_caller]
    fn binary_scalar(op: BinaryOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
        let dtype = lhs.dtype;
        if dtype.is_float()
            && op == BinaryOp::Pow
            && let Some(exponent) = small_pow(rhs.to_f64())
        {
            return powi(lhs, exponent);
        }
        zip_scalar(KernelOp::numeric(op, dtype), lhs, rhs)
    }

    /// `lhs op rhs` of float tensors, broadcasting.
    #[track_caller]
    fn float_binary(op: FloatBinaryOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        check_same_dtype(op.name(), &lhs, &rhs);
        let dtype = lhs.dtype;
        if !dtype.is_float() {
            panic!("{op}: expected a float dtype, got {dtype}");
        }
        zip(op.name(), KernelOp::Float(FloatOp::Float(op)), lhs, rhs)
    }

    /// Bitwise `lhs op rhs` of int (or bool-as-u32) tensors, broadcasting.
    #[track_caller]
    fn bitwise(op: BitwiseOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        check_same_dtype(op.name(), &lhs, &rhs);
        check_not_float(op, lhs.dtype);
        zip(op.name(), KernelOp::Int(IntOp::Bitwise(op)), lhs, rhs)
    }

    /// Bitwise `lhs op scalar` of an int (or bool-as-u32) tensor.
    #[track_caller]
    fn bitwise_scalar(op: BitwiseOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
        check_not_float(op, lhs.dtype);
        zip_scalar(KernelOp::Int(IntOp::Bitwise(op)), lhs, rhs)
    }

    /// `lhs cmp rhs` as a bool tensor, broadcasting.
    #[track_caller]
    fn compare(op: CmpOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        let name = op.name();
        check_same_dtype(name, &lhs, &rhs);
        let dtype = lhs.dtype;
        let shape = broadcast_shape(name, &lhs, &rhs);
        let lhs = broadcast_to(&lhs, &shape, name);
        let rhs = broadcast_to(&rhs, &shape, name);
        let out = lhs.empty_like(shape.clone(), BOOL);
        let n = shape.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(dtype);
        with_runtime!(&lhs.client, R, c => {
            // The u32 output shares the input's vector width.
            let w = walk(c, &shape, dtype.size().max(4), &[&lhs, &rhs]);
            let units = n / w.vector;
            let (count, dim) = elemwise_dims(c, units);
            unsafe {
                compare_kernel::launch_unchecked::<R>(
                    c, count, dim, w.vector,
                    lhs.arg::<R>(), rhs.arg::<R>(), out.arg::<R>(),
                    units, lhs.offset / w.vector, rhs.offset / w.vector,
                    w.rank, op, ty,
                );
            }
        });
        out
    }

    /// `lhs cmp scalar` as a bool tensor.
    fn compare_scalar(op: CmpOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
        let dtype = lhs.dtype;
        let out = lhs.empty_like(lhs.shape.clone(), BOOL);
        let n = out.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(dtype);
        let scalar = input_scalar(rhs, dtype);
        with_runtime!(&lhs.client, R, c => {
            let w = walk(c, &out.shape, dtype.size().max(4), &[&lhs]);
            let units = n / w.vector;
            let (count, dim) = elemwise_dims(c, units);
            unsafe {
                compare_scalar_kernel::launch_unchecked::<R>(
                    c, count, dim, w.vector,
                    lhs.arg::<R>(), scalar, out.arg::<R>(),
                    units, lhs.offset / w.vector, w.rank, op, ty,
                );
            }
        });
        out
    }

    /// Logical ops on bool tensors (`u32` words 0/1).
    #[track_caller]
    fn bool_binary(op: BoolOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        let name = op.name();
        check_same_dtype(name, &lhs, &rhs);
        let bitwise = match op {
            BoolOp::And => BitwiseOp::And,
            BoolOp::Or => BitwiseOp::Or,
            BoolOp::Xor => BitwiseOp::Xor,
            BoolOp::Eq => return Self::compare(CmpOp::Eq, lhs, rhs),
        };
        zip(name, KernelOp::Int(IntOp::Bitwise(bitwise)), lhs, rhs)
    }
}
