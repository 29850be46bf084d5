//! Indexing: gather, scatter, select, masks.
//!
//! Gathers and masks only move elements, so they dispatch on the element
//! size (`with_size!`); the two accumulating ops (`scatter_add`,
//! `select_add`) dispatch on the numeric dtype. Index tensors may hold any
//! integer dtype; they are read as `i64` and bounds-checked where a kernel
//! uses them (one predictable compare), so a bad index panics with the op,
//! the index and the dim size instead of reading out of bounds.
//!
//! `select` is a `gather` whose index varies along `dim` only, and
//! `select_add` a `scatter_add` of the same kind: each pair shares one kernel,
//! fed an index view with zero strides outside `dim`.

use alloc::borrow::Cow;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::IndexKernels;
use burn_backend::{TensorMetadata, check};
use burn_std::{DType, Element, Scalar, Shape};
use bytemuck::Pod;
use half::{bf16, f16};

use super::shape::{contiguous_copy, copy_run, for_each_segment};
use crate::layout::{Layout, contiguous_strides, for_each_row, simplify_many};
use crate::{Flex, FlexTensor};

// ------------------------------------------------------------------ helpers

/// Strides of an index vector that varies along `dim` only.
fn along(dim: usize, rank: usize) -> Vec<isize> {
    let mut strides = vec![0; rank];
    strides[dim] = 1;
    strides
}

#[track_caller]
fn one_dim_indices(op: &str, indices: &FlexTensor) {
    if indices.shape_ref().num_dims() != 1 {
        panic!(
            "{op}: indices must be 1-D, got shape {}",
            indices.shape_ref()
        );
    }
}

#[track_caller]
fn bool_mask(op: &str, mask: &FlexTensor) {
    let dtype = mask.dtype();
    if !dtype.is_bool() || dtype.size() != 1 {
        panic!("{op}: expected a bool mask, got {dtype}");
    }
}

/// The indices in row-major order as `i64` (borrowed when they already are
/// a contiguous I64 tensor). The kernels bounds-check each index as they
/// use it, through [`checked`].
fn index_values<'a>(op: &str, indices: &'a FlexTensor) -> Cow<'a, [i64]> {
    match indices.dtype() {
        DType::I64 if indices.layout().is_contiguous() => {
            Cow::Borrowed(indices.contiguous_slice::<i64>().unwrap())
        }
        dtype => crate::with_int!(op, dtype, |I| {
            let source = contiguous_copy(indices);
            Cow::Owned(
                source
                    .contiguous_slice::<I>()
                    .unwrap()
                    .iter()
                    .map(|&v| v.to_i64())
                    .collect(),
            )
        }),
    }
}

/// `k` as an offset multiplier, or a panic naming `op`, the index and the
/// dim size. (Negatives wrap to huge `u64`s: one compare covers both ends.)
#[inline(always)]
fn checked(op: &str, k: i64, size: usize, dim: usize) -> isize {
    if k as u64 >= size as u64 {
        out_of_bounds(op, k, size, dim);
    }
    k as isize
}

#[cold]
#[inline(never)]
fn out_of_bounds(op: &str, k: i64, size: usize, dim: usize) -> ! {
    check::index(op, k, size, dim);
    unreachable!("{op}: index {k} passed the bounds check it failed")
}

/// `out[p] = tensor[p with dim replaced by idx[p]]` over `shape`, where
/// the index of output position `p` is `idx[p . idx_strides]`.
fn gather_along(
    op: &str,
    tensor: &FlexTensor,
    dim: usize,
    shape: &Shape,
    idx: &[i64],
    idx_strides: &[isize],
) -> FlexTensor {
    let dtype = tensor.dtype();
    let size = tensor.shape_ref().dims[dim];
    if shape.num_elements() == 0 {
        // No element reads an index, but a bad one is still an error.
        idx.iter().for_each(|&k| _ = checked(op, k, size, dim));
    }
    let layout = tensor.layout();
    let mut src_strides = layout.strides().to_vec();
    let step = core::mem::replace(&mut src_strides[dim], 0);
    let out_strides = contiguous_strides(&shape.dims);
    let (dims, [ss, is, _]) = simplify_many(&shape.dims, [&src_strides, idx_strides, &out_strides]);
    let (s_in, i_in) = (*ss.last().unwrap(), *is.last().unwrap());
    let starts = [layout.offset() as isize, 0];
    crate::with_size!(dtype, |E| {
        let storage = tensor.storage::<E>();
        FlexTensor::build::<E>(shape.clone(), dtype, |out| {
            for_each_segment(
                out,
                &dims,
                [&ss, &is],
                starts,
                move |seg: &mut [E], [ps, pi]| {
                    let n = seg.len();
                    if i_in == 0 {
                        // One index for the whole run: a plain (often contiguous) copy.
                        let k = checked(op, idx[pi as usize], size, dim);
                        copy_run(seg, storage, ps + k * step, s_in);
                    } else if i_in == 1 {
                        let ks = &idx[pi as usize..pi as usize + n];
                        for (j, (o, &k)) in seg.iter_mut().zip(ks).enumerate() {
                            let k = checked(op, k, size, dim);
                            *o = storage[(ps + j as isize * s_in + k * step) as usize];
                        }
                    } else {
                        for (j, o) in seg.iter_mut().enumerate() {
                            let j = j as isize;
                            let k = checked(op, idx[(pi + j * i_in) as usize], size, dim);
                            *o = storage[(ps + j * s_in + k * step) as usize];
                        }
                    }
                },
            );
        })
    })
}

/// `out[p with dim replaced by idx[p]] += value[p]` for every position `p`
/// of `iter_shape` (in row-major order, so duplicates add up
/// deterministically); `out` is row-major of `out_shape`.
#[allow(clippy::too_many_arguments)]
fn add_along<E: Accum>(
    op: &str,
    out: &mut [E::Acc],
    out_shape: &Shape,
    dim: usize,
    iter_shape: &Shape,
    value: &FlexTensor,
    idx: &[i64],
    idx_strides: &[isize],
) {
    let size = out_shape.dims[dim];
    if iter_shape.num_elements() == 0 {
        // No element reads an index, but a bad one is still an error.
        idx.iter().for_each(|&k| _ = checked(op, k, size, dim));
        return;
    }
    let mut out_strides = contiguous_strides(&out_shape.dims);
    let step = core::mem::replace(&mut out_strides[dim], 0);
    let vl = value.layout();
    let (dims, [os, vs, is]) =
        simplify_many(&iter_shape.dims, [&out_strides, vl.strides(), idx_strides]);
    let n = *dims.last().unwrap();
    let (o_in, v_in, i_in) = (
        *os.last().unwrap(),
        *vs.last().unwrap(),
        *is.last().unwrap(),
    );
    let values = value.storage::<E>();
    for_each_row(
        &dims,
        [&os, &vs, &is],
        [0, vl.offset() as isize, 0],
        |[po, pv, pi]| {
            for j in 0..n as isize {
                let k = checked(op, idx[(pi + j * i_in) as usize], size, dim);
                let at = (po + j * o_in + k * step) as usize;
                out[at] = E::add(out[at], values[(pv + j * v_in) as usize].widen());
            }
        },
    );
}

/// Element types that accumulate: halves add in `f32` (rounded once per
/// output element at the end), integers wrap.
trait Accum: Pod + Send + Sync {
    /// The type sums are kept in.
    type Acc: Pod + Send + Sync;
    /// Whether `Acc` differs from `Self` (needs a widened copy of the output).
    const WIDENS: bool;
    fn widen(self) -> Self::Acc;
    fn narrow(acc: Self::Acc) -> Self;
    fn add(a: Self::Acc, b: Self::Acc) -> Self::Acc;
}

macro_rules! accum_wrapping {
    ($($t:ty),*) => {$(
        impl Accum for $t {
            type Acc = $t;
            const WIDENS: bool = false;
            #[inline] fn widen(self) -> $t { self }
            #[inline] fn narrow(acc: $t) -> $t { acc }
            #[inline] fn add(a: $t, b: $t) -> $t { a.wrapping_add(b) }
        }
    )*};
}
accum_wrapping!(i64, i32, i16, i8, u64, u32, u16, u8);

macro_rules! accum_float {
    ($($t:ty),*) => {$(
        impl Accum for $t {
            type Acc = $t;
            const WIDENS: bool = false;
            #[inline] fn widen(self) -> $t { self }
            #[inline] fn narrow(acc: $t) -> $t { acc }
            #[inline] fn add(a: $t, b: $t) -> $t { a + b }
        }
    )*};
}
accum_float!(f64, f32);

macro_rules! accum_half {
    ($($t:ty),*) => {$(
        impl Accum for $t {
            type Acc = f32;
            const WIDENS: bool = true;
            #[inline] fn widen(self) -> f32 { self.to_f32() }
            #[inline] fn narrow(acc: f32) -> $t { <$t>::from_f32(acc) }
            #[inline] fn add(a: f32, b: f32) -> f32 { a + b }
        }
    )*};
}
accum_half!(f16, bf16);

/// Runs `body` on a row-major, writable accumulator copy of `tensor` (its
/// own buffer when uniquely owned and row-major, unless `E` widens).
fn accumulate<E: Accum>(
    tensor: FlexTensor,
    body: impl FnOnce(&mut [E::Acc], &Shape),
) -> FlexTensor {
    let shape = tensor.shape_ref().clone();
    let dtype = tensor.dtype();
    if E::WIDENS {
        let mut acc: Vec<E::Acc> = tensor.to_vec::<E>().into_iter().map(E::widen).collect();
        body(&mut acc, &shape);
        return FlexTensor::from_vec(
            acc.into_iter().map(E::narrow).collect::<Vec<E>>(),
            shape,
            dtype,
        );
    }
    let mut out = tensor;
    if out.unique_contiguous_mut::<E>().is_none() {
        out = contiguous_copy(&out);
    }
    let slice = out
        .unique_contiguous_mut::<E>()
        .expect("a fresh copy is uniquely owned");
    // `Acc` is `E` here (`WIDENS` is false), so the cast is an identity.
    body(bytemuck::cast_slice_mut::<E, E::Acc>(slice), &shape);
    out
}

/// The scalar converted to `dtype` (Burn's saturating element rules), as the
/// `with_size!` element type `E` of that dtype.
fn scalar_as<E: Pod>(value: Scalar, dtype: DType) -> E {
    fn bits<T: Element + Pod, E: Pod>(value: T) -> E {
        bytemuck::try_cast(value).expect("with_size! picks the dtype's element size")
    }
    match dtype {
        DType::F64 => bits(value.elem::<f64>()),
        DType::F32 => bits(value.elem::<f32>()),
        DType::F16 => bits(value.elem::<f16>()),
        DType::BF16 => bits(value.elem::<bf16>()),
        DType::I64 => bits(value.elem::<i64>()),
        DType::I32 => bits(value.elem::<i32>()),
        DType::I16 => bits(value.elem::<i16>()),
        DType::I8 => bits(value.elem::<i8>()),
        DType::U64 => bits(value.elem::<u64>()),
        DType::U32 => bits(value.elem::<u32>()),
        DType::U16 => bits(value.elem::<u16>()),
        DType::U8 => bits(value.elem::<u8>()),
        DType::Bool(_) => bits(u8::from(value.to_bool())),
        DType::QFloat(scheme) => panic!("flex: no scalar of quantized dtype {scheme}"),
    }
}

/// `values` (a view through `value_layout`, already expanded to `shape`)
/// where `mask`, `tensor` elsewhere. Written into `tensor`'s buffer when it
/// is uniquely owned, row-major and already of the output shape.
fn select_where<E: Pod + Send + Sync>(
    mut tensor: FlexTensor,
    mask: &FlexTensor,
    values: &[E],
    value_layout: &Layout,
    shape: &Shape,
) -> FlexTensor {
    let dtype = tensor.dtype();
    let masks = mask.storage::<u8>();
    let mask_layout = mask.layout().expand(shape);
    let out_strides = contiguous_strides(&shape.dims);
    let (ml, vl) = (&mask_layout, value_layout);
    let m_start = ml.offset() as isize;
    let v_start = vl.offset() as isize;

    if tensor.shape_ref() == shape
        && let Some(out) = tensor.unique_contiguous_mut::<E>()
    {
        let (dims, [ms, vs, _]) =
            simplify_many(&shape.dims, [ml.strides(), vl.strides(), &out_strides]);
        let (m_in, v_in) = (*ms.last().unwrap(), *vs.last().unwrap());
        for_each_segment(
            out,
            &dims,
            [&ms, &vs],
            [m_start, v_start],
            |seg, [pm, pv]| {
                where_run(seg, None, (masks, pm, m_in), (values, pv, v_in));
            },
        );
        return tensor;
    }
    let tl = tensor.layout().expand(shape);
    let storage = tensor.storage::<E>();
    let (dims, [ts, ms, vs, _]) = simplify_many(
        &shape.dims,
        [tl.strides(), ml.strides(), vl.strides(), &out_strides],
    );
    let (t_in, m_in, v_in) = (
        *ts.last().unwrap(),
        *ms.last().unwrap(),
        *vs.last().unwrap(),
    );
    let starts = [tl.offset() as isize, m_start, v_start];
    FlexTensor::build::<E>(shape.clone(), dtype, |out| {
        for_each_segment(out, &dims, [&ts, &ms, &vs], starts, |seg, [pt, pm, pv]| {
            where_run(
                seg,
                Some((storage, pt, t_in)),
                (masks, pm, m_in),
                (values, pv, v_in),
            );
        });
    })
}

/// One run of `mask_where`: `seg[i] = mask_i ? value_i : tensor_i`, each
/// operand given as `(storage, start, stride)`; `tensor: None` means `seg`
/// already holds the tensor's elements.
#[inline]
fn where_run<E: Copy>(
    seg: &mut [E],
    tensor: Option<(&[E], isize, isize)>,
    (masks, pm, m_in): (&[u8], isize, isize),
    (values, pv, v_in): (&[E], isize, isize),
) {
    let n = seg.len();
    if let Some((storage, pt, t_in)) = tensor
        && t_in != 1
    {
        // A strided or broadcast tensor: load it first, then select in place.
        copy_run(seg, storage, pt, t_in);
    } else if let Some((storage, pt, _)) = tensor {
        seg.copy_from_slice(&storage[pt as usize..pt as usize + n]);
    }
    // Contiguous fast paths, written as selects so they vectorize.
    if m_in == 1 {
        let m = &masks[pm as usize..pm as usize + n];
        if v_in == 1 {
            let v = &values[pv as usize..pv as usize + n];
            for ((o, &b), &x) in seg.iter_mut().zip(m).zip(v) {
                *o = if b != 0 { x } else { *o };
            }
            return;
        }
        if v_in == 0 {
            let x = values[pv as usize];
            for (o, &b) in seg.iter_mut().zip(m) {
                *o = if b != 0 { x } else { *o };
            }
            return;
        }
    }
    for (i, o) in seg.iter_mut().enumerate() {
        let i = i as isize;
        if masks[(pm + i * m_in) as usize] != 0 {
            *o = values[(pv + i * v_in) as usize];
        }
    }
}

// ------------------------------------------------------------ IndexKernels

impl IndexKernels for Flex {
    /// Gathers along `dim`: `out[.., i, ..] = tensor[.., indices[.., i, ..], ..]`
    /// (`torch.gather`); the output has the indices' shape.
    fn gather(dim: usize, tensor: FlexTensor, indices: FlexTensor) -> FlexTensor {
        let op = "gather";
        check::gather(op, dim, tensor.shape_ref(), indices.shape_ref());
        let idx = index_values(op, &indices);
        let shape = indices.shape_ref().clone();
        let idx_strides = contiguous_strides(&shape.dims);
        gather_along(op, &tensor, dim, &shape, &idx, &idx_strides)
    }

    /// Scatters with addition along `dim` (`torch.scatter_add`):
    /// `out[.., indices[.., i, ..], ..] += value[.., i, ..]`. Duplicate indices
    /// accumulate, in row-major order of `indices`; integers wrap.
    fn scatter_add(
        dim: usize,
        tensor: FlexTensor,
        indices: FlexTensor,
        value: FlexTensor,
    ) -> FlexTensor {
        let op = "scatter_add";
        check::gather(op, dim, tensor.shape_ref(), indices.shape_ref());
        let (ishape, vshape) = (indices.shape_ref(), value.shape_ref());
        let fits = ishape.num_dims() == vshape.num_dims()
            && ishape.dims.iter().zip(&vshape.dims).all(|(&i, &v)| i <= v);
        if !fits {
            panic!("{op}: indices {ishape} must not exceed value {vshape} in any dim");
        }
        check::same_dtype(op, tensor.dtype(), value.dtype());
        let idx = index_values(op, &indices);
        let idx_strides = contiguous_strides(&ishape.dims);
        let dtype = tensor.dtype();
        crate::with_numeric!(op, dtype, |E| accumulate::<E>(tensor, |out, shape| {
            add_along::<E>(op, out, shape, dim, ishape, &value, &idx, &idx_strides)
        }))
    }

    /// Selects slices of `dim` by a 1-D index tensor (`torch.index_select`);
    /// indices may repeat.
    fn select(tensor: FlexTensor, dim: usize, indices: FlexTensor) -> FlexTensor {
        let op = "select";
        check::dim(op, dim, tensor.shape_ref());
        one_dim_indices(op, &indices);
        let idx = index_values(op, &indices);
        let mut shape = tensor.shape_ref().clone();
        shape.dims[dim] = idx.len();
        gather_along(
            op,
            &tensor,
            dim,
            &shape,
            &idx,
            &along(dim, shape.num_dims()),
        )
    }

    /// Adds `value`'s slices into the selected slices of `dim` (`torch.index_add`):
    /// `out[.., indices[j], ..] += value[.., j, ..]`; duplicates accumulate.
    fn select_add(
        tensor: FlexTensor,
        dim: usize,
        indices: FlexTensor,
        value: FlexTensor,
    ) -> FlexTensor {
        let op = "select_add";
        check::dim(op, dim, tensor.shape_ref());
        one_dim_indices(op, &indices);
        let (tshape, vshape) = (tensor.shape_ref(), value.shape_ref());
        let n = indices.shape_ref().dims[0];
        let fits = tshape.num_dims() == vshape.num_dims()
            && (0..tshape.num_dims())
                .all(|d| vshape.dims[d] == if d == dim { n } else { tshape.dims[d] });
        if !fits {
            panic!(
                "{op}: value {vshape} must match tensor {tshape} outside dim {dim} and have {n} (the number of indices) along it"
            );
        }
        check::same_dtype(op, tensor.dtype(), value.dtype());
        let idx = index_values(op, &indices);
        let idx_strides = along(dim, tshape.num_dims());
        let vshape = vshape.clone();
        let dtype = tensor.dtype();
        crate::with_numeric!(op, dtype, |E| accumulate::<E>(tensor, |out, shape| {
            add_along::<E>(op, out, shape, dim, &vshape, &value, &idx, &idx_strides)
        }))
    }

    /// `value` where `mask`, `tensor` elsewhere (all broadcast).
    fn mask_where(tensor: FlexTensor, mask: FlexTensor, value: FlexTensor) -> FlexTensor {
        let op = "mask_where";
        bool_mask(op, &mask);
        check::same_dtype(op, tensor.dtype(), value.dtype());
        let (t, m, v) = (tensor.shape_ref(), mask.shape_ref(), value.shape_ref());
        let Ok(shape) = t.broadcast(m).and_then(|s| s.broadcast(v)) else {
            panic!("{op}: tensor {t}, mask {m} and value {v} cannot be broadcast together");
        };
        let dtype = tensor.dtype();
        crate::with_size!(dtype, |E| {
            let values = value.storage::<E>();
            let layout = value.layout().expand(&shape);
            select_where::<E>(tensor, &mask, values, &layout, &shape)
        })
    }

    /// `value` where `mask`, `tensor` elsewhere; the mask broadcasts to the
    /// tensor's shape, and the scalar is converted to the tensor's dtype.
    fn mask_fill(tensor: FlexTensor, mask: FlexTensor, value: Scalar) -> FlexTensor {
        let op = "mask_fill";
        bool_mask(op, &mask);
        let shape = tensor.shape_ref().clone();
        if shape.broadcast(mask.shape_ref()).ok().as_ref() != Some(&shape) {
            panic!(
                "{op}: mask {} cannot be broadcast to tensor {shape}",
                mask.shape_ref()
            );
        }
        let dtype = tensor.dtype();
        crate::with_size!(dtype, |E| {
            let fill = [scalar_as::<E>(value, dtype)];
            // The scalar is a one-element operand with zero strides.
            let layout = Layout::new(shape.clone(), vec![0; shape.num_dims()], 0);
            select_where::<E>(tensor, &mask, &fill, &layout, &shape)
        })
    }

    /// Coordinates of true elements, I64 `[count, rank]`, in row-major order.
    fn argwhere(tensor: FlexTensor) -> FlexTensor {
        let dtype = tensor.dtype();
        if !dtype.is_bool() || dtype.size() != 1 {
            panic!("argwhere: expected a bool tensor, got {dtype}");
        }
        let shape = tensor.shape_ref().clone();
        let rank = shape.num_dims();
        let bytes: Cow<'_, [u8]> = match tensor.contiguous_slice::<u8>() {
            Some(slice) => Cow::Borrowed(slice),
            None => Cow::Owned(contiguous_copy(&tensor).to_vec::<u8>()),
        };
        let count = bytes.iter().filter(|&&b| b != 0).count();
        let mut coords = Vec::with_capacity(count * rank);
        let strides = contiguous_strides(&shape.dims);
        for (linear, _) in bytes.iter().enumerate().filter(|&(_, &b)| b != 0) {
            let mut rest = linear;
            for &s in &strides {
                let s = s as usize;
                coords.push((rest / s) as i64);
                rest %= s;
            }
        }
        FlexTensor::from_vec(coords, Shape::from(vec![count, rank]), DType::I64)
    }
}
