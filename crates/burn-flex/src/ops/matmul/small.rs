//! The direct path: products too small (or too thin) to pay for packing.
//!
//! Two loop orders, picked by which way B is contiguous:
//! - *axpy*: `C[i, :] += A[i, p] · B[p, :]` when B's rows are contiguous
//!   (or after copying B into row-major form);
//! - *dot*: `C[i, j] = A[i, :] · B[:, j]` when B's columns are contiguous (a
//!   transposed weight), with eight interleaved partial sums.
//!
//! Both orders depend only on the shapes and strides, never on threads.

use alloc::vec::Vec;

use super::kernel::GemmFloat;
use super::{Load, MatRef, converted};

/// Lanes of the dot product's partial sums.
const LANES: usize = 8;

/// `out = a · b`, `out` row-major `m × n` and zeroed. Columns are split
/// across threads for a single row, rows otherwise.
pub(crate) fn direct<S: Load<T>, T: GemmFloat>(
    a: MatRef<'_, S>,
    b: MatRef<'_, S>,
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
    // B as compute values: read in place when it needs no conversion and a
    // loop order fits its layout, otherwise copied row-major.
    let copied: Vec<T>;
    let plain = !S::CONVERTS && (b.cs == 1 || b.rs == 1 || n == 1);
    let b: MatRef<'_, T> = if let (true, Some(data)) = (plain, S::as_compute(b.data)) {
        MatRef {
            data,
            off: b.off,
            rs: b.rs,
            cs: b.cs,
        }
    } else {
        copied = (0..k)
            .flat_map(|p| (0..n).map(move |j| b.data[b.idx(p, j)].load()))
            .collect();
        MatRef {
            data: &copied,
            off: 0,
            rs: n as isize,
            cs: 1,
        }
    };
    let dot = b.cs != 1 && n != 1;
    // Rows (or, for one row, columns) per task.
    let rows_per_task = |work_per_row: usize| (1usize << 16).div_ceil(work_per_row.max(1)).max(1);
    let run = |i0: usize, j0: usize, c: &mut [T], rows: usize, cols: usize| {
        if dot {
            dot_rows(a, b, i0, j0, rows, cols, k, c);
        } else {
            axpy_rows(a, b, i0, j0, rows, cols, k, c);
        }
    };
    if threads > 1 {
        if m == 1 {
            let chunk = rows_per_task(k).max(256);
            crate::threads::chunks_mut(out, chunk, |t, c| run(0, t * chunk, c, 1, c.len()));
        } else {
            let chunk = rows_per_task(n * k);
            crate::threads::chunks_mut(out, chunk * n, |t, c| run(t * chunk, 0, c, c.len() / n, n));
        }
        return;
    }
    run(0, 0, out, m, n);
}

/// Rows `i0..i0 + rows`, columns `j0..j0 + cols` of the product, by axpy
/// over contiguous B rows (`b.cs == 1`, or `cols == 1`).
#[allow(clippy::too_many_arguments)]
fn axpy_rows<S: Load<T>, T: GemmFloat>(
    a: MatRef<'_, S>,
    b: MatRef<'_, T>,
    i0: usize,
    j0: usize,
    rows: usize,
    cols: usize,
    k: usize,
    c: &mut [T],
) {
    for (i, crow) in c.chunks_exact_mut(cols).take(rows).enumerate() {
        for p in 0..k {
            let x = a.data[a.idx(i0 + i, p)].load();
            let s = b.idx(p, j0);
            if cols == 1 {
                crow[0] = crow[0] + x * b.data[s];
                continue;
            }
            for (o, &y) in crow.iter_mut().zip(&b.data[s..s + cols]) {
                *o = *o + x * y;
            }
        }
    }
}

/// As [`axpy_rows`], by dot products over contiguous B columns
/// (`b.rs == 1`).
#[allow(clippy::too_many_arguments)]
fn dot_rows<S: Load<T>, T: GemmFloat>(
    a: MatRef<'_, S>,
    b: MatRef<'_, T>,
    i0: usize,
    j0: usize,
    rows: usize,
    cols: usize,
    k: usize,
    c: &mut [T],
) {
    let mut buf: Vec<T> = Vec::new();
    for (i, crow) in c.chunks_exact_mut(cols).take(rows).enumerate() {
        let arow: &[T] = if a.cs == 1 {
            let s = a.idx(i0 + i, 0);
            if buf.is_empty() && S::CONVERTS {
                buf.resize(k, T::default());
            }
            converted(&a.data[s..s + k], &mut buf)
        } else {
            buf.clear();
            buf.extend((0..k).map(|p| a.data[a.idx(i0 + i, p)].load()));
            &buf
        };
        for (j, o) in crow.iter_mut().enumerate() {
            let s = b.idx(0, j0 + j);
            *o = dot(arow, &b.data[s..s + k]);
        }
    }
}

/// `x · y` with `LANES` interleaved partial sums (so it vectorizes), summed
/// pairwise at the end, then the tail.
#[inline]
fn dot<T: GemmFloat>(x: &[T], y: &[T]) -> T {
    let mut acc = [T::default(); LANES];
    let (xc, yc) = (x.chunks_exact(LANES), y.chunks_exact(LANES));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (u, v) in xc.zip(yc) {
        for l in 0..LANES {
            acc[l] = acc[l] + u[l] * v[l];
        }
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            acc[l] = acc[l] + acc[l + width];
        }
    }
    let mut s = acc[0];
    for (&u, &v) in xr.iter().zip(yr) {
        s = s + u * v;
    }
    s
}
