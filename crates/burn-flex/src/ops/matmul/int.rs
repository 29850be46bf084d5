//! Integer matmul: wrapping arithmetic (exact modulo 2^bits, like the
//! element-wise int ops), a cache-blocked axpy loop over contiguous B rows.

use alloc::vec::Vec;

use num_traits::{WrappingAdd, WrappingMul};

use super::MatRef;

/// Columns of C per block: a block row of C stays in L1.
const NB: usize = 512;
/// Depth per block: `KB × NB` of B stays in L2.
const KB: usize = 128;
/// Rows of C per parallel task.
const ROWS: usize = 16;

/// The integer element types.
pub(crate) trait IntGemm:
    Copy + Default + Send + Sync + WrappingAdd + WrappingMul + 'static
{
}
impl<T: Copy + Default + Send + Sync + WrappingAdd + WrappingMul + 'static> IntGemm for T {}

/// `out = a · b` with wrapping arithmetic; `out` row-major `m × n`, zeroed.
pub(crate) fn int_gemm<T: IntGemm>(
    a: MatRef<'_, T>,
    b: MatRef<'_, T>,
    m: usize,
    n: usize,
    k: usize,
    out: &mut [T],
    threads: usize,
) {
    assert_eq!(
        out.len(),
        m * n,
        "matmul: output of {} elements for {m}×{n}",
        out.len()
    );
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    let copied: Vec<T>;
    let b = if b.cs == 1 {
        b
    } else {
        copied = (0..k)
            .flat_map(|p| (0..n).map(move |j| b.data[b.idx(p, j)]))
            .collect();
        MatRef {
            data: &copied,
            off: 0,
            rs: n as isize,
            cs: 1,
        }
    };
    let rows = |t: usize, c: &mut [T]| block_rows(a, b, t * ROWS, n, k, c);
    if threads > 1 && m > ROWS {
        crate::threads::chunks_mut(out, ROWS * n, rows);
        return;
    }
    out.chunks_mut(ROWS * n)
        .enumerate()
        .for_each(|(t, c)| rows(t, c));
}

/// Rows `i0..` of the product into `c` (whole rows of length `n`).
fn block_rows<T: IntGemm>(
    a: MatRef<'_, T>,
    b: MatRef<'_, T>,
    i0: usize,
    n: usize,
    k: usize,
    c: &mut [T],
) {
    for j0 in (0..n).step_by(NB) {
        let cols = NB.min(n - j0);
        for p0 in (0..k).step_by(KB) {
            for (i, crow) in c.chunks_exact_mut(n).enumerate() {
                let crow = &mut crow[j0..j0 + cols];
                for p in p0..KB.min(k - p0) + p0 {
                    let x = a.data[a.idx(i0 + i, p)];
                    let s = b.idx(p, j0);
                    for (o, y) in crow.iter_mut().zip(&b.data[s..s + cols]) {
                        *o = o.wrapping_add(&x.wrapping_mul(y));
                    }
                }
            }
        }
    }
}
