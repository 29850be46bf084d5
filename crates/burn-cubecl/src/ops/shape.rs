//! Layout ops: views where the strides allow (reshape of contiguous data,
//! permute, expand, positive-step slices) and one strided copy kernel for
//! the rest (contiguous copies, flips, slice assignment, concatenation).

use alloc::vec::Vec;

use burn_backend::check;
use burn_backend::kernels::ShapeKernels;
use burn_std::{Shape, Slice};
use cubecl::prelude::*;

use super::elemwise_dims;
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

/// Copies `src` (a strided view) into `dst` (another strided view of the same
/// shape): thread `pos` takes the element at row-major position `pos`.
/// Dims whose bit is set in `flips` are read back to front.
#[cube(launch_unchecked)]
fn copy_kernel<T: Numeric>(
    src: &Tensor<T>,
    dst: &mut Tensor<T>,
    len: usize,
    src_offset: usize,
    dst_offset: usize,
    flips: u32,
    #[comptime] rank: usize,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let mut rem = pos;
    let mut s = src_offset;
    let mut d = dst_offset;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let size = src.shape(dim);
        let coord = rem % size;
        rem /= size;
        let flipped = (flips >> (dim as u32)) & 1u32;
        let src_coord = select(flipped == 1u32, size - 1 - coord, coord);
        s += src_coord * src.stride(dim);
        d += coord * dst.stride(dim);
    }
    dst[d] = src[s];
}

/// Copies the elements of `src` into the region of `dst`'s buffer described
/// by `dst` (same shape), reading dims in `flips` back to front.
fn copy_into(src: &CubeTensor, dst: &CubeTensor, flips: u32) {
    assert_eq!(src.shape, dst.shape, "copy: shapes differ");
    let n = src.num_elements();
    if n == 0 {
        return;
    }
    let ty = dtype::storage(src.dtype);
    let rank = src.shape.num_dims().max(1);
    with_runtime!(&src.client, R, c => {
        let (count, dim) = elemwise_dims(c, n);
        unsafe {
            copy_kernel::launch_unchecked::<R>(
                c, count, dim,
                src.arg::<R>(), dst.arg::<R>(),
                n, src.offset, dst.offset, flips, rank, ty,
            );
        }
    });
}

/// Side of the square tiles [`transpose_kernel`] moves through shared
/// memory.
const TILE: usize = 32;
/// Rows of units in a transpose cube; each unit moves `TILE / TILE_ROWS`
/// elements.
const TILE_ROWS: usize = 8;

/// `dst[b][i][j] = src[b][j][i]` for a contiguous `[batch, cols, rows]`
/// source and a contiguous `[batch, rows, cols]` destination: each cube
/// reads a 32×32 tile along the source's rows and writes it along the
/// destination's rows through shared memory (one padding column keeps the
/// column reads free of bank conflicts), so both sides move in whole
/// memory transactions where the one-thread-per-element copy reads one
/// element per transaction.
#[cube(launch_unchecked)]
fn transpose_kernel<T: Numeric>(
    src: &Tensor<T>,
    dst: &mut Tensor<T>,
    rows: usize,
    cols: usize,
    src_offset: usize,
    #[define(T)] _dtype: StorageType,
) {
    let mut tile = SharedMemory::<T>::new(TILE * (TILE + 1));
    let plane = rows * cols;
    let batch = CUBE_POS_Z as usize * plane;
    let r0 = CUBE_POS_Y as usize * TILE;
    let c0 = CUBE_POS_X as usize * TILE;
    let tx = UNIT_POS_X as usize;
    let ty = UNIT_POS_Y as usize;
    #[unroll]
    for step in 0..TILE / TILE_ROWS {
        let local = ty + step * TILE_ROWS;
        // Source row c0 + local is destination column c0 + local.
        if c0 + local < cols && r0 + tx < rows {
            tile[local * (TILE + 1) + tx] = src[src_offset + batch + (c0 + local) * rows + r0 + tx];
        }
    }
    sync_cube();
    #[unroll]
    for step in 0..TILE / TILE_ROWS {
        let local = ty + step * TILE_ROWS;
        if r0 + local < rows && c0 + tx < cols {
            dst[batch + (r0 + local) * cols + c0 + tx] = tile[tx * (TILE + 1) + local];
        }
    }
}

/// The values of `tensor` in a fresh row-major buffer.
pub fn copy_contiguous(tensor: &CubeTensor) -> CubeTensor {
    let out = tensor.empty_like(tensor.shape.clone(), tensor.dtype);
    if !(swapped_last_two(tensor) && transpose_into(tensor, &out)) {
        copy_into(tensor, &out, 0);
    }
    out
}

/// Whether `t` is a contiguous buffer seen with its last two dims swapped
/// (`x.swap_dims(-2, -1)` of contiguous `x`), with at least two rows and
/// columns.
fn swapped_last_two(t: &CubeTensor) -> bool {
    let rank = t.shape.num_dims();
    if rank < 2 {
        return false;
    }
    let dims = &t.shape.dims;
    let (rows, cols) = (dims[rank - 2], dims[rank - 1]);
    if rows < 2 || cols < 2 || t.strides[rank - 2] != 1 || t.strides[rank - 1] != rows {
        return false;
    }
    let mut expected = rows * cols;
    (0..rank - 2).rev().all(|d| {
        let ok = dims[d] == 1 || t.strides[d] == expected;
        expected *= dims[d];
        ok
    })
}

/// Runs [`transpose_kernel`] from `src` (see [`swapped_last_two`]) into the
/// contiguous `dst`; false when the grid would pass the device's limits.
fn transpose_into(src: &CubeTensor, dst: &CubeTensor) -> bool {
    let rank = src.shape.num_dims();
    let (rows, cols) = (src.shape.dims[rank - 2], src.shape.dims[rank - 1]);
    let batch = src.num_elements() / (rows * cols);
    let ty = dtype::storage(src.dtype);
    let count = (cols.div_ceil(TILE), rows.div_ceil(TILE), batch);
    with_runtime!(&src.client, R, c => {
        let max = c.properties().hardware.max_cube_count;
        if count.0 > max.0 as usize || count.1 > max.1 as usize || count.2 > max.2 as usize {
            return false;
        }
        unsafe {
            transpose_kernel::launch_unchecked::<R>(
                c,
                CubeCount::Static(count.0 as u32, count.1 as u32, count.2 as u32),
                CubeDim::new_2d(TILE as u32, TILE_ROWS as u32),
                src.arg::<R>(), dst.arg::<R>(),
                rows, cols, src.offset, ty,
            );
        }
    });
    true
}

/// The view selected by resolved ranges, with every step taken forward, and
/// the bit mask of the dims whose step was negative.
fn forward_view(tensor: &CubeTensor, ranges: &[(usize, usize, isize)]) -> (CubeTensor, u32) {
    let mut view = tensor.clone();
    let mut flips = 0u32;
    let mut dims = Vec::with_capacity(ranges.len());
    for (d, &(start, end, step)) in ranges.iter().enumerate() {
        let stride = step.unsigned_abs();
        let len = (end - start).div_ceil(stride);
        if len > 0 {
            // A negative step takes the same elements from the last back:
            // the forward view starts at the smallest of them.
            let first = if step > 0 {
                start
            } else {
                end - 1 - (len - 1) * stride
            };
            view.offset += first * tensor.strides[d];
        }
        if step < 0 {
            flips |= 1 << d;
        }
        view.strides[d] = tensor.strides[d] * stride;
        dims.push(len);
    }
    view.shape = Shape::from(dims);
    (view, flips)
}

// ------------------------------------------------------------ ShapeKernels

impl ShapeKernels for CubeBackend {
    /// Reshape: a view of contiguous data, a copy otherwise.
    fn reshape(tensor: CubeTensor, shape: Shape) -> CubeTensor {
        check::reshape("reshape", &tensor.shape, &shape);
        let mut tensor = if tensor.is_contiguous() {
            tensor
        } else {
            copy_contiguous(&tensor)
        };
        tensor.strides = shape.contiguous_strides();
        tensor.shape = shape;
        tensor
    }

    /// Permute: a view.
    fn permute(tensor: CubeTensor, axes: &[usize]) -> CubeTensor {
        check::permute("permute", &tensor.shape, axes);
        let dims: Vec<usize> = axes.iter().map(|&a| tensor.shape.dims[a]).collect();
        let strides: Vec<usize> = axes.iter().map(|&a| tensor.strides[a]).collect();
        let mut tensor = tensor;
        tensor.shape = Shape::from(dims);
        tensor.strides = strides;
        tensor
    }

    /// Expand: a view with stride 0 on widened and new leading dims.
    fn expand(tensor: CubeTensor, shape: Shape) -> CubeTensor {
        check::expand("expand", &tensor.shape, &shape);
        let extra = shape.num_dims() - tensor.shape.num_dims();
        let mut strides = alloc::vec![0; shape.num_dims()];
        for (d, stride) in strides.iter_mut().enumerate().skip(extra) {
            let from = tensor.shape.dims[d - extra];
            *stride = if from == shape.dims[d] {
                tensor.strides[d - extra]
            } else {
                0
            };
        }
        let mut tensor = tensor;
        tensor.shape = shape;
        tensor.strides = strides;
        tensor
    }

    /// Reverses `axes`, into a fresh buffer.
    fn flip(tensor: CubeTensor, axes: &[usize]) -> CubeTensor {
        let rank = tensor.shape.num_dims();
        let mut flips = 0u32;
        for &a in axes {
            assert!(
                a < rank,
                "flip: axis {a} out of range for a tensor of rank {rank}"
            );
            flips |= 1 << a;
        }
        if flips == 0 {
            return tensor;
        }
        let out = tensor.empty_like(tensor.shape.clone(), tensor.dtype);
        copy_into(&tensor, &out, flips);
        out
    }

    /// Slice: a view for positive steps; negative steps copy.
    fn slice(tensor: CubeTensor, slices: &[Slice]) -> CubeTensor {
        let ranges = check::slices("slice", &tensor.shape, slices);
        let (view, flips) = forward_view(&tensor, &ranges);
        if flips == 0 {
            return view;
        }
        let out = view.empty_like(view.shape.clone(), view.dtype);
        copy_into(&view, &out, flips);
        out
    }

    /// Writes `value` into the sliced region of a copy of `tensor` (in place
    /// when `tensor` owns its row-major buffer alone).
    fn slice_assign(tensor: CubeTensor, slices: &[Slice], value: CubeTensor) -> CubeTensor {
        let op = "slice_assign";
        let ranges = check::slices(op, &tensor.shape, slices);
        let region = check::sliced_shape(&ranges);
        if value.shape != region {
            panic!(
                "{op}: value of shape {} does not match the region {region} selected from a tensor of shape {}",
                value.shape, tensor.shape
            );
        }
        check::same_dtype(op, tensor.dtype, value.dtype);
        let out = if tensor.is_packed() && tensor.handle.can_mut() {
            tensor
        } else {
            copy_contiguous(&tensor)
        };
        let (target, flips) = forward_view(&out, &ranges);
        // Writing value[i] at the reversed position is reading value reversed.
        copy_into(&value, &target, flips);
        out
    }

    /// Concatenation along `dim`.
    fn cat(tensors: Vec<CubeTensor>, dim: usize) -> CubeTensor {
        assert!(!tensors.is_empty(), "cat: no tensors given");
        let shapes: Vec<Shape> = tensors.iter().map(|t| t.shape.clone()).collect();
        let shape = check::cat("cat", &shapes, dim);
        let dtype = tensors[0].dtype;
        for t in &tensors {
            check::same_dtype("cat", dtype, t.dtype);
        }
        let out = tensors[0].empty_like(shape, dtype);
        let mut start = 0;
        for t in &tensors {
            let len = t.shape.dims[dim];
            let mut target = out.clone();
            target.offset += start * out.strides[dim];
            target.shape = t.shape.clone();
            copy_into(t, &target, 0);
            start += len;
        }
        out
    }

    /// `times` copies of `tensor` one after another along `dim`.
    fn repeat_dim(tensor: CubeTensor, dim: usize, times: usize) -> CubeTensor {
        check::dim("repeat_dim", dim, &tensor.shape);
        let mut dims = tensor.shape.dims.clone();
        dims[dim] *= times;
        let out = tensor.empty_like(Shape::from(dims), tensor.dtype);
        let len = tensor.shape.dims[dim];
        for i in 0..times {
            let mut target = out.clone();
            target.offset += i * len * out.strides[dim];
            target.shape = tensor.shape.clone();
            copy_into(&tensor, &target, 0);
        }
        out
    }
}
