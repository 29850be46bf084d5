//! Tensor shapes and broadcasting.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::{DType, ShapeError, SizeError};

/// The size of every dimension of a tensor, outermost first.
///
/// A rank-0 shape (no dimensions) describes a scalar and has one element.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Shape {
    /// Dimension sizes, outermost first.
    pub dims: Vec<usize>,
}

impl Shape {
    /// Build a shape from a fixed-size array of dimensions.
    pub fn new<const D: usize>(dims: [usize; D]) -> Self {
        Self {
            dims: dims.to_vec(),
        }
    }

    /// Total number of elements (1 for rank 0, 0 if any dimension is 0).
    ///
    /// # Panics
    /// If the count exceeds `isize::MAX` (see [`Shape::try_num_elements`]);
    /// a wrapped count would let a buffer too small for the shape pass
    /// every later check.
    #[track_caller]
    pub fn num_elements(&self) -> usize {
        self.try_num_elements()
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// Total number of elements, or [`SizeError::ElementsOverflow`] when it
    /// exceeds `isize::MAX`.
    ///
    /// The bound is `isize::MAX`, not `usize::MAX`: no slice can hold more
    /// elements, and strided kernels compute signed offsets, so a shape
    /// within it can be indexed without overflow. A zero dim makes the count
    /// 0 whatever the other dims are.
    ///
    /// ```
    /// use burn_std::{Shape, SizeError};
    ///
    /// assert_eq!(Shape::new([2, 0, 1 << 62]).try_num_elements(), Ok(0));
    /// assert!(matches!(
    ///     Shape::new([1 << 31, 1 << 33]).try_num_elements(),
    ///     Err(SizeError::ElementsOverflow { .. })
    /// ));
    /// ```
    pub fn try_num_elements(&self) -> Result<usize, SizeError> {
        if self.dims.contains(&0) {
            return Ok(0);
        }
        self.dims
            .iter()
            .try_fold(1usize, |acc, &dim| acc.checked_mul(dim))
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| SizeError::ElementsOverflow {
                shape: self.clone(),
            })
    }

    /// Bytes of a dense buffer of this shape holding `dtype` elements, or why
    /// no such buffer can exist (see [`Shape::try_num_elements`]; the byte
    /// count is bounded by `isize::MAX` as well, the most any allocation
    /// may hold).
    ///
    /// ```
    /// use burn_std::{DType, Shape, SizeError};
    ///
    /// assert_eq!(Shape::new([2, 3]).try_num_bytes(DType::F32), Ok(24));
    /// // 2^62 elements fit, 2^64 bytes do not.
    /// assert!(matches!(
    ///     Shape::new([1 << 31, 1 << 31]).try_num_bytes(DType::F32),
    ///     Err(SizeError::BytesOverflow { dtype: DType::F32, .. })
    /// ));
    /// ```
    pub fn try_num_bytes(&self, dtype: DType) -> Result<usize, SizeError> {
        if let DType::QFloat(scheme) = dtype {
            return crate::quantization::quantized_data_len(&scheme, self);
        }
        self.try_num_elements()?
            .checked_mul(dtype.size())
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| SizeError::BytesOverflow {
                shape: self.clone(),
                dtype,
            })
    }

    /// Number of dimensions.
    pub fn num_dims(&self) -> usize {
        self.dims.len()
    }

    /// Number of dimensions; same as [`Shape::num_dims`].
    pub fn rank(&self) -> usize {
        self.num_dims()
    }

    /// Element strides of a dense row-major layout of this shape.
    ///
    /// The products saturate instead of overflowing. That changes no stride
    /// a kernel can use: when the element count fits
    /// ([`Shape::try_num_elements`]) every partial product fits too, and when
    /// a dim is 0 no element is ever addressed (`[0, 2^40, 2^40]` has a
    /// leading stride of 2^80, which no index reaches).
    pub fn contiguous_strides(&self) -> Vec<usize> {
        let mut strides = alloc::vec![0; self.dims.len()];
        let mut acc = 1usize;
        for (stride, &dim) in strides.iter_mut().zip(&self.dims).rev() {
            *stride = acc;
            acc = acc.saturating_mul(dim);
        }
        strides
    }

    /// The shape both operands take under NumPy broadcasting rules.
    ///
    /// Shapes are aligned on their last dimension; missing leading dimensions
    /// count as 1, and an axis broadcasts when the sizes match or one is 1.
    pub fn broadcast(&self, other: &Shape) -> Result<Shape, ShapeError> {
        let rank = self.rank().max(other.rank());
        let mut dims = alloc::vec![0; rank];
        for axis in 0..rank {
            let lhs_dim = dim_from_right(&self.dims, axis);
            let rhs_dim = dim_from_right(&other.dims, axis);
            let out = if lhs_dim == rhs_dim || rhs_dim == 1 {
                lhs_dim
            } else if lhs_dim == 1 {
                rhs_dim
            } else {
                return Err(ShapeError::BroadcastIncompatible {
                    lhs: self.clone(),
                    rhs: other.clone(),
                    axis,
                    lhs_dim,
                    rhs_dim,
                });
            };
            dims[rank - 1 - axis] = out;
        }
        // Both operands may be views (expanded) whose dims multiply out past
        // what the result can address: [2^40, 1] with [1, 2^40].
        let out = Shape { dims };
        out.try_num_elements()
            .map_err(|source| ShapeError::TooLarge {
                lhs: self.clone(),
                rhs: other.clone(),
                source,
            })?;
        Ok(out)
    }
}

fn dim_from_right(dims: &[usize], axis: usize) -> usize {
    if axis < dims.len() {
        dims[dims.len() - 1 - axis]
    } else {
        1
    }
}

impl<const D: usize> From<[usize; D]> for Shape {
    fn from(dims: [usize; D]) -> Self {
        Self::new(dims)
    }
}

impl From<Vec<usize>> for Shape {
    fn from(dims: Vec<usize>) -> Self {
        Self { dims }
    }
}

impl From<&[usize]> for Shape {
    fn from(dims: &[usize]) -> Self {
        Self {
            dims: dims.to_vec(),
        }
    }
}

impl From<&Vec<usize>> for Shape {
    fn from(dims: &Vec<usize>) -> Self {
        Self { dims: dims.clone() }
    }
}

impl From<&Shape> for Shape {
    fn from(shape: &Shape) -> Self {
        shape.clone()
    }
}

impl From<Shape> for Vec<usize> {
    fn from(shape: Shape) -> Self {
        shape.dims
    }
}

impl Index<usize> for Shape {
    type Output = usize;

    fn index(&self, index: usize) -> &usize {
        &self.dims[index]
    }
}

impl IndexMut<usize> for Shape {
    fn index_mut(&mut self, index: usize) -> &mut usize {
        &mut self.dims[index]
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, dim) in self.dims.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{dim}")?;
        }
        f.write_str("]")
    }
}
