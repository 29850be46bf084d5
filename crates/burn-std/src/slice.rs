//! Python-style slices of one dimension.

use core::fmt;
use core::ops::{Range, RangeFrom, RangeFull, RangeInclusive};

use serde::{Deserialize, Serialize};

use crate::SliceError;

/// A strided range over one dimension.
///
/// Negative `start`/`end` count from the end of the dimension (`-1` is the
/// last index); `end: None` means "to the end". Out-of-range bounds are
/// errors rather than being clamped, because silently shrinking a slice
/// hides indexing bugs.
///
/// The step picks elements from the resolved `start..end`: a positive step
/// walks forward from `start`; a negative step walks the *same* range
/// backwards from `end - 1`. So `[0, 1, 2, 3, 4]` sliced with `0..5` and
/// step `-2` yields `[4, 2, 0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Slice {
    /// First index (inclusive), possibly negative.
    pub start: isize,
    /// End index (exclusive), possibly negative; `None` is the dimension size.
    pub end: Option<isize>,
    /// Distance between taken indices; negative reverses the order.
    pub step: isize,
}

impl Slice {
    /// A slice from its parts.
    pub const fn new(start: isize, end: Option<isize>, step: isize) -> Self {
        Self { start, end, step }
    }

    /// The whole dimension in order.
    pub const fn full() -> Self {
        Self::new(0, None, 1)
    }

    /// Exactly one element (the dimension is kept with size 1).
    pub const fn index(index: isize) -> Self {
        // `-1 + 1 == 0` would mean "end at 0"; the last element needs "to the end".
        let end = if index == -1 {
            None
        } else {
            Some(index.saturating_add(1))
        };
        Self::new(index, end, 1)
    }

    /// Same range with another step.
    pub const fn with_step(self, step: isize) -> Self {
        Self::new(self.start, self.end, step)
    }

    /// Normalize against a dimension of `dim_size`: `(start, end, step)`
    /// with `0 <= start <= end <= dim_size`.
    pub fn resolve(&self, dim_size: usize) -> Result<(usize, usize, isize), SliceError> {
        if self.step == 0 {
            return Err(SliceError::ZeroStep { slice: *self });
        }
        let out_of_range = || SliceError::OutOfRange {
            slice: *self,
            dim_size,
        };
        let start = wrap(self.start, dim_size).ok_or_else(out_of_range)?;
        let end = match self.end {
            None => dim_size,
            Some(end) => wrap(end, dim_size).ok_or_else(out_of_range)?,
        };
        if start > end {
            return Err(SliceError::StartAfterEnd {
                slice: *self,
                dim_size,
                start,
                end,
            });
        }
        Ok((start, end, self.step))
    }

    /// Number of elements selected: `ceil((end - start) / |step|)`.
    pub fn output_len(&self, dim_size: usize) -> Result<usize, SliceError> {
        let (start, end, step) = self.resolve(dim_size)?;
        Ok((end - start).div_ceil(step.unsigned_abs()))
    }

    /// The selected indices, in the order they are taken.
    pub fn indices(
        &self,
        dim_size: usize,
    ) -> Result<impl Iterator<Item = usize> + use<>, SliceError> {
        let (start, end, step) = self.resolve(dim_size)?;
        let len = (end - start).div_ceil(step.unsigned_abs());
        let stride = step.unsigned_abs();
        Ok((0..len).map(move |i| {
            if step > 0 {
                start + i * stride
            } else {
                end - 1 - i * stride
            }
        }))
    }
}

// Map a possibly negative index into `0..=dim_size`, or `None` if it falls
// outside.
fn wrap(index: isize, dim_size: usize) -> Option<usize> {
    let resolved = if index < 0 {
        dim_size.checked_sub(index.unsigned_abs())?
    } else {
        index.unsigned_abs()
    };
    (resolved <= dim_size).then_some(resolved)
}

impl Default for Slice {
    fn default() -> Self {
        Self::full()
    }
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..", self.start)?;
        if let Some(end) = self.end {
            write!(f, "{end}")?;
        }
        if self.step != 1 {
            write!(f, ";{}", self.step)?;
        }
        Ok(())
    }
}

// Indices too large for `isize` cannot address memory anyway; saturating
// makes them surface as an out-of-range error at `resolve`.
trait ToIsize: Copy {
    fn to_isize(self) -> isize;
}

macro_rules! impl_slice_from {
    ($($ty:ty),*) => {
        $(
            impl ToIsize for $ty {
                fn to_isize(self) -> isize {
                    isize::try_from(self).unwrap_or(if self > <$ty>::from(0u8) { isize::MAX } else { isize::MIN })
                }
            }

            impl From<Range<$ty>> for Slice {
                fn from(range: Range<$ty>) -> Self {
                    Slice::new(range.start.to_isize(), Some(range.end.to_isize()), 1)
                }
            }

            impl From<RangeFrom<$ty>> for Slice {
                fn from(range: RangeFrom<$ty>) -> Self {
                    Slice::new(range.start.to_isize(), None, 1)
                }
            }

            impl From<RangeInclusive<$ty>> for Slice {
                fn from(range: RangeInclusive<$ty>) -> Self {
                    let last = range.end().to_isize();
                    let end = if last == -1 { None } else { Some(last.saturating_add(1)) };
                    Slice::new(range.start().to_isize(), end, 1)
                }
            }

            impl From<$ty> for Slice {
                fn from(index: $ty) -> Self {
                    Slice::index(index.to_isize())
                }
            }
        )*
    };
}

impl_slice_from!(i32, i64, isize, usize);

impl From<RangeFull> for Slice {
    fn from(_: RangeFull) -> Self {
        Slice::full()
    }
}
