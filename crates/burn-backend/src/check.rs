//! Shape validation shared by every backend.
//!
//! Policy (written once, here): a shape, dim or index error in a tensor
//! operation is a programmer error, so it panics, and the message names the
//! operation and the offending shapes or values. The tensor API calls these
//! checks before dispatch; backends call them too, so a backend used directly
//! gives the same message instead of undefined behaviour or a wrong answer.

use alloc::vec::Vec;

use burn_std::{DType, Shape, Slice};

/// Panics unless `dim < rank`.
#[track_caller]
pub fn dim(op: &str, dim: usize, shape: &Shape) {
    if dim >= shape.num_dims() {
        panic!(
            "{op}: dim {dim} is out of range for a tensor of shape {shape} (rank {})",
            shape.num_dims()
        );
    }
}

/// The NumPy broadcast of two shapes, or a panic naming both.
#[track_caller]
pub fn broadcast(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    match lhs.broadcast(rhs) {
        Ok(shape) => shape,
        Err(_) => panic!("{op}: shapes {lhs} and {rhs} cannot be broadcast together"),
    }
}

/// The output shape of `lhs.matmul(rhs)`: `[..batch, m, k] x [..batch, k, n] -> [..batch, m, n]`,
/// with the batch dims broadcast.
#[track_caller]
pub fn matmul(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    let (lr, rr) = (lhs.num_dims(), rhs.num_dims());
    if lr < 2 || rr < 2 {
        panic!("{op}: both operands need at least 2 dims, got {lhs} and {rhs}");
    }
    let (k_l, k_r) = (lhs.dims[lr - 1], rhs.dims[rr - 2]);
    if k_l != k_r {
        panic!("{op}: inner dims differ: lhs {lhs} has {k_l} columns, rhs {rhs} has {k_r} rows");
    }
    let batch_l = Shape::from(&lhs.dims[..lr - 2]);
    let batch_r = Shape::from(&rhs.dims[..rr - 2]);
    let Ok(batch) = batch_l.broadcast(&batch_r) else {
        panic!("{op}: batch dims of {lhs} and {rhs} cannot be broadcast together");
    };
    let mut dims = batch.dims;
    dims.push(lhs.dims[lr - 2]);
    dims.push(rhs.dims[rr - 1]);
    Shape::from(dims)
}

/// Panics unless `from` and `to` hold the same number of elements.
#[track_caller]
pub fn reshape(op: &str, from: &Shape, to: &Shape) {
    if from.num_elements() != to.num_elements() {
        panic!(
            "{op}: cannot reshape {from} ({} elements) into {to} ({} elements)",
            from.num_elements(),
            to.num_elements()
        );
    }
}

/// Panics unless `axes` is a permutation of `0..rank`.
#[track_caller]
pub fn permute(op: &str, shape: &Shape, axes: &[usize]) {
    let rank = shape.num_dims();
    let mut seen = alloc::vec![false; rank];
    let valid = axes.len() == rank
        && axes
            .iter()
            .all(|&a| a < rank && !core::mem::replace(&mut seen[a], true));
    if !valid {
        panic!("{op}: {axes:?} is not a permutation of the dims of a tensor of shape {shape}");
    }
}

/// The shape after expanding `from` to `to` (NumPy broadcast of `from` alone;
/// `to` may add leading dims).
#[track_caller]
pub fn expand(op: &str, from: &Shape, to: &Shape) {
    let (fr, tr) = (from.num_dims(), to.num_dims());
    let ok = fr <= tr
        && from
            .dims
            .iter()
            .zip(&to.dims[tr - fr..])
            .all(|(&f, &t)| f == t || f == 1);
    if !ok {
        panic!("{op}: cannot expand shape {from} to {to}: only dims of size 1 can grow");
    }
}

/// Resolves one slice per leading dim (missing trailing dims are taken whole)
/// into `(start, end, step)` triples, or panics naming the dim and shape.
#[track_caller]
pub fn slices(op: &str, shape: &Shape, slices: &[Slice]) -> Vec<(usize, usize, isize)> {
    if slices.len() > shape.num_dims() {
        panic!(
            "{op}: {} slices given for a tensor of shape {shape} (rank {})",
            slices.len(),
            shape.num_dims()
        );
    }
    shape
        .dims
        .iter()
        .enumerate()
        .map(|(d, &size)| match slices.get(d) {
            None => (0, size, 1),
            Some(slice) => slice
                .resolve(size)
                .unwrap_or_else(|err| panic!("{op}: dim {d} of shape {shape}: {err}")),
        })
        .collect()
}

/// The shape of a slice given resolved ranges.
pub fn sliced_shape(ranges: &[(usize, usize, isize)]) -> Shape {
    Shape::from(
        ranges
            .iter()
            .map(|&(start, end, step)| (end - start).div_ceil(step.unsigned_abs()))
            .collect::<Vec<_>>(),
    )
}

/// The output shape of concatenating `shapes` along `dim`.
#[track_caller]
pub fn cat(op: &str, shapes: &[Shape], dim: usize) -> Shape {
    let Some(first) = shapes.first() else {
        panic!("{op}: needs at least one tensor");
    };
    self::dim(op, dim, first);
    let mut out = first.clone();
    out.dims[dim] = 0;
    for s in shapes {
        let same_rank = s.num_dims() == first.num_dims();
        if !same_rank
            || s.dims
                .iter()
                .enumerate()
                .any(|(d, &n)| d != dim && n != first.dims[d])
        {
            panic!("{op}: shapes {first} and {s} differ outside dim {dim}");
        }
        out.dims[dim] += s.dims[dim];
    }
    out
}

/// Checks `gather`/`scatter` operands: same rank, and `indices` no larger than
/// `tensor` outside `dim`.
#[track_caller]
pub fn gather(op: &str, dim: usize, shape: &Shape, indices: &Shape) {
    self::dim(op, dim, shape);
    if shape.num_dims() != indices.num_dims() {
        panic!("{op}: tensor {shape} and indices {indices} must have the same rank");
    }
    for d in 0..shape.num_dims() {
        if d != dim && indices.dims[d] > shape.dims[d] {
            panic!("{op}: indices {indices} exceed tensor {shape} at dim {d}");
        }
    }
}

/// Panics with a message naming `op` and `index` unless `index < size`.
#[track_caller]
pub fn index(op: &str, index: i64, size: usize, dim: usize) -> usize {
    if index < 0 || index as u64 >= size as u64 {
        panic!("{op}: index {index} is out of bounds for dim {dim} of size {size}");
    }
    index as usize
}

/// Panics unless the dtype is a float dtype.
#[track_caller]
pub fn float_dtype(op: &str, dtype: DType) {
    if !dtype.is_float() {
        panic!("{op}: expected a float dtype, got {dtype}");
    }
}

/// Panics unless the dtype is an integer dtype.
#[track_caller]
pub fn int_dtype(op: &str, dtype: DType) {
    if !dtype.is_int() {
        panic!("{op}: expected an integer dtype, got {dtype}");
    }
}

/// Panics unless both operands share a dtype.
#[track_caller]
pub fn same_dtype(op: &str, lhs: DType, rhs: DType) {
    if lhs != rhs {
        panic!("{op}: operands have different dtypes {lhs} and {rhs}; cast one first");
    }
}
