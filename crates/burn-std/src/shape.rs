//! Tensor shapes and broadcasting.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::ShapeError;

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
    pub fn num_elements(&self) -> usize {
        self.dims.iter().product()
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
    pub fn contiguous_strides(&self) -> Vec<usize> {
        let mut strides = alloc::vec![0; self.dims.len()];
        let mut acc = 1;
        for (stride, &dim) in strides.iter_mut().zip(&self.dims).rev() {
            *stride = acc;
            acc *= dim;
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
        Ok(Shape { dims })
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
