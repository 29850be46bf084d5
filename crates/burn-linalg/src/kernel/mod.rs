//! Host kernels on row-major f64 matrices: the numerical core under the
//! tensor functions. Nothing here knows about tensors, dtypes or autodiff.
//!
//! - [`gemm`]: the packed, register-tiled `C += αAB` that the blocked
//!   factorizations spend their time in (AVX2+FMA when the CPU has it).
//! - [`lu`], [`cholesky`], [`qr`]: blocked right-looking factorizations whose
//!   trailing updates go through `gemm`.
//! - [`tri`]: triangular solves with many right-hand sides.
//! - [`jacobi`]: one-sided Jacobi SVD and cyclic Jacobi symmetric eigen-
//!   decomposition (accurate, simple, O(n³) per sweep: chosen for
//!   correctness over speed).

pub(crate) mod cholesky;
pub(crate) mod gemm;
pub(crate) mod jacobi;
pub(crate) mod lu;
pub(crate) mod qr;
pub(crate) mod tri;

/// Threads for host work: two, the budget this crate is tuned for, or one
/// where the machine has a single core.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().min(2))
        .unwrap_or(1)
}

/// `f(0), …, f(count − 1)`, the indices split into contiguous halves over
/// two threads when there are at least two items.
pub(crate) fn par_map<T: Send>(count: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if count < 2 || threads() < 2 {
        return (0..count).map(f).collect();
    }
    let half = count / 2;
    let (mut first, second) = std::thread::scope(|s| {
        let handle = s.spawn(|| (half..count).map(&f).collect::<Vec<T>>());
        let first = (0..half).map(&f).collect::<Vec<T>>();
        (first, handle.join().expect("linalg worker thread panicked"))
    });
    first.extend(second);
    first
}

/// `x > limit`, false for NaN: the pivot tests, written so a NaN pivot
/// counts as a failure.
pub(crate) fn above(x: f64, limit: f64) -> bool {
    matches!(x.partial_cmp(&limit), Some(core::cmp::Ordering::Greater))
}

/// Machine epsilon of f64.
pub(crate) const EPS: f64 = f64::EPSILON;
