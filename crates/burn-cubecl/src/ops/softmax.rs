//! Fused softmax and log-softmax: one cube per row instead of the five
//! kernels and four temporaries of the composition. Rows that fit in the
//! registers of one cube (up to eight vectors a unit) are read once and
//! written once: a block max, then one `exp` per element and a block sum,
//! each block reduction in plane (warp) registers where the device has
//! plane operations. Longer rows take two reads (an online max-and-sum
//! pass, then the output pass, which mostly hits the cache), four vector
//! loads a unit in flight. Rows are read in vectors of 16 bytes where the
//! row length allows.

use burn_backend::kernels::ShapeKernels;
use burn_cubecl_fusion::reduce::{Combine, block_reduce};
use burn_std::DType;
use cubecl::prelude::*;

use super::reduce::{line_cubes, max_block};
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

/// Units per cube; a power of two (the tree reduction halves it).
const BLOCK: usize = 256;

/// Lane-wise maximum (NaN-blind: a NaN reaches the output through the sum).
#[cube]
fn vmax<N: Size>(a: Vector<f32, N>, b: Vector<f32, N>) -> Vector<f32, N> {
    select_many(b.greater_than(a), b, a)
}

/// One cube per row of `row_vecs` vectors. Pass 1 keeps a lane-wise
/// running (max, sum of exp(x − max)) per unit, four vector loads in flight
/// and one rescale per group of four; two block reductions give the row's
/// max and sum ([`row_stats`]). Pass 2 writes `exp(x − max) / sum` (or `x − max − ln sum`),
/// again four loads in flight. f16/bf16 compute in f32.
#[cube(launch_unchecked)]
fn softmax_kernel<F: Float, N: Size>(
    input: &Tensor<Vector<F, N>>,
    out: &mut Tensor<Vector<F, N>>,
    rows: usize,
    row_vecs: usize,
    offset: usize,
    #[comptime] block: usize,
    #[comptime] planes: usize,
    #[comptime] log: bool,
    #[define(F)] _dtype: StorageType,
) {
    let row = CUBE_POS;
    if row >= rows {
        terminate!();
    }
    let tid = UNIT_POS as usize;
    let base = offset + row * row_vecs;
    let vs = input.vector_size();

    let mut m = Vector::<f32, N>::new(f32::min_value());
    let mut s = Vector::<f32, N>::new(0.0f32);
    let mut i = tid;
    while i + 3 * block < row_vecs {
        let x0 = Vector::<f32, N>::cast_from(input[base + i]);
        let x1 = Vector::<f32, N>::cast_from(input[base + i + block]);
        let x2 = Vector::<f32, N>::cast_from(input[base + i + 2 * block]);
        let x3 = Vector::<f32, N>::cast_from(input[base + i + 3 * block]);
        let nm = vmax::<N>(m, vmax::<N>(vmax::<N>(x0, x1), vmax::<N>(x2, x3)));
        s = s * Vector::exp(m - nm)
            + (Vector::exp(x0 - nm) + Vector::exp(x1 - nm))
            + (Vector::exp(x2 - nm) + Vector::exp(x3 - nm));
        m = nm;
        i += 4 * block;
    }
    while i < row_vecs {
        let x = Vector::<f32, N>::cast_from(input[base + i]);
        let nm = vmax::<N>(m, x);
        s = s * Vector::exp(m - nm) + Vector::exp(x - nm);
        m = nm;
        i += block;
    }
    let (max, sum, log_sum) = row_stats::<N>(m, s, tid, vs, block, planes);
    let out_base = row * row_vecs;
    let mut i = tid;
    while i + 3 * block < row_vecs {
        let x0 = Vector::<f32, N>::cast_from(input[base + i]);
        let x1 = Vector::<f32, N>::cast_from(input[base + i + block]);
        let x2 = Vector::<f32, N>::cast_from(input[base + i + 2 * block]);
        let x3 = Vector::<f32, N>::cast_from(input[base + i + 3 * block]);
        if comptime![log] {
            out[out_base + i] = Vector::cast_from(x0 - max - log_sum);
            out[out_base + i + block] = Vector::cast_from(x1 - max - log_sum);
            out[out_base + i + 2 * block] = Vector::cast_from(x2 - max - log_sum);
            out[out_base + i + 3 * block] = Vector::cast_from(x3 - max - log_sum);
        } else {
            out[out_base + i] = Vector::cast_from(Vector::exp(x0 - max) / sum);
            out[out_base + i + block] = Vector::cast_from(Vector::exp(x1 - max) / sum);
            out[out_base + i + 2 * block] = Vector::cast_from(Vector::exp(x2 - max) / sum);
            out[out_base + i + 3 * block] = Vector::cast_from(Vector::exp(x3 - max) / sum);
        }
        i += 4 * block;
    }
    while i < row_vecs {
        let x = Vector::<f32, N>::cast_from(input[base + i]);
        if comptime![log] {
            out[out_base + i] = Vector::cast_from(x - max - log_sum);
        } else {
            out[out_base + i] = Vector::cast_from(Vector::exp(x - max) / sum);
        }
        i += block;
    }
}

/// Softmax of rows short enough to sit in registers: unit `t` loads
/// vectors `t + j·block` for `j < cache` once (all loads in flight
/// together). The row's max comes first (one block reduction), then each
/// value's `exp(x − max)` is taken once, kept in its register and summed
/// (a second reduction), and the outputs are written from the registers:
/// one read and one write of the row, one `exp` per element. Slots past the
/// row's end are left out of the max and the sum.
#[cube(launch_unchecked)]
fn softmax_cached_kernel<F: Float, N: Size>(
    input: &Tensor<Vector<F, N>>,
    out: &mut Tensor<Vector<F, N>>,
    rows: usize,
    row_vecs: usize,
    offset: usize,
    #[comptime] block: usize,
    #[comptime] cache: usize,
    #[comptime] planes: usize,
    #[comptime] log: bool,
    #[define(F)] _dtype: StorageType,
) {
    let row = CUBE_POS;
    if row >= rows {
        terminate!();
    }
    let tid = UNIT_POS as usize;
    let base = offset + row * row_vecs;
    let vs = input.vector_size();

    let floor = Vector::<f32, N>::new(f32::min_value());
    let mut vals = Array::<Vector<f32, N>>::new(cache);
    #[unroll]
    for j in 0..cache {
        vals[j] = floor;
        let i = tid + j * block;
        if i < row_vecs {
            vals[j] = Vector::<f32, N>::cast_from(input[base + i]);
        }
    }
    let mut m = floor;
    #[unroll]
    for j in 0..cache {
        m = vmax::<N>(m, vals[j]);
    }
    let mut mu = m[0];
    #[unroll]
    for k in 1..vs {
        mu = select(m[k] > mu, m[k], mu);
    }
    let max = block_reduce(mu, tid, block, planes, Combine::Max);
    let maxv = Vector::<f32, N>::new(max);
    let mut s = Vector::<f32, N>::new(0.0f32);
    #[unroll]
    for j in 0..cache {
        if tid + j * block < row_vecs {
            let e = Vector::exp(vals[j] - maxv);
            s += e;
            if comptime![!log] {
                vals[j] = e;
            }
        }
    }
    let mut su = s[0];
    #[unroll]
    for k in 1..vs {
        su += s[k];
    }
    let sum = block_reduce(su, tid, block, planes, Combine::Sum);
    let out_base = row * row_vecs;
    // x − max first: folding ln(sum) into max would round it at max's scale.
    let log_sum = Vector::<f32, N>::new(f32::ln(sum));
    let scale = Vector::<f32, N>::new(1.0f32 / sum);
    #[unroll]
    for j in 0..cache {
        let i = tid + j * block;
        if i < row_vecs {
            if comptime![log] {
                out[out_base + i] = Vector::cast_from(vals[j] - maxv - log_sum);
            } else {
                out[out_base + i] = Vector::cast_from(vals[j] * scale);
            }
        }
    }
}

/// The row's (max, sum, ln sum), broadcast to vectors, from each unit's
/// lane-wise running (max, sum of exp(x − max)) pairs: the block max
/// first, then every lane's sum rescaled to it and the block sum.
#[cube]
fn row_stats<N: Size>(
    m: Vector<f32, N>,
    s: Vector<f32, N>,
    tid: usize,
    #[comptime] vs: usize,
    #[comptime] block: usize,
    #[comptime] planes: usize,
) -> (Vector<f32, N>, Vector<f32, N>, Vector<f32, N>) {
    let mut mu = m[0];
    #[unroll]
    for k in 1..vs {
        mu = select(m[k] > mu, m[k], mu);
    }
    let max = block_reduce(mu, tid, block, planes, Combine::Max);
    let mut su = 0.0f32;
    #[unroll]
    for k in 0..vs {
        su += s[k] * f32::exp(m[k] - max);
    }
    let sum = Vector::<f32, N>::new(block_reduce(su, tid, block, planes, Combine::Sum));
    (Vector::<f32, N>::new(max), sum, Vector::ln(sum))
}

/// Softmax (or log-softmax) along `dim`, any float dtype (f16/bf16 and f32
/// accumulate in f32). Other dims are moved last and made contiguous first.
pub fn softmax(tensor: CubeTensor, dim: usize, log: bool) -> CubeTensor {
    let op = if log { "log_softmax" } else { "softmax" };
    burn_backend::check::dim(op, dim, &tensor.shape);
    assert!(
        tensor.dtype.is_float(),
        "{op}: expected a float tensor, got {}",
        tensor.dtype
    );
    let rank = tensor.shape.num_dims();
    let last = rank - 1;
    // Move `dim` last so each row is one line of the softmax.
    let mut axes: alloc::vec::Vec<usize> = (0..rank).collect();
    axes.swap(dim, last);
    let moved = if dim == last {
        tensor
    } else {
        CubeBackend::permute(tensor, &axes)
    };
    let input = if moved.is_contiguous() {
        moved
    } else {
        super::shape::copy_contiguous(&moved)
    };
    let out = input.empty_like(input.shape.clone(), input.dtype);
    let row_len = input.shape.dims[last];
    let rows = input.num_elements().checked_div(row_len).unwrap_or(0);
    if rows > 0 {
        launch(&input, &out, rows, row_len, log, input.dtype, None);
    }
    if dim == last {
        out
    } else {
        CubeBackend::permute(out, &axes)
    }
}

/// Shared-memory slots for the plane results of a `block`-unit cube, or 0
/// where the device has no plane operations (the tree is used then).
pub(crate) fn plane_slots<R: cubecl::Runtime>(
    c: &cubecl::prelude::ComputeClient<R>,
    block: usize,
) -> usize {
    let props = c.properties();
    if !props.features.plane.contains(cubecl::features::Plane::Ops) {
        return 0;
    }
    let smallest = (props.hardware.plane_size_min as usize).max(1);
    block.div_ceil(smallest)
}

/// Most vectors a unit of the register-cached kernel holds. Rows take the
/// fewest vectors a unit that the largest cube covers: on an H200
/// (`examples/softmax_blocks.rs`, 16384×16384 f32, 2026-11-30) 1024 units
/// × 4 vectors ran at 3.73 TB/s, 512 × 8 at 3.20, 256 × 16 at 2.69 (fewer
/// registers a unit, more rows resident on each SM); `x * 1` at 3.90.
const MAX_CACHE: usize = 8;
/// Most units per cube.
const MAX_BLOCK: usize = 1024;

/// Softmax over the last dim of a contiguous tensor through the
/// register-cached kernel at `block` units × `cache` vectors a unit, for
/// the tuning example (`examples/softmax_blocks.rs`).
///
/// # Panics
/// If `block` is not a power of two or `block · cache` vectors do not
/// cover a row.
pub fn softmax_cached_with(input: CubeTensor, block: usize, cache: usize) -> CubeTensor {
    assert!(
        input.is_contiguous() && input.offset == 0,
        "softmax_cached_with: expected a contiguous tensor"
    );
    assert!(
        block.is_power_of_two(),
        "softmax_cached_with: block {block} is not a power of two"
    );
    let out = input.empty_like(input.shape.clone(), input.dtype);
    let row_len = input.shape.dims[input.shape.num_dims() - 1];
    let rows = input.num_elements() / row_len.max(1);
    launch(
        &input,
        &out,
        rows,
        row_len,
        false,
        input.dtype,
        Some((block, cache)),
    );
    out
}

/// Runs the kernel for `rows` rows of `row_len`; `cached` forces the
/// register-cached kernel's (units, vectors a unit).
fn launch(
    input: &CubeTensor,
    out: &CubeTensor,
    rows: usize,
    row_len: usize,
    log: bool,
    dt: DType,
    cached: Option<(usize, usize)>,
) {
    let ty = dtype::storage(dt);
    with_runtime!(&input.client, R, c => {
        let vector = c
            .io_optimized_vector_sizes(dt.size())
            .find(|&v| row_len.is_multiple_of(v) && input.offset.is_multiple_of(v))
            .unwrap_or(1);
        let row_vecs = row_len / vector;
        let limit = max_block(c).min(MAX_BLOCK);
        let count = line_cubes(c, rows);
        let offset = input.offset / vector;
        let cached = cached.or_else(|| {
            // Whole rows in registers, as few vectors a unit as fit.
            let cache = (0..=MAX_CACHE.trailing_zeros())
                .map(|p| 1usize << p)
                .find(|&cache| row_vecs <= limit * cache)?;
            Some((row_vecs.div_ceil(cache).next_power_of_two().clamp(32, limit), cache))
        });
        if let Some((block, cache)) = cached {
            assert!(
                block * cache >= row_vecs,
                "softmax: {block} units × {cache} vectors do not cover a row of {row_vecs} vectors"
            );
            let planes = plane_slots(c, block);
            unsafe {
                softmax_cached_kernel::launch_unchecked::<R>(
                    c, count, CubeDim::new_1d(block as u32), vector,
                    input.arg::<R>(), out.arg::<R>(),
                    rows, row_vecs, offset, block, cache, planes, log, ty,
                );
            }
        } else {
            // Enough units for four vectors each, at most BLOCK; a power of
            // two for the tree.
            let block = row_vecs.div_ceil(4).next_power_of_two().clamp(32, BLOCK.min(limit));
            let planes = plane_slots(c, block);
            unsafe {
                softmax_kernel::launch_unchecked::<R>(
                    c, count, CubeDim::new_1d(block as u32), vector,
                    input.arg::<R>(), out.arg::<R>(),
                    rows, row_vecs, offset, block, planes, log, ty,
                );
            }
        }
    });
}
