//! Shape validation shared by every backend.
//!
//! Policy (written once, here): a shape, dim or index error in a tensor
//! operation is a programmer error, so it panics, and the message names the
//! operation and the offending shapes or values. The tensor API calls these
//! checks before dispatch; backends call them too, so a backend used directly
//! gives the same message instead of undefined behaviour or a wrong answer.
//!
//! The checks the tensor API also offers as `try_*` forms (reshape, expand,
//! broadcast, matmul, cat) come in pairs: `try_X` returns a [`CheckError`]
//! (the message without the op name), and `X` panics with `"{op}: {error}"`,
//! so both forms give the same words. Every output shape is also checked to
//! be addressable ([`Shape::try_num_elements`]): an element count that would
//! wrap is a [`SizeError`], never a wrong shape handed on.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use burn_std::{DType, Shape, SizeError, Slice};

/// Why a shape check failed, without the name of the operation (the caller
/// adds it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The shapes, dims or values do not fit the operation.
    #[error("{0}")]
    Invalid(String),
    /// The result's size does not fit the address space.
    #[error(transparent)]
    Size(#[from] SizeError),
}

/// Panics with `"{op}: {err}"`, the one way a failed check becomes a panic.
#[track_caller]
#[cold]
fn fail(op: &str, err: CheckError) -> ! {
    panic!("{op}: {err}")
}

/// Panics unless `dim < rank`.
#[track_caller]
pub fn dim(op: &str, dim: usize, shape: &Shape) {
    try_dim(dim, shape).unwrap_or_else(|err| fail(op, err))
}

/// [`dim`] as a `Result`.
pub fn try_dim(dim: usize, shape: &Shape) -> Result<(), CheckError> {
    if dim >= shape.num_dims() {
        return Err(CheckError::Invalid(format!(
            "dim {dim} is out of range for a tensor of shape {shape} (rank {})",
            shape.num_dims()
        )));
    }
    Ok(())
}

/// The NumPy broadcast of two shapes, or a panic naming both.
#[track_caller]
pub fn broadcast(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    try_broadcast(lhs, rhs).unwrap_or_else(|err| fail(op, err))
}

/// [`broadcast`] as a `Result`.
pub fn try_broadcast(lhs: &Shape, rhs: &Shape) -> Result<Shape, CheckError> {
    lhs.broadcast(rhs).map_err(|err| match err {
        burn_std::ShapeError::BroadcastIncompatible { .. } => CheckError::Invalid(format!(
            "shapes {lhs} and {rhs} cannot be broadcast together"
        )),
        burn_std::ShapeError::TooLarge { source, .. } => CheckError::Size(source),
    })
}

/// The output shape of `lhs.matmul(rhs)`: `[..batch, m, k] x [..batch, k, n] -> [..batch, m, n]`,
/// with the batch dims broadcast.
#[track_caller]
pub fn matmul(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    try_matmul(lhs, rhs).unwrap_or_else(|err| fail(op, err))
}

/// [`matmul`] as a `Result`.
pub fn try_matmul(lhs: &Shape, rhs: &Shape) -> Result<Shape, CheckError> {
    let invalid = |msg: String| Err(CheckError::Invalid(msg));
    let (lr, rr) = (lhs.num_dims(), rhs.num_dims());
    if lr < 2 || rr < 2 {
        return invalid(format!(
            "both operands need at least 2 dims, got {lhs} and {rhs}"
        ));
    }
    let (k_l, k_r) = (lhs.dims[lr - 1], rhs.dims[rr - 2]);
    if k_l != k_r {
        return invalid(format!(
            "inner dims differ: lhs {lhs} has {k_l} columns, rhs {rhs} has {k_r} rows"
        ));
    }
    let batch_l = Shape::from(&lhs.dims[..lr - 2]);
    let batch_r = Shape::from(&rhs.dims[..rr - 2]);
    let batch = match batch_l.broadcast(&batch_r) {
        Ok(batch) => batch,
        Err(burn_std::ShapeError::TooLarge { source, .. }) => return Err(source.into()),
        Err(burn_std::ShapeError::BroadcastIncompatible { .. }) => {
            return invalid(format!(
                "batch dims of {lhs} and {rhs} cannot be broadcast together"
            ));
        }
    };
    let mut dims = batch.dims;
    dims.push(lhs.dims[lr - 2]);
    dims.push(rhs.dims[rr - 1]);
    let out = Shape::from(dims);
    // Operands that are expanded views ([2^40, 1] x [1, 2^40]) can ask for
    // an output no buffer can hold.
    out.try_num_elements()?;
    Ok(out)
}

/// Panics unless `from` and `to` hold the same number of elements.
#[track_caller]
pub fn reshape(op: &str, from: &Shape, to: &Shape) {
    try_reshape(from, to).unwrap_or_else(|err| fail(op, err))
}

/// [`reshape`] as a `Result`. A target whose element count overflows is
/// reported as such (a wrapped count could even equal the input's).
pub fn try_reshape(from: &Shape, to: &Shape) -> Result<(), CheckError> {
    let (n_from, n_to) = (from.try_num_elements()?, to.try_num_elements()?);
    if n_from != n_to {
        return Err(CheckError::Invalid(format!(
            "cannot reshape {from} ({n_from} elements) into {to} ({n_to} elements)"
        )));
    }
    Ok(())
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

/// Panics unless `from` can be expanded to `to` (NumPy broadcast of `from`
/// alone; `to` may add leading dims).
#[track_caller]
pub fn expand(op: &str, from: &Shape, to: &Shape) {
    try_expand(from, to).unwrap_or_else(|err| fail(op, err))
}

/// [`expand`] as a `Result`. The view costs no memory, but every op reading
/// it walks `to.num_elements()` positions, so that count must fit too.
pub fn try_expand(from: &Shape, to: &Shape) -> Result<(), CheckError> {
    let (fr, tr) = (from.num_dims(), to.num_dims());
    let ok = fr <= tr
        && from
            .dims
            .iter()
            .zip(&to.dims[tr - fr..])
            .all(|(&f, &t)| f == t || f == 1);
    if !ok {
        return Err(CheckError::Invalid(format!(
            "cannot expand shape {from} to {to}: only dims of size 1 can grow"
        )));
    }
    to.try_num_elements()?;
    Ok(())
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
    try_cat(shapes, dim).unwrap_or_else(|err| fail(op, err))
}

/// [`cat`] as a `Result`; the summed dim is added with overflow checked.
pub fn try_cat(shapes: &[Shape], dim: usize) -> Result<Shape, CheckError> {
    let Some(first) = shapes.first() else {
        return Err(CheckError::Invalid("needs at least one tensor".into()));
    };
    try_dim(dim, first)?;
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
            return Err(CheckError::Invalid(format!(
                "shapes {first} and {s} differ outside dim {dim}"
            )));
        }
        // Even with a zero dim elsewhere (no elements at all), a wrapped
        // sum would be a wrong shape.
        out.dims[dim] = out.dims[dim].checked_add(s.dims[dim]).ok_or_else(|| {
            CheckError::Invalid(format!(
                "the sizes along dim {dim} add up to more than {} (shapes {})",
                usize::MAX,
                shapes_list(shapes)
            ))
        })?;
    }
    out.try_num_elements()?;
    Ok(out)
}

fn shapes_list(shapes: &[Shape]) -> String {
    let parts: Vec<String> = shapes.iter().map(|s| format!("{s}")).collect();
    parts.join(", ")
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

/// Panics unless the dtype is a quantized dtype.
#[track_caller]
pub fn quantized_dtype(op: &str, dtype: DType) {
    if !dtype.is_quantized() {
        panic!("{op}: expected a quantized dtype, got {dtype}");
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

/// The output shape of a convolution: `x` is `[batch, channels, ..spatial]`,
/// `weight` is `[out_channels, channels / groups, ..kernel]`, `bias` is
/// `[out_channels]`; each output size is
/// `(in + 2·padding − dilation·(kernel − 1) − 1) / stride + 1`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn conv(
    op: &str,
    x: &Shape,
    weight: &Shape,
    bias: Option<&Shape>,
    stride: &[usize],
    padding: &[usize],
    dilation: &[usize],
    groups: usize,
) -> Shape {
    let n = stride.len();
    conv_common(op, x, weight, bias, stride, dilation, groups, n);
    let (channels, out_channels) = (x.dims[1], weight.dims[0]);
    if !channels.is_multiple_of(groups) || !out_channels.is_multiple_of(groups) {
        panic!(
            "{op}: {groups} groups must divide the input channels ({channels}) and the output \
             channels ({out_channels}); input {x}, weight {weight}"
        );
    }
    if weight.dims[1] * groups != channels {
        panic!(
            "{op}: weight {weight} expects {} input channels ({} per group × {groups} groups), \
             input {x} has {channels}",
            weight.dims[1] * groups,
            weight.dims[1]
        );
    }
    if let Some(bias) = bias
        && bias.dims[..] != [out_channels]
    {
        panic!("{op}: bias {bias} must be [{out_channels}] for weight {weight}");
    }
    let mut dims = alloc::vec![x.dims[0], out_channels];
    for d in 0..n {
        let (size, k) = (x.dims[2 + d] + 2 * padding[d], weight.dims[2 + d]);
        let span = dilation[d] * (k - 1) + 1;
        if k == 0 || size < span {
            panic!(
                "{op}: kernel {weight} with dilation {dilation:?} spans {span} along spatial dim \
                 {d}, more than the padded input size {size} (input {x}, padding {padding:?})"
            );
        }
        dims.push((size - span) / stride[d] + 1);
    }
    Shape::from(dims)
}

/// The output shape of a transposed convolution: `x` is
/// `[batch, channels, ..spatial]`, `weight` is
/// `[channels, out_channels / groups, ..kernel]`, `bias` is `[out_channels]`;
/// each output size is
/// `(in − 1)·stride − 2·padding + dilation·(kernel − 1) + padding_out + 1`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn conv_transpose(
    op: &str,
    x: &Shape,
    weight: &Shape,
    bias: Option<&Shape>,
    stride: &[usize],
    padding: &[usize],
    padding_out: &[usize],
    dilation: &[usize],
    groups: usize,
) -> Shape {
    let n = stride.len();
    conv_common(op, x, weight, bias, stride, dilation, groups, n);
    let channels = x.dims[1];
    if weight.dims[0] != channels || !channels.is_multiple_of(groups) {
        panic!(
            "{op}: weight {weight} must have as many rows as the input {x} has channels \
             ({channels}), a multiple of the {groups} groups"
        );
    }
    let out_channels = weight.dims[1] * groups;
    if let Some(bias) = bias
        && bias.dims[..] != [out_channels]
    {
        panic!(
            "{op}: bias {bias} must be [{out_channels}] for weight {weight} and {groups} groups"
        );
    }
    let mut dims = alloc::vec![x.dims[0], out_channels];
    for d in 0..n {
        if padding_out[d] >= stride[d] && padding_out[d] >= dilation[d] {
            panic!(
                "{op}: padding_out {padding_out:?} must be smaller than the stride {stride:?} \
                 or the dilation {dilation:?} of each dim"
            );
        }
        let k = weight.dims[2 + d];
        let full = x.dims[2 + d].saturating_sub(1) * stride[d]
            + dilation[d] * k.saturating_sub(1)
            + padding_out[d]
            + 1;
        if k == 0 || x.dims[2 + d] == 0 || full <= 2 * padding[d] {
            panic!(
                "{op}: input {x} and kernel {weight} give no output along spatial dim {d} \
                 with padding {padding:?}"
            );
        }
        dims.push(full - 2 * padding[d]);
    }
    Shape::from(dims)
}

/// The checks a convolution and its transpose share: ranks and option values.
#[track_caller]
#[allow(clippy::too_many_arguments)]
fn conv_common(
    op: &str,
    x: &Shape,
    weight: &Shape,
    bias: Option<&Shape>,
    stride: &[usize],
    dilation: &[usize],
    groups: usize,
    n: usize,
) {
    if x.num_dims() != n + 2 || weight.num_dims() != n + 2 {
        panic!(
            "{op}: expected input and weight of {} dims ([batch, channels, ..{n} spatial] and \
             [.., .., ..{n} kernel]), got {x} and {weight}",
            n + 2
        );
    }
    if let Some(bias) = bias
        && bias.num_dims() != 1
    {
        panic!("{op}: bias must have 1 dim, got {bias}");
    }
    if groups == 0 || stride.contains(&0) || dilation.contains(&0) {
        panic!(
            "{op}: groups ({groups}), stride {stride:?} and dilation {dilation:?} must be positive"
        );
    }
}
