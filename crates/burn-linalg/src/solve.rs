//! Linear systems: [`solve`], [`inverse`], [`lstsq`].
//!
//! The right-hand side `B` is a vector `[.., n]` or a matrix `[.., n, k]`,
//! its batch dims broadcasting against `A`'s as in NumPy (right-aligned,
//! equal or one of them 1, missing ones taken as 1). Ranks are static, so
//! the output rank `DO` says which form `B` is, as in Burn: `D − 1` for a
//! vector (then `DB < D`), `max(D, DB)` for a matrix (then `DB ≥ 2`).
//! The two never coincide, so `DO` also settles the shapes that fit both
//! (`A [b, n, n]`, `B [b, n]` with `b = n`): `DO = D − 1` reads `B` as a
//! batch of vectors (PyTorch), `DO = D` as one matrix (NumPy).
//!
//! Each distinct `A` is factored once and reused for every right-hand side
//! that broadcasts against it. The work is done in rank `DW` (`DO` for a
//! matrix `B`, `D` for a vector, as `[.., n, 1]`), with leading 1s added.

use crate::LinalgError;
use crate::decomp::{identity, matmul, transpose};
use crate::grad::{self, attach};
use crate::host::{Dims, Place, matrices, read, reshape, with_matrix};
use crate::kernel::{self, lu as lu_kernel, par_map, qr as qr_kernel, tri};
use burn_tensor::Tensor;

/// How `B` lines up with `A`, in the working rank `DW`.
struct Rhs {
    /// `B` is a matrix `[.., rows, k]` (else a vector `[.., rows]`).
    matrix: bool,
    /// The output's batch dims (broadcast of both), `DW − 2` of them.
    batch: Vec<usize>,
    /// Right-hand sides per matrix.
    k: usize,
    /// `A` as `[..a (padded), m, n]`, rank `DW`.
    a_shape: Vec<usize>,
    /// `B` as `[..b (padded), rows, k]`, rank `DW`.
    b_shape: Vec<usize>,
    /// For each output matrix, the flat index of its `A` and its `B`.
    a_index: Vec<usize>,
    b_index: Vec<usize>,
}

/// The shape checks of `solve` and `lstsq`: `A` of shape `a_shape` (rank
/// `D`), `B` of shape `b_shape` (rank `DB`), output rank `out`; `rows` is
/// what `B`'s rows must be.
fn rhs(
    op: &'static str,
    a_shape: &[usize],
    b_shape: &[usize],
    b_dtype: burn_tensor::DType,
    out: usize,
    rows: usize,
) -> Result<Rhs, LinalgError> {
    let (d, db) = (a_shape.len(), b_shape.len());
    let mismatch = |reason| LinalgError::ShapeMismatch {
        op,
        lhs: a_shape.to_vec(),
        rhs: b_shape.to_vec(),
        reason,
    };
    if !b_dtype.is_float() {
        return Err(LinalgError::NotFloat {
            op,
            dtype: b_dtype,
            shape: b_shape.to_vec(),
        });
    }
    let matrix = db >= 2 && out == d.max(db);
    let vector = db >= 1 && db < d && out + 1 == d;
    if !matrix && !vector {
        return Err(mismatch(
            "the ranks do not fit: B must be a vector [.., n] with DB < D and output \
             rank D − 1, or a matrix [.., n, k] with DB ≥ 2 and output rank max(D, DB)",
        ));
    }
    let (b_batch, b_rows, k) = if matrix {
        (&b_shape[..db - 2], b_shape[db - 2], b_shape[db - 1])
    } else {
        (&b_shape[..db - 1], b_shape[db - 1], 1)
    };
    if b_rows != rows {
        return Err(mismatch("B's rows must equal A's rows"));
    }
    // Right-align both batches in the working rank.
    let dw = if matrix { out } else { d };
    let pad = |batch: &[usize]| {
        let mut p = vec![1; dw - 2 - batch.len()];
        p.extend_from_slice(batch);
        p
    };
    let a_batch = pad(&a_shape[..d - 2]);
    let b_batch = pad(b_batch);
    let mut batch = Vec::with_capacity(dw - 2);
    for (&x, &y) in a_batch.iter().zip(&b_batch) {
        batch.push(match (x, y) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return Err(mismatch("batch dims do not broadcast")),
        });
    }
    let count: usize = batch.iter().product();
    let index = |dims: &[usize], flat: usize| {
        // Row-major unravel over `batch`, re-ravel over `dims` with
        // broadcast dims pinned to 0.
        let mut rem = flat;
        let mut idx = 0;
        let mut stride = 1;
        for d in (0..batch.len()).rev() {
            let i = rem % batch[d];
            rem /= batch[d];
            if dims[d] != 1 {
                idx += i * stride;
            }
            stride *= dims[d];
        }
        idx
    };
    let a_index = (0..count).map(|f| index(&a_batch, f)).collect();
    let b_index = (0..count).map(|f| index(&b_batch, f)).collect();
    let mut a_w = a_batch;
    a_w.extend_from_slice(&a_shape[d - 2..]);
    let mut b_w = b_batch;
    b_w.extend([rows, k]);
    Ok(Rhs {
        matrix,
        batch,
        k,
        a_shape: a_w,
        b_shape: b_w,
        a_index,
        b_index,
    })
}

impl Rhs {
    fn out_shape(&self, cols: usize) -> Vec<usize> {
        let mut s = self.batch.clone();
        if self.matrix {
            s.extend([cols, self.k]);
        } else {
            s.push(cols);
        }
        s
    }
}

/// Solves `A·X = B` for square `A` (LU with partial pivoting, f64).
///
/// `A` is `[.., n, n]`; `B` is a vector `[.., n]` or a matrix `[.., n, k]`
/// whose batch dims broadcast against `A`'s (right-aligned, as NumPy; they
/// may be fewer). `DO` is the output rank and picks the form, as in Burn:
/// `DO = D − 1` for a vector `B` (`DB < D`), giving `X [.., n]`;
/// `DO = max(D, DB)` for a matrix `B`, giving `X [.., n, k]`; the leading
/// dims are the broadcast of both batches. So `solve::<2, 1, 1>` solves one
/// vector and `solve::<3, 2, 3>` one matrix `B` against a batch of `A`.
/// Gradients flow to both `A` and `B`.
///
/// ```
/// use burn_tensor::{Device, Tensor};
///
/// let device = Device::flex();
/// let a = Tensor::<2>::from_floats([[3.0, 1.0], [1.0, 2.0]], &device);
/// let b = Tensor::<1>::from_floats([9.0, 8.0], &device);
/// let x: Tensor<1> = burn_linalg::solve(a, b);
/// let x: Vec<f32> = x.into_data().to_vec().unwrap();
/// assert!((x[0] - 2.0).abs() < 1e-6 && (x[1] - 3.0).abs() < 1e-6);
/// ```
///
/// # Panics
/// If a matrix is singular to working precision, or the shapes or `DO` do
/// not fit; the message names `solve` and the shapes.
#[track_caller]
pub fn solve<const D: usize, const DB: usize, const DO: usize>(
    a: Tensor<D>,
    b: Tensor<DB>,
) -> Tensor<DO> {
    try_solve(a, b).unwrap_or_else(|e| panic!("{e}"))
}

/// [`solve`], with bad input an `Err` ([`LinalgError::Singular`] names the
/// matrix and pivot).
pub fn try_solve<const D: usize, const DB: usize, const DO: usize>(
    a: Tensor<D>,
    b: Tensor<DB>,
) -> Result<Tensor<DO>, LinalgError> {
    const OP: &str = "solve";
    let dims = matrices(OP, &a, true)?;
    let r = rhs(OP, &dims.shape, &b.shape().dims, b.dtype(), DO, dims.n)?;
    // The working rank: `DO` for a matrix `B`, `D` for a vector.
    if r.matrix {
        solve_in::<D, DB, DO, DO>(a, b, &dims, &r)
    } else {
        solve_in::<D, DB, D, DO>(a, b, &dims, &r)
    }
}

fn solve_in<const D: usize, const DB: usize, const DW: usize, const DO: usize>(
    a: Tensor<D>,
    b: Tensor<DB>,
    dims: &Dims,
    r: &Rhs,
) -> Result<Tensor<DO>, LinalgError> {
    const OP: &str = "solve";
    let n = dims.n;
    let k = r.k;
    let a_data = read(&a);
    let b_data = read(&b);
    let factors = par_map(dims.batch, |i| {
        lu_kernel::factor(a_data[i * n * n..(i + 1) * n * n].to_vec(), n, n)
    });
    for (i, f) in factors.iter().enumerate() {
        if let Some(pivot) = f.singular_pivot(n) {
            return Err(LinalgError::Singular {
                op: OP,
                shape: dims.shape.clone(),
                batch: i,
                pivot,
            });
        }
    }
    let xs = par_map(r.a_index.len(), |o| {
        let bi = r.b_index[o];
        factors[r.a_index[o]].solve(n, &b_data[bi * n * k..(bi + 1) * n * k], k)
    });
    let place = Place::of(&a);
    let mut x_shape = r.batch.clone();
    x_shape.extend([n, k]);
    let x: Tensor<DW> = place.build(xs.concat(), &x_shape);
    let x = if a.is_tracked() || b.is_tracked() {
        let ainv: Vec<f64> = factors
            .iter()
            .flat_map(|f| f.solve(n, &identity(n), n))
            .collect();
        let ainv: Tensor<DW> = place.build(ainv, &r.a_shape);
        let aw: Tensor<DW> = reshape(a, &r.a_shape);
        let bw: Tensor<DW> = reshape(b, &r.b_shape);
        let s = grad::solve(aw, bw, ainv, x.clone());
        attach(x, s)
    } else {
        x
    };
    Ok(reshape(x, &r.out_shape(n)))
}

/// The inverse of square matrices (LU with partial pivoting, f64).
///
/// # Panics
/// If a matrix is singular to working precision or not square; the message
/// names `inverse` and the shape.
#[track_caller]
pub fn inverse<const D: usize>(a: Tensor<D>) -> Tensor<D> {
    try_inverse(a).unwrap_or_else(|e| panic!("{e}"))
}

/// [`inverse`], with bad input an `Err`.
pub fn try_inverse<const D: usize>(a: Tensor<D>) -> Result<Tensor<D>, LinalgError> {
    const OP: &str = "inverse";
    let dims = matrices(OP, &a, true)?;
    let n = dims.n;
    let data = read(&a);
    let parts = par_map(dims.batch, |i| {
        let f = lu_kernel::factor(data[i * n * n..(i + 1) * n * n].to_vec(), n, n);
        match f.singular_pivot(n) {
            Some(p) => Err(p),
            None => Ok(f.solve(n, &identity(n), n)),
        }
    });
    let mut inv = Vec::with_capacity(data.len());
    for (i, p) in parts.into_iter().enumerate() {
        match p {
            Ok(v) => inv.extend(v),
            Err(pivot) => {
                return Err(LinalgError::Singular {
                    op: OP,
                    shape: dims.shape,
                    batch: i,
                    pivot,
                });
            }
        }
    }
    let y: Tensor<D> = Place::of(&a).build(inv, &dims.shape);
    Ok(if a.is_tracked() {
        let s = grad::inverse(a, y.clone());
        attach(y, s)
    } else {
        y
    })
}

/// Least-squares solution of `A·X ≈ B` for `A` `[.., m, n]` of full rank:
/// for `m ≥ n` the `X` minimising `‖A·X − B‖`, for `m < n` the
/// minimum-norm `X` with `A·X = B`. Householder QR of `A` (or `Aᵀ`) in f64.
///
/// `B` is a vector `[.., m]` (`DB = D − 1`, giving `X [.., n]`) or a matrix
/// `[.., m, k]` (`DB ≥ D`, giving `X [.., n, k]`); batch dims broadcast as
/// in [`solve`], whose `DO` here is `DB`: `X` has `B`'s rank. Gradients
/// flow to both.
///
/// # Panics
/// If `A` is rank deficient to working precision or the shapes do not fit.
#[track_caller]
pub fn lstsq<const D: usize, const DB: usize>(a: Tensor<D>, b: Tensor<DB>) -> Tensor<DB> {
    try_lstsq(a, b).unwrap_or_else(|e| panic!("{e}"))
}

/// [`lstsq`], with bad input an `Err` ([`LinalgError::RankDeficient`]).
pub fn try_lstsq<const D: usize, const DB: usize>(
    a: Tensor<D>,
    b: Tensor<DB>,
) -> Result<Tensor<DB>, LinalgError> {
    const OP: &str = "lstsq";
    let dims = matrices(OP, &a, false)?;
    let r = rhs(OP, &dims.shape, &b.shape().dims, b.dtype(), DB, dims.m)?;
    if r.matrix {
        lstsq_in::<D, DB, DB>(a, b, &dims, &r)
    } else {
        lstsq_in::<D, DB, D>(a, b, &dims, &r)
    }
}

fn lstsq_in<const D: usize, const DB: usize, const DW: usize>(
    a: Tensor<D>,
    b: Tensor<DB>,
    dims: &Dims,
    r: &Rhs,
) -> Result<Tensor<DB>, LinalgError> {
    const OP: &str = "lstsq";
    let (m, n) = (dims.m, dims.n);
    let k = r.k;
    let tall = m >= n;
    // Factor A (tall) or Aᵀ (wide): F = Q·R with Q p×q, R q×q, q = min(m, n).
    let (p, q) = if tall { (m, n) } else { (n, m) };
    let a_data = read(&a);
    let b_data = read(&b);
    let factors = par_map(dims.batch, |i| {
        let ai = &a_data[i * m * n..(i + 1) * m * n];
        let f = if tall {
            ai.to_vec()
        } else {
            transpose(ai, m, n)
        };
        qr_kernel::factor(f, p, q, q)
    });
    for (i, (_, rm)) in factors.iter().enumerate() {
        let scale = rm.iter().fold(0.0f64, |s, v| s.max(v.abs()));
        if (0..q).any(|j| !kernel::above(rm[j * q + j].abs(), p as f64 * kernel::EPS * scale))
            || (q > 0 && scale == 0.0)
        {
            return Err(LinalgError::RankDeficient {
                op: OP,
                shape: dims.shape.clone(),
                batch: i,
            });
        }
    }
    let xs = par_map(r.a_index.len(), |o| {
        let (qm, rm) = &factors[r.a_index[o]];
        let bi = r.b_index[o];
        let bm = &b_data[bi * m * k..(bi + 1) * m * k];
        if tall {
            // X = R⁻¹·Qᵀ·B.
            let mut x = matmul(&transpose(qm, p, q), bm, q, p, k);
            tri::upper_solve(rm, q, &mut x, k);
            x
        } else {
            // X = Q·R⁻ᵀ·B: solve Rᵀ·Z = B (lower, by the transpose of R).
            let mut z = bm.to_vec();
            tri::lower_solve(&transpose(rm, q, q), q, &mut z, k);
            matmul(qm, &z, p, q, k)
        }
    });
    let place = Place::of(&a);
    let mut x_batch_shape = r.batch.clone();
    x_batch_shape.extend([n, k]);
    let x: Tensor<DW> = place.build(xs.concat(), &x_batch_shape);
    let x = if a.is_tracked() || b.is_tracked() {
        // G (tall) or H (wide) = R⁻¹·R⁻ᵀ.
        let g: Vec<f64> = factors
            .iter()
            .flat_map(|(_, rm)| {
                let mut rinv = identity(q);
                tri::upper_solve(rm, q, &mut rinv, q);
                matmul(&rinv, &transpose(&rinv, q, q), q, q, q)
            })
            .collect();
        let g: Tensor<DW> = place.build(g, &with_matrix(&r.a_shape, q, q));
        let aw: Tensor<DW> = reshape(a, &r.a_shape);
        let bw: Tensor<DW> = reshape(b, &r.b_shape);
        let s = if tall {
            grad::lstsq_tall(aw, bw, g, x.clone())
        } else {
            // Y = H·B per output matrix.
            let y = g.clone().matmul(bw.clone().detach());
            grad::lstsq_wide(aw, bw, g, y)
        };
        attach(x, s)
    } else {
        x
    };
    Ok(reshape(x, &r.out_shape(n)))
}
