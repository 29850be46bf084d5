//! Sorting along a dim.
//!
//! Every element travels with its position in its line, and elements are
//! ordered by value, then by position: a strict total order, so the sort is
//! stable in both directions. Floats sort NaN above everything (last
//! ascending, first descending, in their original order) and `-0.0` equal
//! to `+0.0`, as Flex does; the values move unchanged (NaN payloads and
//! the sign of zero are kept).
//!
//! Each line is cut into chunks of a power of two `P` elements, each sorted
//! by one cube with a bitonic network in shared memory (`bitonic_kernel`);
//! runs of `P`, `2P`, … are then merged pairwise (`merge_kernel`), one
//! unit per element finding its rank in the other run by binary search.
//! Lines of at most `P` elements need the first step only.

use alloc::vec::Vec;

use burn_backend::check;
use burn_backend::kernels::SortKernels;
use burn_std::DType;
use cubecl::prelude::*;

use super::elemwise_dims;
use super::reduce::{check_numeric, line_cubes, line_offset, nan};
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

/// Position of the padding of a short chunk (after every element).
const PAD: u32 = u32::MAX;
/// Largest chunk sorted in shared memory.
const MAX_CHUNK: usize = 2048;
/// Units per cube of the bitonic kernel (at most).
const MAX_BLOCK: usize = 256;

/// Whether `(a, ia)` sorts before `(b, ib)`: by value (NaN largest, `-0.0 ==
/// +0.0`), reversed when `descending`, then by position; padding last.
#[cube]
fn sorts_before<T: Numeric>(
    a: T,
    ia: u32,
    b: T,
    ib: u32,
    #[comptime] descending: bool,
    #[comptime] float: bool,
) -> bool {
    let a_nan = nan::<T>(a, float);
    let b_nan = nan::<T>(b, float);
    // Equal values and two NaNs keep their order.
    let mut before = ia < ib;
    if ia == PAD {
        before = false;
    } else if ib == PAD {
        before = true;
    } else if a_nan || b_nan {
        if !(a_nan && b_nan) {
            if comptime![descending] {
                before = a_nan;
            } else {
                before = b_nan;
            }
        }
    } else if a != b {
        if comptime![descending] {
            before = a > b;
        } else {
            before = a < b;
        }
    }
    before
}

/// One cube per chunk of `chunk` elements of a line of `input` along
/// `dim`: sorted in shared memory, written at the same places of `values`
/// and `indices` (which share their strides).
#[cube(launch_unchecked)]
fn bitonic_kernel<T: Numeric, O: Numeric>(
    input: &Tensor<T>,
    values: &mut Tensor<T>,
    indices: &mut Tensor<O>,
    lines: usize,
    chunks: usize,
    offset: usize,
    #[comptime] rank: usize,
    #[comptime] dim: usize,
    #[comptime] chunk: usize,
    #[comptime] block: usize,
    #[comptime] descending: bool,
    #[comptime] float: bool,
    #[define(T, O)] _dtypes: [StorageType; 2],
) {
    let cube = CUBE_POS;
    if cube >= lines * chunks {
        terminate!();
    }
    let line = cube / chunks;
    let first = (cube % chunks) * chunk;
    let t = UNIT_POS as usize;
    let len = input.shape(dim);
    let in_stride = input.stride(dim);
    let in_start = offset + line_offset(input, line, dim, rank);

    let mut vals = SharedMemory::<T>::new(chunk);
    let mut pos = SharedMemory::<u32>::new(chunk);
    let mut j = t;
    while j < chunk {
        let k = first + j;
        if k < len {
            vals[j] = input[in_start + k * in_stride];
            pos[j] = u32::cast_from(k);
        } else {
            vals[j] = input[in_start];
            pos[j] = PAD;
        }
        j += block;
    }
    sync_cube();

    let half = chunk / 2;
    let mut size = 2;
    while size <= chunk {
        let mut stride = size / 2;
        while stride > 0 {
            let mut q = t;
            while q < half {
                let i = 2 * stride * (q / stride) + q % stride;
                let k = i + stride;
                let a = vals[i];
                let ia = pos[i];
                let b = vals[k];
                let ib = pos[k];
                // Ascending blocks put the earlier element first.
                let swap = select(
                    (i & size) == 0,
                    sorts_before::<T>(b, ib, a, ia, descending, float),
                    sorts_before::<T>(a, ia, b, ib, descending, float),
                );
                if swap {
                    vals[i] = b;
                    vals[k] = a;
                    pos[i] = ib;
                    pos[k] = ia;
                }
                q += block;
            }
            sync_cube();
            stride /= 2;
        }
        size *= 2;
    }

    let out_stride = values.stride(dim);
    let out_start = line_offset(values, line, dim, rank);
    let mut j = t;
    while j < chunk {
        let k = first + j;
        if k < len {
            let o = out_start + k * out_stride;
            values[o] = vals[j];
            indices[o] = O::cast_from(pos[j]);
        }
        j += block;
    }
}

/// One unit per element: merges the sorted runs of `width` elements of
/// every line pairwise, from `src_*` into `dst_*` (each pair sharing its
/// strides). An element's place is its place in its run plus the number of
/// elements of the other run that sort before it.
#[cube(launch_unchecked)]
fn merge_kernel<T: Numeric, O: Numeric>(
    src_values: &Tensor<T>,
    src_indices: &Tensor<u32>,
    dst_values: &mut Tensor<T>,
    dst_indices: &mut Tensor<O>,
    total: usize,
    width: usize,
    #[comptime] rank: usize,
    #[comptime] dim: usize,
    #[comptime] descending: bool,
    #[comptime] float: bool,
    #[define(T, O)] _dtypes: [StorageType; 2],
) {
    let p = ABSOLUTE_POS;
    if p >= total {
        terminate!();
    }
    let len = src_values.shape(dim);
    let line = p / len;
    let k = p % len;
    let run = k / width;
    let own_start = run * width;
    let pair_start = (run / 2) * 2 * width;
    let mut other_start = pair_start;
    let mut other_end = own_start;
    if (run & 1) == 0 {
        other_start = min(own_start + width, len);
        other_end = min(own_start + 2 * width, len);
    }

    let src_stride = src_values.stride(dim);
    let src_start = line_offset(src_values, line, dim, rank);
    let x = src_values[src_start + k * src_stride];
    let ix = src_indices[src_start + k * src_stride];
    let mut lo = other_start;
    let mut hi = other_end;
    while lo < hi {
        let mid = (lo + hi) / 2;
        let at = src_start + mid * src_stride;
        if sorts_before::<T>(src_values[at], src_indices[at], x, ix, descending, float) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let place = pair_start + (k - own_start) + (lo - other_start);
    let o = line_offset(dst_values, line, dim, rank) + place * dst_values.stride(dim);
    dst_values[o] = x;
    dst_indices[o] = O::cast_from(ix);
}

/// A scratch tensor of `like`'s shape stored line by line along `dim`
/// (`dim` innermost, the other dims row-major outside it).
fn line_major(like: &CubeTensor, dim: usize, dtype: DType) -> CubeTensor {
    let dims = like.shape.dims.clone();
    let mut t = like.empty_like(like.shape.clone(), dtype);
    let mut strides: Vec<usize> = alloc::vec![0; dims.len()];
    strides[dim] = 1;
    let mut step = dims[dim].max(1);
    for d in (0..dims.len()).rev().filter(|&d| d != dim) {
        strides[d] = step;
        step *= dims[d].max(1);
    }
    t.strides = strides;
    t
}

// ------------------------------------------------------------- SortKernels

impl SortKernels for CubeBackend {
    /// Sorted values and their original indices along `dim` (stable).
    ///
    /// The indices are [`crate::dtype::INDEX`] (I32, the backend's default int dtype).
    fn sort_with_indices(
        tensor: CubeTensor,
        dim: usize,
        descending: bool,
    ) -> (CubeTensor, CubeTensor) {
        let op = "sort";
        check::dim(op, dim, &tensor.shape);
        let dtype = tensor.dtype;
        if !dtype.is_bool() {
            check_numeric(op, dtype);
        }
        let shape = tensor.shape.clone();
        let len = shape.dims[dim];
        assert!(
            len < u32::MAX as usize,
            "{op}: dim {dim} of shape {shape} is longer than 2^32 - 2 elements"
        );
        let idx_dtype = crate::dtype::INDEX;
        let values = tensor.empty_like(shape.clone(), dtype);
        let indices = tensor.empty_like(shape.clone(), idx_dtype);
        let n = shape.num_elements();
        if n == 0 {
            return (values, indices);
        }
        let lines = n / len;
        let rank = shape.num_dims();
        let ty = dtype::storage(dtype);
        let float = dtype.is_float();

        let (chunk, block) = with_runtime!(&tensor.client, R, c => {
            let hw = &c.properties().hardware;
            let per_elem = dtype.size() + 4;
            let fits = (hw.max_shared_memory_size / per_elem).max(2);
            let fits = 1usize << (usize::BITS - 1 - fits.leading_zeros());
            let chunk = len.next_power_of_two().clamp(2, MAX_CHUNK.min(fits));
            let units = (hw.max_units_per_cube as usize).max(1);
            let units = 1usize << (usize::BITS - 1 - units.leading_zeros());
            (chunk, (chunk / 2).min(MAX_BLOCK).min(units))
        });
        let chunks = len.div_ceil(chunk);
        let mut widths = Vec::new();
        let mut width = chunk;
        while width < len {
            widths.push(width);
            width *= 2;
        }

        // Chunks sorted into the outputs directly, or into line-major scratch
        // ping-pong buffers that the merges go through.
        let (mut src_values, mut src_indices) = if widths.is_empty() {
            (values.clone(), indices.clone())
        } else {
            (
                line_major(&tensor, dim, dtype),
                line_major(&tensor, dim, DType::U32),
            )
        };
        let first_idx_ty = dtype::storage(src_indices.dtype);
        with_runtime!(&tensor.client, R, c => unsafe {
            bitonic_kernel::launch_unchecked::<R>(
                c, line_cubes(c, lines * chunks), CubeDim::new_1d(block as u32),
                tensor.arg::<R>(), src_values.arg::<R>(), src_indices.arg::<R>(),
                lines, chunks, tensor.offset, rank, dim, chunk, block, descending, float,
                [ty, first_idx_ty],
            );
        });

        let mut spare: Option<(CubeTensor, CubeTensor)> = None;
        for (step, &width) in widths.iter().enumerate() {
            let last = step + 1 == widths.len();
            let (dst_values, dst_indices) = if last {
                (values.clone(), indices.clone())
            } else {
                spare.take().unwrap_or_else(|| {
                    (
                        line_major(&tensor, dim, dtype),
                        line_major(&tensor, dim, DType::U32),
                    )
                })
            };
            let idx_ty = dtype::storage(dst_indices.dtype);
            with_runtime!(&tensor.client, R, c => unsafe {
                let (count, cube_dim) = elemwise_dims(c, n);
                merge_kernel::launch_unchecked::<R>(
                    c, count, cube_dim,
                    src_values.arg::<R>(), src_indices.arg::<R>(),
                    dst_values.arg::<R>(), dst_indices.arg::<R>(),
                    n, width, rank, dim, descending, float, [ty, idx_ty],
                );
            });
            let old = core::mem::replace(&mut src_values, dst_values);
            let old_idx = core::mem::replace(&mut src_indices, dst_indices);
            spare = Some((old, old_idx));
        }
        (values, indices)
    }
}
