//! Indexed reads and writes: gather, scatter_add, select, select_add,
//! mask_where, mask_fill, argwhere.
//!
//! Every kernel runs one thread per output element and reads its operands
//! through their strides and element offsets, so permuted, sliced and
//! broadcast views need no copy first.
//!
//! - `gather` and `select` share one kernel: `select` is a gather whose
//!   index tensor is a view of the 1-D indices with zero strides outside
//!   `dim`.
//! - `scatter_add` and `select_add` share one kernel of the same kind. It
//!   needs no atomics (WGSL has no float atomics) and is deterministic: the
//!   thread of an output element walks the index dim in ascending order and
//!   adds every contribution whose index names its coordinate, starting from
//!   the tensor's value. That is the order in which Flex adds duplicates, so
//!   float sums match it bit for bit (halves accumulate in `f32` and round
//!   once, as Flex does). The price is `O(output elements × index length)`
//!   work instead of `O(index elements)`.
//! - Index tensors may hold any integer dtype; the kernels read them in that
//!   dtype (64-bit indices are compared in 64 bits, narrower ones after a
//!   sign check in `usize`).
//!
//! **Out-of-range indices.** Flex panics on a negative or too large index.
//! A kernel cannot panic, and checking on the host would need a read-back
//! of every index tensor, so the device rule is: `gather`/`select` write
//! zero (`0`, `0.0` or `false`) for an out-of-range index, and
//! `scatter_add`/`select_add` skip the contribution of an out-of-range
//! index. Nothing is ever read or written out of bounds. Shape, rank and
//! dtype errors are still checked on the host and panic with Flex's
//! messages.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::check;
use burn_backend::kernels::IndexKernels;
use burn_std::{DType, Scalar, Shape, TensorData, bf16, f16};
use cubecl::prelude::*;

use super::{elemwise_dims, strided_offset, walk};
use crate::client::with_runtime;
use crate::dtype::{self, BOOL};
use crate::{CubeBackend, CubeTensor};

// ----------------------------------------------------------------- kernels

/// Whether index `k` lies in `0..size`. `wide`: `I` is a 64-bit type,
/// compared as is (`usize` may be 32 bits); narrower types are
/// sign-checked, then compared as `usize` (where they always fit).
#[cube]
fn index_in_range<I: Int>(k: I, size: usize, #[comptime] wide: bool) -> bool {
    if comptime![wide] {
        k >= I::from_int(0) && k < I::cast_from(size)
    } else {
        k >= I::from_int(0) && usize::cast_from(k) < size
    }
}

/// Whether index `k` equals `coord` (`wide` as in [`index_in_range`]).
#[cube]
fn index_is<I: Int>(k: I, coord: usize, #[comptime] wide: bool) -> bool {
    if comptime![wide] {
        k == I::cast_from(coord)
    } else {
        k >= I::from_int(0) && usize::cast_from(k) == coord
    }
}

/// `out[p] = input[p with dim replaced by indices[p]]` for every row-major
/// position `p` of `out`; `indices` is read through its strides in `out`'s
/// coordinates (zero strides outside `dim` for `select`). An out-of-range
/// index writes zero.
#[cube(launch_unchecked)]
fn gather_kernel<T: Numeric, I: Int>(
    input: &Tensor<T>,
    indices: &Tensor<I>,
    out: &mut Tensor<T>,
    len: usize,
    input_offset: usize,
    indices_offset: usize,
    dim_size: usize,
    #[comptime] rank: usize,
    #[comptime] dim: usize,
    #[comptime] wide: bool,
    #[define(T, I)] _dtypes: [StorageType; 2],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut rem = pos;
    let mut src = input_offset;
    let mut at = indices_offset;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        let size = out.shape(d);
        let coord = rem % size;
        rem /= size;
        at += coord * indices.stride(d);
        if comptime![d != dim] {
            src += coord * input.stride(d);
        }
    }
    let k = indices[at];
    if index_in_range::<I>(k, dim_size, wide) {
        out[pos] = input[src + usize::cast_from(k) * input.stride(dim)];
    } else {
        out[pos] = T::from_int(0);
    }
}

/// `out[c] = tensor[c] + Σ value[p]` over the positions `p` of `indices`'
/// shape that equal `c` outside `dim` and whose index `indices[p]` equals
/// `c[dim]`, summed in ascending order along `dim` in the accumulator type
/// `A`. Out-of-range indices match no coordinate and add nothing.
#[cube(launch_unchecked)]
fn add_along_kernel<T: Numeric, A: Numeric, I: Int>(
    tensor: &Tensor<T>,
    value: &Tensor<T>,
    indices: &Tensor<I>,
    out: &mut Tensor<T>,
    len: usize,
    tensor_offset: usize,
    value_offset: usize,
    indices_offset: usize,
    #[comptime] rank: usize,
    #[comptime] dim: usize,
    #[comptime] wide: bool,
    #[define(T, A, I)] _dtypes: [StorageType; 3],
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut rem = pos;
    let mut t_at = tensor_offset;
    let mut v_at = value_offset;
    let mut i_at = indices_offset;
    let mut target = 0;
    let mut inside = true;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        let size = out.shape(d);
        let coord = rem % size;
        rem /= size;
        t_at += coord * tensor.stride(d);
        if comptime![d == dim] {
            target = coord;
        } else {
            // The index positions only cover `indices.shape(d)` along d.
            inside = inside && coord < indices.shape(d);
            v_at += coord * value.stride(d);
            i_at += coord * indices.stride(d);
        }
    }
    let mut acc = A::cast_from(tensor[t_at]);
    if inside {
        let count = indices.shape(dim);
        let v_step = value.stride(dim);
        let i_step = indices.stride(dim);
        for j in 0..count {
            let k = indices[i_at + j * i_step];
            if index_is::<I>(k, target, wide) {
                acc += A::cast_from(value[v_at + j * v_step]);
            }
        }
    }
    out[pos] = T::cast_from(acc);
}

/// `out = mask != 0 ? value : tensor`, all three views of `out`'s shape.
#[cube(launch_unchecked)]
fn mask_where_kernel<T: Numeric, N: Size>(
    tensor: &Tensor<Vector<T, N>>,
    mask: &Tensor<Vector<u32, N>>,
    value: &Tensor<Vector<T, N>>,
    out: &mut Tensor<Vector<T, N>>,
    len: usize,
    tensor_offset: usize,
    mask_offset: usize,
    value_offset: usize,
    #[comptime] rank: usize,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut t = tensor_offset + pos;
    let mut m = mask_offset + pos;
    let mut v = value_offset + pos;
    if comptime![rank > 0] {
        t = tensor_offset + strided_offset(tensor, out, pos, rank);
        m = mask_offset + strided_offset(mask, out, pos, rank);
        v = value_offset + strided_offset(value, out, pos, rank);
    }
    let set = mask[m].not_equal(Vector::new(0u32));
    out[pos] = select_many(set, value[v], tensor[t]);
}

/// `out = mask != 0 ? fill : tensor`, both views of `out`'s shape.
#[cube(launch_unchecked)]
fn mask_fill_kernel<T: Numeric, N: Size>(
    tensor: &Tensor<Vector<T, N>>,
    mask: &Tensor<Vector<u32, N>>,
    fill: InputScalar,
    out: &mut Tensor<Vector<T, N>>,
    len: usize,
    tensor_offset: usize,
    mask_offset: usize,
    #[comptime] rank: usize,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut t = tensor_offset + pos;
    let mut m = mask_offset + pos;
    if comptime![rank > 0] {
        t = tensor_offset + strided_offset(tensor, out, pos, rank);
        m = mask_offset + strided_offset(mask, out, pos, rank);
    }
    let set = mask[m].not_equal(Vector::new(0u32));
    out[pos] = select_many(set, Vector::new(fill.get::<T>()), tensor[t]);
}

// ----------------------------------------------------------------- helpers

/// Shared launcher of `gather` and `select`: `indices` is a view of `shape`
/// (the output's) whose strides say where each output element finds its
/// index.
fn gather_along(tensor: &CubeTensor, dim: usize, shape: Shape, indices: &CubeTensor) -> CubeTensor {
    let dtype = tensor.dtype;
    let out = tensor.empty_like(shape, dtype);
    let n = out.num_elements();
    if n == 0 {
        return out;
    }
    let rank = out.shape.num_dims();
    let dim_size = tensor.shape.dims[dim];
    let types = [dtype::storage(dtype), dtype::storage(indices.dtype)];
    let wide = indices.dtype.size() == 8;
    with_runtime!(&tensor.client, R, c => {
        let (count, cube_dim) = elemwise_dims(c, n);
        unsafe {
            gather_kernel::launch_unchecked::<R>(
                c, count, cube_dim,
                tensor.arg::<R>(), indices.arg::<R>(), out.arg::<R>(),
                n, tensor.offset, indices.offset, dim_size,
                rank, dim, wide, types,
            );
        }
    });
    out
}

/// Shared launcher of `scatter_add` and `select_add`: `indices` is a view
/// whose shape is the set of contributing positions and whose strides say
/// where each finds its index; `value` is read at the same positions.
fn add_along(
    tensor: &CubeTensor,
    dim: usize,
    value: &CubeTensor,
    indices: &CubeTensor,
) -> CubeTensor {
    let dtype = tensor.dtype;
    let out = tensor.empty_like(tensor.shape.clone(), dtype);
    let n = out.num_elements();
    if n == 0 {
        return out;
    }
    let rank = out.shape.num_dims();
    // Halves add in f32 and round once per output element, as Flex does.
    let acc = if matches!(dtype, DType::F16 | DType::BF16) {
        DType::F32
    } else {
        dtype
    };
    let types = [
        dtype::storage(dtype),
        dtype::storage(acc),
        dtype::storage(indices.dtype),
    ];
    let wide = indices.dtype.size() == 8;
    with_runtime!(&tensor.client, R, c => {
        let (count, cube_dim) = elemwise_dims(c, n);
        unsafe {
            add_along_kernel::launch_unchecked::<R>(
                c, count, cube_dim,
                tensor.arg::<R>(), value.arg::<R>(), indices.arg::<R>(), out.arg::<R>(),
                n, tensor.offset, value.offset, indices.offset,
                rank, dim, wide, types,
            );
        }
    });
    out
}

/// The 1-D `indices` seen with `shape`: its own stride along `dim`, zero
/// elsewhere, so position `p` reads `indices[p[dim]]`.
fn along(indices: &CubeTensor, shape: &Shape, dim: usize) -> CubeTensor {
    let mut strides = vec![0; shape.num_dims()];
    strides[dim] = indices.strides[0];
    let mut view = indices.clone();
    view.shape = shape.clone();
    view.strides = strides;
    view
}

/// `t` broadcast to `shape` (NumPy rules: missing leading dims and dims of
/// size 1 get stride 0). The caller has checked that it broadcasts.
fn view_as(t: &CubeTensor, shape: &Shape) -> CubeTensor {
    if t.shape == *shape {
        return t.clone();
    }
    let rank = shape.num_dims();
    let extra = rank - t.shape.num_dims();
    let strides = (0..rank)
        .map(|d| {
            if d < extra || t.shape.dims[d - extra] != shape.dims[d] {
                0
            } else {
                t.strides[d - extra]
            }
        })
        .collect();
    let mut view = t.clone();
    view.shape = shape.clone();
    view.strides = strides;
    view
}

#[track_caller]
fn one_dim_indices(op: &str, indices: &CubeTensor) {
    if indices.shape.num_dims() != 1 {
        panic!("{op}: indices must be 1-D, got shape {}", indices.shape);
    }
}

#[track_caller]
fn int_indices(op: &str, indices: &CubeTensor) {
    if !indices.dtype.is_int() {
        panic!("{op}: expected an integer dtype, got {}", indices.dtype);
    }
}

#[track_caller]
fn bool_mask(op: &str, mask: &CubeTensor) {
    if !mask.dtype.is_bool() {
        panic!("{op}: expected a bool mask, got {}", mask.dtype);
    }
}

#[track_caller]
fn numeric(op: &str, dtype: DType) {
    if dtype.is_bool() {
        panic!("{op}: expected a numeric dtype, got {dtype}");
    }
}

/// The scalar converted to `dtype` (Burn's saturating element rules; bools
/// as `u32` words 0/1), as a kernel argument.
fn scalar_as(value: Scalar, dtype: DType) -> InputScalar {
    let ty = dtype::storage(dtype);
    match dtype {
        DType::F64 => InputScalar::new(value.elem::<f64>(), ty),
        DType::F32 => InputScalar::new(value.elem::<f32>(), ty),
        // The f32 round trip of a half is exact.
        DType::F16 => InputScalar::new(value.elem::<f16>().to_f32(), ty),
        DType::BF16 => InputScalar::new(value.elem::<bf16>().to_f32(), ty),
        DType::I64 => InputScalar::new(value.elem::<i64>(), ty),
        DType::I32 => InputScalar::new(value.elem::<i32>(), ty),
        DType::I16 => InputScalar::new(value.elem::<i16>(), ty),
        DType::I8 => InputScalar::new(value.elem::<i8>(), ty),
        DType::U64 => InputScalar::new(value.elem::<u64>(), ty),
        DType::U32 => InputScalar::new(value.elem::<u32>(), ty),
        DType::U16 => InputScalar::new(value.elem::<u16>(), ty),
        DType::U8 => InputScalar::new(value.elem::<u8>(), ty),
        DType::Bool(_) => InputScalar::new(u32::from(value.to_bool()), dtype::storage(BOOL)),
        DType::QFloat(scheme) => panic!("cube: no scalar of quantized dtype {scheme}"),
    }
}

// ------------------------------------------------------------ IndexKernels

impl IndexKernels for CubeBackend {
    /// Gathers along `dim`: `out[.., i, ..] = tensor[.., indices[.., i, ..], ..]`
    /// (`torch.gather`); the output has the indices' shape. An out-of-range
    /// index gives zero (Flex panics; see the module docs).
    fn gather(dim: usize, tensor: CubeTensor, indices: CubeTensor) -> CubeTensor {
        let op = "gather";
        check::gather(op, dim, &tensor.shape, &indices.shape);
        int_indices(op, &indices);
        let shape = indices.shape.clone();
        gather_along(&tensor, dim, shape, &indices)
    }

    /// Scatters with addition along `dim` (`torch.scatter_add`):
    /// `out[.., indices[.., i, ..], ..] += value[.., i, ..]`. Duplicate indices
    /// accumulate in row-major order of `indices`; integers wrap. Out-of-range
    /// indices add nothing (Flex panics; see the module docs).
    fn scatter_add(
        dim: usize,
        tensor: CubeTensor,
        indices: CubeTensor,
        value: CubeTensor,
    ) -> CubeTensor {
        let op = "scatter_add";
        check::gather(op, dim, &tensor.shape, &indices.shape);
        let (ishape, vshape) = (&indices.shape, &value.shape);
        let fits = ishape.num_dims() == vshape.num_dims()
            && ishape.dims.iter().zip(&vshape.dims).all(|(&i, &v)| i <= v);
        if !fits {
            panic!("{op}: indices {ishape} must not exceed value {vshape} in any dim");
        }
        check::same_dtype(op, tensor.dtype, value.dtype);
        int_indices(op, &indices);
        numeric(op, tensor.dtype);
        add_along(&tensor, dim, &value, &indices)
    }

    /// Selects slices of `dim` by a 1-D index tensor (`torch.index_select`);
    /// indices may repeat. An out-of-range index gives a slice of zeros (Flex
    /// panics; see the module docs).
    fn select(tensor: CubeTensor, dim: usize, indices: CubeTensor) -> CubeTensor {
        let op = "select";
        check::dim(op, dim, &tensor.shape);
        one_dim_indices(op, &indices);
        int_indices(op, &indices);
        let mut shape = tensor.shape.clone();
        shape.dims[dim] = indices.shape.dims[0];
        let view = along(&indices, &shape, dim);
        gather_along(&tensor, dim, shape, &view)
    }

    /// Adds `value`'s slices into the selected slices of `dim` (`torch.index_add`):
    /// `out[.., indices[j], ..] += value[.., j, ..]`; duplicates accumulate in
    /// order of `j`. Out-of-range indices add nothing (Flex panics; see the
    /// module docs).
    fn select_add(
        tensor: CubeTensor,
        dim: usize,
        indices: CubeTensor,
        value: CubeTensor,
    ) -> CubeTensor {
        let op = "select_add";
        check::dim(op, dim, &tensor.shape);
        one_dim_indices(op, &indices);
        let (tshape, vshape) = (&tensor.shape, &value.shape);
        let n = indices.shape.dims[0];
        let fits = tshape.num_dims() == vshape.num_dims()
            && (0..tshape.num_dims())
                .all(|d| vshape.dims[d] == if d == dim { n } else { tshape.dims[d] });
        if !fits {
            panic!(
                "{op}: value {vshape} must match tensor {tshape} outside dim {dim} and have {n} (the number of indices) along it"
            );
        }
        check::same_dtype(op, tensor.dtype, value.dtype);
        int_indices(op, &indices);
        numeric(op, tensor.dtype);
        let view = along(&indices, vshape, dim);
        add_along(&tensor, dim, &value, &view)
    }

    /// `value` where `mask`, `tensor` elsewhere (all three broadcast to one
    /// shape).
    fn mask_where(tensor: CubeTensor, mask: CubeTensor, value: CubeTensor) -> CubeTensor {
        let op = "mask_where";
        bool_mask(op, &mask);
        check::same_dtype(op, tensor.dtype, value.dtype);
        let (t, m, v) = (&tensor.shape, &mask.shape, &value.shape);
        let Ok(shape) = t.broadcast(m).and_then(|s| s.broadcast(v)) else {
            panic!("{op}: tensor {t}, mask {m} and value {v} cannot be broadcast together");
        };
        let dtype = tensor.dtype;
        let tensor = view_as(&tensor, &shape);
        let mask = view_as(&mask, &shape);
        let value = view_as(&value, &shape);
        let out = tensor.empty_like(shape.clone(), dtype);
        let n = shape.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(dtype);
        with_runtime!(&tensor.client, R, c => {
            // The u32 mask shares the vector width of the data.
            let w = walk(c, &shape, dtype.size().max(4), &[&tensor, &mask, &value]);
            let units = n / w.vector;
            let (count, cube_dim) = elemwise_dims(c, units);
            unsafe {
                mask_where_kernel::launch_unchecked::<R>(
                    c, count, cube_dim, w.vector,
                    tensor.arg::<R>(), mask.arg::<R>(), value.arg::<R>(), out.arg::<R>(),
                    units,
                    tensor.offset / w.vector, mask.offset / w.vector, value.offset / w.vector,
                    w.rank, ty,
                );
            }
        });
        out
    }

    /// `value` where `mask`, `tensor` elsewhere; the mask broadcasts to the
    /// tensor's shape, and the scalar is converted to the tensor's dtype with
    /// Burn's saturating element rules (bools: nonzero is true).
    fn mask_fill(tensor: CubeTensor, mask: CubeTensor, value: Scalar) -> CubeTensor {
        let op = "mask_fill";
        bool_mask(op, &mask);
        let shape = tensor.shape.clone();
        if shape.broadcast(&mask.shape).ok().as_ref() != Some(&shape) {
            panic!(
                "{op}: mask {} cannot be broadcast to tensor {shape}",
                mask.shape
            );
        }
        let dtype = tensor.dtype;
        let mask = view_as(&mask, &shape);
        let out = tensor.empty_like(shape.clone(), dtype);
        let n = shape.num_elements();
        if n == 0 {
            return out;
        }
        let ty = dtype::storage(dtype);
        let fill = scalar_as(value, dtype);
        with_runtime!(&tensor.client, R, c => {
            let w = walk(c, &shape, dtype.size().max(4), &[&tensor, &mask]);
            let units = n / w.vector;
            let (count, cube_dim) = elemwise_dims(c, units);
            unsafe {
                mask_fill_kernel::launch_unchecked::<R>(
                    c, count, cube_dim, w.vector,
                    tensor.arg::<R>(), mask.arg::<R>(), fill, out.arg::<R>(),
                    units, tensor.offset / w.vector, mask.offset / w.vector,
                    w.rank, ty,
                );
            }
        });
        out
    }

    /// Coordinates of the true elements, `[count, rank]`, in row-major order.
    ///
    /// The output's size depends on the data, so this is a host round trip:
    /// the mask is read back, the coordinates are computed on the host and
    /// uploaded. They are of the backend's default int dtype, `I32` (Flex
    /// returns its own default, `I64`; the tensor API casts either to the
    /// device's int dtype), or `I64` if a dim is too large for `I32`.
    fn argwhere(tensor: CubeTensor) -> CubeTensor {
        let dtype = tensor.dtype;
        if !dtype.is_bool() {
            panic!("argwhere: expected a bool tensor, got {dtype}");
        }
        let device = tensor.device.clone();
        let shape = tensor.shape.clone();
        let rank = shape.num_dims();
        let data = tensor
            .into_data()
            .unwrap_or_else(|err| panic!("argwhere: reading the mask back failed: {err}"));
        let bools = data
            .to_vec::<bool>()
            .unwrap_or_else(|err| panic!("argwhere: the mask did not read back as bools: {err:?}"));
        let strides = shape.contiguous_strides();
        let mut coords: Vec<i64> = Vec::new();
        let mut count = 0;
        for (linear, _) in bools.iter().enumerate().filter(|&(_, &b)| b) {
            count += 1;
            let mut rest = linear;
            for &s in &strides {
                coords.push((rest / s) as i64);
                rest %= s;
            }
        }
        let out_shape = Shape::from(vec![count, rank]);
        let fits_i32 = shape.dims.iter().all(|&d| d <= i32::MAX as usize);
        let data = if fits_i32 {
            let coords: Vec<i32> = coords.into_iter().map(|c| c as i32).collect();
            TensorData::new(coords, out_shape)
        } else {
            TensorData::new(coords, out_shape)
        };
        CubeTensor::from_data(data, &device)
    }
}
