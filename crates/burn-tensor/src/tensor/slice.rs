//! Argument traits of the shape ops: slices ([`SliceArg`], [`IntoSlice`] and
//! the [`s!`](crate::s) macro), reshape targets ([`ReshapeArgs`]), expand
//! targets ([`BroadcastArgs`]) and signed dim indices ([`AsIndex`]).
//!
//! Each trait only turns its argument into plain values (`Vec<Slice>`,
//! `Vec<i64>`, …); the rules that apply them live in non-generic functions,
//! so the generic surface stays cheap to instantiate.

use core::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::vec::Vec;

use burn_std::{Shape, Slice};

/// A dim index that may be negative (`-1` is the last dim).
pub trait AsIndex: Copy {
    /// The index as an `isize`.
    fn as_index(self) -> isize;
}

macro_rules! impl_as_index {
    ($($ty:ty),*) => {
        $(impl AsIndex for $ty {
            fn as_index(self) -> isize {
                isize::try_from(self).unwrap_or(isize::MAX)
            }
        })*
    };
}

impl_as_index!(usize, isize, i64, i32, u32);

/// Resolves a possibly negative dim against `rank`, or panics naming `op`.
#[track_caller]
pub(crate) fn wrap_dim(op: &str, dim: isize, rank: usize) -> usize {
    let resolved = if dim < 0 { rank as isize + dim } else { dim };
    if resolved < 0 || resolved as usize >= rank {
        panic!("{op}: dim {dim} is out of range for a tensor of rank {rank}");
    }
    resolved as usize
}

/// One dimension of a slice argument: a range of any kind, an index (the
/// dim is kept with size 1), `..`, or a [`Slice`].
pub trait IntoSlice {
    /// The slice of one dimension.
    fn into_slice(self) -> Slice;
}

impl IntoSlice for Slice {
    fn into_slice(self) -> Slice {
        self
    }
}

impl IntoSlice for RangeFull {
    fn into_slice(self) -> Slice {
        Slice::full()
    }
}

macro_rules! impl_into_slice {
    ($($ty:ty),*) => {
        $(
            impl IntoSlice for $ty {
                fn into_slice(self) -> Slice {
                    Slice::index(self.as_index())
                }
            }
            impl IntoSlice for Range<$ty> {
                fn into_slice(self) -> Slice {
                    Slice::new(self.start.as_index(), Some(self.end.as_index()), 1)
                }
            }
            impl IntoSlice for RangeFrom<$ty> {
                fn into_slice(self) -> Slice {
                    Slice::new(self.start.as_index(), None, 1)
                }
            }
            impl IntoSlice for RangeTo<$ty> {
                fn into_slice(self) -> Slice {
                    Slice::new(0, Some(self.end.as_index()), 1)
                }
            }
            impl IntoSlice for RangeInclusive<$ty> {
                fn into_slice(self) -> Slice {
                    Slice::new(self.start().as_index(), inclusive_end(self.end().as_index()), 1)
                }
            }
            impl IntoSlice for RangeToInclusive<$ty> {
                fn into_slice(self) -> Slice {
                    Slice::new(0, inclusive_end(self.end.as_index()), 1)
                }
            }
        )*
    };
}

impl_into_slice!(usize, isize, i64, i32);

/// `..=-1` reaches the end; any other inclusive end is `end + 1`.
fn inclusive_end(last: isize) -> Option<isize> {
    if last == -1 {
        None
    } else {
        Some(last.saturating_add(1))
    }
}

/// A slice argument of a rank-`D` tensor: one [`Slice`] per leading dim,
/// trailing dims taken whole.
///
/// Implemented for arrays of anything [`IntoSlice`] (`[0..2, 1..3]`, the
/// output of [`s!`](crate::s)), for `Vec<Slice>` and `&[Slice]`, and for a
/// single range or index (the first dim).
pub trait SliceArg<const D: usize> {
    /// The slices, one per leading dim.
    fn into_slices(self) -> Vec<Slice>;
}

impl<const D: usize, const N: usize, T: IntoSlice> SliceArg<D> for [T; N] {
    fn into_slices(self) -> Vec<Slice> {
        self.into_iter().map(IntoSlice::into_slice).collect()
    }
}

impl<const D: usize> SliceArg<D> for Vec<Slice> {
    fn into_slices(self) -> Vec<Slice> {
        self
    }
}

impl<const D: usize> SliceArg<D> for &[Slice] {
    fn into_slices(self) -> Vec<Slice> {
        self.to_vec()
    }
}

impl<const D: usize> SliceArg<D> for Slice {
    fn into_slices(self) -> Vec<Slice> {
        std::vec![self]
    }
}

macro_rules! impl_slice_arg_single {
    ($($ty:ty),*) => {
        $(impl<const D: usize> SliceArg<D> for $ty {
            fn into_slices(self) -> Vec<Slice> {
                std::vec![self.into_slice()]
            }
        })*
    };
}

impl_slice_arg_single!(
    RangeFull,
    Range<usize>,
    Range<i32>,
    Range<i64>,
    RangeFrom<usize>,
    RangeFrom<i32>,
    RangeFrom<i64>,
    RangeTo<usize>,
    RangeTo<i32>,
    RangeTo<i64>
);

/// Builds a slice argument, one entry per leading dim:
///
/// - `a..b`, `a..`, `..b`, `a..=b`, `..=b`, `..`: ranges; negative bounds
///   count from the end (`..-1` drops the last element);
/// - `i`: a single index; the dim is kept with size 1;
/// - `range;step`: every `step`-th element; a negative step walks the same
///   range backwards (`..;-1` reverses the dim).
///
/// The result is an array of [`Slice`](crate::Slice) for
/// [`Tensor::slice`](crate::Tensor::slice), `slice_assign` and `slice_fill`.
///
/// ```
/// # #[cfg(feature = "flex")] {
/// use burn_tensor::{Device, Int, Tensor, s};
///
/// let device = Device::flex();
/// let x = Tensor::<1, Int>::arange(0..10, &device).reshape([2, 5]);
/// let y = x.slice(s![1, 1..;2]);
/// assert_eq!(y.dims(), [1, 2]);
/// assert_eq!(y.into_data().to_vec::<i64>().unwrap(), vec![6, 8]);
/// # }
/// ```
#[macro_export]
macro_rules! s {
    (@acc [$($acc:expr),*] $range:expr; $step:expr, $($rest:tt)+) => {
        $crate::s!(@acc [$($acc,)* $crate::IntoSlice::into_slice($range).with_step($step)] $($rest)+)
    };
    (@acc [$($acc:expr),*] $range:expr; $step:expr $(,)?) => {
        [$($acc,)* $crate::IntoSlice::into_slice($range).with_step($step)]
    };
    (@acc [$($acc:expr),*] $range:expr, $($rest:tt)+) => {
        $crate::s!(@acc [$($acc,)* $crate::IntoSlice::into_slice($range)] $($rest)+)
    };
    (@acc [$($acc:expr),*] $range:expr $(,)?) => {
        [$($acc,)* $crate::IntoSlice::into_slice($range)]
    };
    [] => { [$crate::Slice::full(); 0] };
    [$($rest:tt)+] => { $crate::s!(@acc [] $($rest)+) };
}

/// What a reshape target resolves from.
#[doc(hidden)]
pub enum ReshapeSpec {
    /// An exact shape.
    Exact(Shape),
    /// Signed dims: `-1` inferred (at most one), `0` keeps the input's size at that position.
    Signed(Vec<i64>),
}

/// A reshape target of rank `D2`: a [`Shape`] or `[usize; D2]` (exact), or
/// `[i32; D2]` / `[i64; D2]` where one `-1` is inferred from the element count
/// and `0` keeps the input's size at that position.
pub trait ReshapeArgs<const D2: usize> {
    #[doc(hidden)]
    fn into_reshape_spec(self) -> ReshapeSpec;
}

impl<const D2: usize> ReshapeArgs<D2> for Shape {
    fn into_reshape_spec(self) -> ReshapeSpec {
        ReshapeSpec::Exact(self)
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [usize; D2] {
    fn into_reshape_spec(self) -> ReshapeSpec {
        ReshapeSpec::Exact(Shape::from(self))
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [i32; D2] {
    fn into_reshape_spec(self) -> ReshapeSpec {
        ReshapeSpec::Signed(self.iter().map(|&d| d as i64).collect())
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [i64; D2] {
    fn into_reshape_spec(self) -> ReshapeSpec {
        ReshapeSpec::Signed(self.to_vec())
    }
}

/// Resolves a reshape target against the input shape (the error message
/// names no op: the caller adds it).
pub(crate) fn try_resolve_reshape(from: &Shape, spec: ReshapeSpec) -> Result<Shape, String> {
    let dims = match spec {
        ReshapeSpec::Exact(shape) => return Ok(shape),
        ReshapeSpec::Signed(dims) => dims,
    };
    let mut inferred = None;
    let mut out = Vec::with_capacity(dims.len());
    for (i, &d) in dims.iter().enumerate() {
        match d {
            -1 if inferred.is_some() => {
                return Err(format!("only one dim can be -1, got {dims:?}"));
            }
            -1 => {
                inferred = Some(i);
                out.push(1);
            }
            0 => match from.dims.get(i) {
                Some(&n) => out.push(n),
                None => {
                    return Err(format!(
                        "dim {i} is 0 (keep) but the input {from} has no dim {i}"
                    ));
                }
            },
            d if d < 0 => return Err(format!("invalid size {d} in {dims:?}")),
            d => out.push(d as usize),
        }
    }
    if let Some(i) = inferred {
        // An overflowing product of the known dims cannot divide anything.
        let known = Shape::from(out.clone()).try_num_elements().unwrap_or(0);
        let total = from.try_num_elements().map_err(|err| err.to_string())?;
        if known == 0 || !total.is_multiple_of(known) {
            return Err(format!(
                "cannot infer the -1 dim of {dims:?} for a tensor of shape {from}"
            ));
        }
        out[i] = total / known;
    }
    Ok(Shape::from(out))
}

/// An expand target of rank `D2` for a rank-`D1` tensor: a [`Shape`],
/// `[usize; D2]`, or `[i32; D2]` / `[i64; D2]` where `-1` keeps the input's
/// size (dims are aligned from the right).
pub trait BroadcastArgs<const D1: usize, const D2: usize> {
    #[doc(hidden)]
    fn into_broadcast_dims(self) -> Vec<i64>;
}

impl<const D1: usize, const D2: usize> BroadcastArgs<D1, D2> for Shape {
    fn into_broadcast_dims(self) -> Vec<i64> {
        self.dims.iter().map(|&d| d as i64).collect()
    }
}

impl<const D1: usize, const D2: usize> BroadcastArgs<D1, D2> for [usize; D2] {
    fn into_broadcast_dims(self) -> Vec<i64> {
        self.iter().map(|&d| d as i64).collect()
    }
}

impl<const D1: usize, const D2: usize> BroadcastArgs<D1, D2> for [i32; D2] {
    fn into_broadcast_dims(self) -> Vec<i64> {
        self.iter().map(|&d| d as i64).collect()
    }
}

impl<const D1: usize, const D2: usize> BroadcastArgs<D1, D2> for [i64; D2] {
    fn into_broadcast_dims(self) -> Vec<i64> {
        self.to_vec()
    }
}

/// Resolves an expand target (`-1` keeps the input's size), or panics naming `op`.
#[track_caller]
pub(crate) fn resolve_expand(op: &str, from: &Shape, dims: &[i64]) -> Shape {
    let (fr, tr) = (from.num_dims(), dims.len());
    if fr > tr {
        panic!("{op}: cannot expand shape {from} to rank {tr}: the rank cannot shrink");
    }
    let out: Vec<usize> = dims
        .iter()
        .enumerate()
        .map(|(i, &d)| match d {
            -1 if i >= tr - fr => from.dims[i - (tr - fr)],
            -1 => panic!("{op}: dim {i} of {dims:?} is -1 but the input {from} has no such dim"),
            d if d < 0 => panic!("{op}: invalid size {d} in {dims:?}"),
            d => d as usize,
        })
        .collect();
    Shape::from(out)
}
