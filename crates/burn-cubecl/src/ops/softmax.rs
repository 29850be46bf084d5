//! Fused softmax and log-softmax: one cube per row, two reads of the row
//! (an online max-and-sum pass, then the output pass, which mostly hits the
//! cache) instead of the five kernels and four temporaries of the
//! composition.

use burn_std::DType;
use cubecl::prelude::*;

use crate::CubeTensor;
use crate::client::with_runtime;
use crate::dtype;

/// Units per cube; a power of two (the tree reduction halves it).
const BLOCK: usize = 256;

#[cube(launch_unchecked)]
fn softmax_kernel<F: Float>(
    input: &Tensor<F>,
    out: &mut Tensor<F>,
    rows: usize,
    row_len: usize,
    offset: usize,
    #[comptime] block: usize,
    #[comptime] log: bool,
    #[define(F)] _dtype: StorageType,
) {
    let row = CUBE_POS;
    if row >= rows {
        terminate!();
    }
    let tid = UNIT_POS as usize;
    let base = offset + row * row_len;
    let steps = row_len.div_ceil(block);

    let mut m = f32::min_value();
    let mut s = 0.0f32;
    for k in 0..steps {
        let i = tid + k * block;
        if i < row_len {
            // Fold x into the running (max, sum of exp(x - max)); an
            // element at -inf adds nothing (exp(-inf - -inf) would be NaN).
            let x = f32::cast_from(input[base + i]);
            let new_m = select(x > m, x, m);
            let term = select(x < f32::min_value(), 0.0f32, f32::exp(x - new_m));
            s = s * f32::exp(m - new_m) + term;
            m = new_m;
        }
    }

    let mut shared_m = SharedMemory::<f32>::new(block);
    let mut shared_s = SharedMemory::<f32>::new(block);
    shared_m[tid] = m;
    shared_s[tid] = s;
    sync_cube();
    let levels = comptime![block.trailing_zeros()];
    #[unroll]
    for level in 0..levels {
        let stride = comptime![block >> (level + 1)];
        if tid < stride {
            let (m1, s1) = (shared_m[tid], shared_s[tid]);
            let (m2, s2) = (shared_m[tid + stride], shared_s[tid + stride]);
            let mm = select(m2 > m1, m2, m1);
            shared_s[tid] = s1 * f32::exp(m1 - mm) + s2 * f32::exp(m2 - mm);
            shared_m[tid] = mm;
        }
        sync_cube();
    }
    let max = shared_m[0];
    let sum = shared_s[0];
    let log_sum = f32::ln(sum);
    let out_base = row * row_len;
    for k in 0..steps {
        let i = tid + k * block;
        if i < row_len {
            let x = f32::cast_from(input[base + i]);
            if comptime![log] {
                out[out_base + i] = F::cast_from(x - max - log_sum);
            } else {
                out[out_base + i] = F::cast_from(f32::exp(x - max) / sum);
            }
        }
    }
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
        super::shape::permute(tensor, &axes)
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
        launch(&input, &out, rows, row_len, log, input.dtype);
    }
    if dim == last {
        out
    } else {
        super::shape::permute(out, &axes)
    }
}

fn launch(input: &CubeTensor, out: &CubeTensor, rows: usize, row_len: usize, log: bool, dt: DType) {
    let ty = dtype::storage(dt);
    with_runtime!(&input.client, R, c => {
        let max_units = c.properties().hardware.max_units_per_cube as usize;
        let mut block = BLOCK;
        while block > max_units {
            block /= 2;
        }
        // Rows beyond the x limit of a launch spill into y.
        let max_x = (c.properties().hardware.max_cube_count.0 as usize).max(1);
        let count = CubeCount::Static(
            rows.min(max_x) as u32,
            rows.div_ceil(max_x) as u32,
            1,
        );
        unsafe {
            softmax_kernel::launch_unchecked::<R>(
                c,
                count,
                CubeDim::new_1d(block as u32),
                input.arg::<R>(),
                out.arg::<R>(),
                rows,
                row_len,
                input.offset,
                block,
                log,
                ty,
            );
        }
    });
}
