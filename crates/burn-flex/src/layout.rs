//! Strided layouts: how a logical shape maps onto a flat buffer.
//!
//! Shape ops (permute, expand, slice with steps, flip, narrow, reshape of a
//! contiguous tensor) only rewrite the layout and share the buffer. Strides
//! are in elements and may be zero (broadcast) or negative (flip, negative
//! slice steps); `offset` is the element index of the logical origin.

use alloc::vec;
use alloc::vec::Vec;

use burn_std::Shape;

/// Shape, strides and origin of a view into a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    shape: Shape,
    strides: Vec<isize>,
    offset: usize,
}

impl Layout {
    /// The row-major layout of `shape` starting at element 0.
    pub fn contiguous(shape: Shape) -> Self {
        let strides = contiguous_strides(&shape.dims);
        Self {
            shape,
            strides,
            offset: 0,
        }
    }

    /// A layout from its parts. The caller guarantees every reachable offset
    /// lies inside the buffer it will be paired with.
    pub fn new(shape: Shape, strides: Vec<isize>, offset: usize) -> Self {
        debug_assert_eq!(shape.num_dims(), strides.len());
        Self {
            shape,
            strides,
            offset,
        }
    }

    /// The logical shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The element index of the logical origin.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of logical elements.
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// Whether the elements lie row-major and gap-free from `offset`
    /// (size-1 dims may carry any stride).
    pub fn is_contiguous(&self) -> bool {
        // Nothing to lay out: an empty layout is trivially row-major (and
        // strides past a zero-size dim are arbitrary).
        if self.num_elements() == 0 {
            return true;
        }
        let mut expected = 1isize;
        for (&n, &s) in self.shape.dims.iter().zip(&self.strides).rev() {
            if n != 1 && s != expected {
                return false;
            }
            expected *= n as isize;
        }
        true
    }

    /// The buffer range of a contiguous layout.
    pub fn contiguous_range(&self) -> Option<core::ops::Range<usize>> {
        self.is_contiguous()
            .then(|| self.offset..self.offset + self.num_elements())
    }

    /// The smallest and one-past-largest buffer index the layout can reach
    /// (`None` when empty). Used to validate layouts against a buffer.
    pub fn span(&self) -> Option<(usize, usize)> {
        if self.num_elements() == 0 {
            return None;
        }
        // i128: a hostile view ([2^40] with stride 2^40) must not wrap into
        // a span that passes the buffer check; the products of usize-range
        // dims and isize-range strides fit easily.
        let (mut lo, mut hi) = (self.offset as i128, self.offset as i128);
        for (&n, &s) in self.shape.dims.iter().zip(&self.strides) {
            let reach = (n as i128 - 1) * s as i128;
            if reach < 0 { lo += reach } else { hi += reach }
        }
        let clamp = |v: i128| usize::try_from(v.max(0)).unwrap_or(usize::MAX);
        Some((clamp(lo), clamp(hi + 1)))
    }

    /// Output dim `i` is input dim `axes[i]`.
    pub fn permute(&self, axes: &[usize]) -> Self {
        Self {
            shape: Shape::from(axes.iter().map(|&a| self.shape.dims[a]).collect::<Vec<_>>()),
            strides: axes.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
        }
    }

    /// Broadcast to `shape` (already validated): new leading dims and grown
    /// size-1 dims get stride 0.
    pub fn expand(&self, shape: &Shape) -> Self {
        let extra = shape.num_dims() - self.shape.num_dims();
        let strides = shape
            .dims
            .iter()
            .enumerate()
            .map(|(d, &n)| {
                if d < extra {
                    0
                } else {
                    let src = d - extra;
                    if self.shape.dims[src] == n {
                        self.strides[src]
                    } else {
                        0
                    }
                }
            })
            .collect();
        Self {
            shape: shape.clone(),
            strides,
            offset: self.offset,
        }
    }

    /// A view of resolved `(start, end, step)` ranges, one per dim.
    pub fn slice(&self, ranges: &[(usize, usize, isize)]) -> Self {
        let mut offset = self.offset as isize;
        let mut dims = Vec::with_capacity(ranges.len());
        let mut strides = Vec::with_capacity(ranges.len());
        for (d, &(start, end, step)) in ranges.iter().enumerate() {
            let len = (end - start).div_ceil(step.unsigned_abs());
            let stride = self.strides[d];
            if len > 0 {
                // A negative step walks the same range from its last element back.
                let first = if step > 0 { start } else { end - 1 };
                offset += first as isize * stride;
            }
            dims.push(len);
            strides.push(stride * step);
        }
        Self {
            shape: Shape::from(dims),
            strides,
            offset: offset.max(0) as usize,
        }
    }

    /// Reverses the given axes.
    pub fn flip(&self, axes: &[usize]) -> Self {
        let mut out = self.clone();
        let mut offset = out.offset as isize;
        for &a in axes {
            let n = out.shape.dims[a];
            if n > 0 {
                offset += (n as isize - 1) * out.strides[a];
            }
            out.strides[a] = -out.strides[a];
        }
        out.offset = offset as usize;
        out
    }

    /// The same elements under `shape`, as a view when the layout allows it
    /// (contiguous); `None` means the caller must copy first.
    pub fn reshape(&self, shape: &Shape) -> Option<Self> {
        self.is_contiguous().then(|| Self {
            strides: contiguous_strides(&shape.dims),
            shape: shape.clone(),
            offset: self.offset,
        })
    }

    /// Merges dims that are laid out back to back and drops size-1 dims, so
    /// iteration runs over as few, as long, rows as possible. Element order
    /// is preserved.
    pub fn simplified(&self) -> (Vec<usize>, Vec<isize>) {
        let (dims, [strides]) = simplify_many(&self.shape.dims, [&self.strides]);
        (dims, strides)
    }
}

/// Merges dims that are back to back in *every* operand (and drops dims of
/// size 1), for kernels that walk several layouts of one shape in lockstep.
pub fn simplify_many<const N: usize>(
    dims: &[usize],
    strides: [&[isize]; N],
) -> (Vec<usize>, [Vec<isize>; N]) {
    let mut out_dims: Vec<usize> = Vec::with_capacity(dims.len());
    let mut out: [Vec<isize>; N] = core::array::from_fn(|_| Vec::with_capacity(dims.len()));
    for (d, &n) in dims.iter().enumerate() {
        if n == 1 {
            continue;
        }
        let mergeable = !out_dims.is_empty()
            && (0..N).all(|k| *out[k].last().unwrap() == strides[k][d] * n as isize);
        if mergeable {
            *out_dims.last_mut().unwrap() *= n;
            for k in 0..N {
                *out[k].last_mut().unwrap() = strides[k][d];
            }
        } else {
            out_dims.push(n);
            for k in 0..N {
                out[k].push(strides[k][d]);
            }
        }
    }
    if out_dims.is_empty() {
        out_dims.push(1);
        for v in out.iter_mut() {
            v.push(1);
        }
    }
    (out_dims, out)
}

/// Row-major strides of `dims`.
///
/// Saturating, as [`Shape::contiguous_strides`]: a shape whose element
/// count fits (every buffer-backed shape) has every partial product in
/// range, and the strides past a zero dim (`[0, 2^40, 2^40]`) address
/// nothing.
pub fn contiguous_strides(dims: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; dims.len()];
    let mut acc = 1isize;
    for (s, &n) in strides.iter_mut().zip(dims).rev() {
        *s = acc;
        acc = acc.saturating_mul(isize::try_from(n.max(1)).unwrap_or(isize::MAX));
    }
    strides
}

/// Calls `f(start_offset)` for each innermost row of `dims`/`strides` (as
/// produced by [`Layout::simplified`] or aligned across several layouts); the
/// row has `dims.last()` elements spaced by the last stride.
///
/// `starts` holds one base offset per operand; `strides[k]` the strides of
/// operand `k`. This is the odometer every strided kernel walks, so a kernel
/// only writes its tight inner loop.
#[inline]
pub fn for_each_row<const N: usize>(
    dims: &[usize],
    strides: [&[isize]; N],
    starts: [isize; N],
    mut f: impl FnMut([isize; N]),
) {
    let rank = dims.len();
    if dims.contains(&0) {
        return;
    }
    if rank <= 1 {
        f(starts);
        return;
    }
    let outer = &dims[..rank - 1];
    let mut index = vec![0usize; rank - 1];
    let mut pos = starts;
    loop {
        f(pos);
        // Advance the odometer over the outer dims.
        let mut d = rank - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            for k in 0..N {
                pos[k] += strides[k][d];
            }
            if index[d] < outer[d] {
                break;
            }
            for k in 0..N {
                pos[k] -= strides[k][d] * outer[d] as isize;
            }
            index[d] = 0;
        }
    }
}
