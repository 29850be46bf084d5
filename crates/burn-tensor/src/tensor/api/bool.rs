//! Methods of bool tensors.

use std::vec::Vec;

use burn_backend::check;
use burn_std::{Shape, TensorData};

use crate::bridge::BridgeTensor;
use crate::bridge::ops::{self, Kind, bool as bridge};
use crate::tensor::{Bool, Float, Int};
use crate::{Device, Tensor};

impl<const D: usize> Tensor<D, Bool> {
    /// A bool tensor holding `data` (any element type: non-zero is `true`).
    ///
    /// # Panics
    /// If the data's rank is not `D`.
    pub fn from_bool(data: TensorData, device: &Device) -> Self {
        Self::from_data(data, device)
    }

    /// Logical not.
    pub fn bool_not(self) -> Self {
        Self::from_bridge(bridge::not(self.primitive))
    }

    /// Logical and, element-wise (broadcasting).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Bool, Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let a = Tensor::<1, Bool>::from_data([true, true, false], &device);
    /// let b = Tensor::<1, Bool>::from_data([true, false, false], &device);
    /// let c = a.bool_and(b);
    /// assert_eq!(c.into_data().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// # }
    /// ```
    pub fn bool_and(self, rhs: Self) -> Self {
        Self::from_bridge(binary_impl(
            "bool_and",
            self.primitive,
            rhs.primitive,
            bridge::and,
        ))
    }

    /// Logical or, element-wise (broadcasting).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    pub fn bool_or(self, rhs: Self) -> Self {
        Self::from_bridge(binary_impl(
            "bool_or",
            self.primitive,
            rhs.primitive,
            bridge::or,
        ))
    }

    /// Logical xor, element-wise (broadcasting).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    pub fn bool_xor(self, rhs: Self) -> Self {
        Self::from_bridge(binary_impl(
            "bool_xor",
            self.primitive,
            rhs.primitive,
            bridge::xor,
        ))
    }

    /// Whether any element is true, as a tensor of shape `[1]`.
    pub fn any(self) -> Tensor<1, Bool> {
        Tensor::from_bridge(bridge::any(self.primitive))
    }

    /// Whether every element is true (true when empty), as a tensor of shape `[1]`.
    pub fn all(self) -> Tensor<1, Bool> {
        Tensor::from_bridge(bridge::all(self.primitive))
    }

    /// Whether any element along `dim` is true; `dim` is kept with size 1.
    ///
    /// # Panics
    /// If `dim` is out of range.
    pub fn any_dim(self, dim: usize) -> Self {
        Self::from_bridge(reduce_dim_impl(
            "any_dim",
            self.primitive,
            dim,
            bridge::any_dim,
        ))
    }

    /// Whether every element along `dim` is true; `dim` is kept with size 1.
    ///
    /// # Panics
    /// If `dim` is out of range.
    pub fn all_dim(self, dim: usize) -> Self {
        Self::from_bridge(reduce_dim_impl(
            "all_dim",
            self.primitive,
            dim,
            bridge::all_dim,
        ))
    }

    /// 1 for true, 0 for false, as the device's default int dtype.
    pub fn int(self) -> Tensor<D, Int> {
        Tensor::from_bridge(bridge::into_int(self.primitive))
    }

    /// 1.0 for true, 0.0 for false, as the device's default float dtype.
    pub fn float(self) -> Tensor<D, Float> {
        Tensor::from_bridge(bridge::into_float(self.primitive))
    }

    /// The coordinates of the true elements, shape `[count, D]`, in row-major order.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Bool, Device, Tensor};
    ///
    /// let m = Tensor::<2, Bool>::from_data([[true, false], [false, true]], &Device::flex());
    /// let idx = m.argwhere();
    /// assert_eq!(idx.dims(), [2, 2]);
    /// assert_eq!(idx.into_data().to_vec::<i64>().unwrap(), vec![0, 0, 1, 1]);
    /// # }
    /// ```
    pub fn argwhere(self) -> Tensor<2, Int> {
        Tensor::from_bridge(bridge::argwhere(self.primitive))
    }

    /// The indices of the true elements, one 1-D tensor per dim (all of the same length).
    pub fn nonzero(self) -> Vec<Tensor<1, Int>> {
        nonzero_impl(self.primitive)
            .into_iter()
            .map(Tensor::from_bridge)
            .collect()
    }

    /// A mask for keeping the lower triangle of the last two dims: `true`
    /// where `col - row > offset` (the elements to mask), `false` on and
    /// below diagonal `offset`.
    ///
    /// # Panics
    /// If `shape` does not have rank `D` or `D < 2`.
    pub fn tril_mask(shape: impl Into<Shape>, offset: i64, device: &Device) -> Self {
        Self::from_bridge(tri_mask_impl(
            "tril_mask",
            shape.into(),
            D,
            offset,
            TriPart::Lower,
            device,
        ))
    }

    /// A mask for keeping the upper triangle of the last two dims: `true`
    /// where `col - row < offset` (the elements to mask), `false` on and
    /// above diagonal `offset`.
    ///
    /// # Panics
    /// If `shape` does not have rank `D` or `D < 2`.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Bool, Device, Tensor};
    ///
    /// let m = Tensor::<2, Bool>::triu_mask([2, 2], 0, &Device::flex());
    /// assert_eq!(m.into_data().to_vec::<bool>().unwrap(), vec![false, false, true, false]);
    /// # }
    /// ```
    pub fn triu_mask(shape: impl Into<Shape>, offset: i64, device: &Device) -> Self {
        Self::from_bridge(tri_mask_impl(
            "triu_mask",
            shape.into(),
            D,
            offset,
            TriPart::Upper,
            device,
        ))
    }

    /// A mask for keeping diagonal `offset` of the last two dims: `false` where
    /// `col - row == offset`, `true` elsewhere.
    ///
    /// # Panics
    /// If `shape` does not have rank `D` or `D < 2`.
    pub fn diag_mask(shape: impl Into<Shape>, offset: i64, device: &Device) -> Self {
        Self::from_bridge(tri_mask_impl(
            "diag_mask",
            shape.into(),
            D,
            offset,
            TriPart::Diagonal,
            device,
        ))
    }
}

#[track_caller]
fn binary_impl(
    op: &str,
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    f: fn(BridgeTensor, BridgeTensor) -> BridgeTensor,
) -> BridgeTensor {
    check::broadcast(op, &lhs.shape(), &rhs.shape());
    f(lhs, rhs)
}

#[track_caller]
fn reduce_dim_impl(
    op: &str,
    t: BridgeTensor,
    dim: usize,
    f: fn(BridgeTensor, usize) -> BridgeTensor,
) -> BridgeTensor {
    check::dim(op, dim, &t.shape());
    f(t, dim)
}

fn nonzero_impl(t: BridgeTensor) -> Vec<BridgeTensor> {
    let rank = t.shape().num_dims();
    let coords = bridge::argwhere(t);
    let count = coords.shape().dims[0];
    (0..rank)
        .map(|d| {
            let column = ops::narrow(coords.clone(), 1, d, 1);
            ops::reshape(column, Shape::new([count]))
        })
        .collect()
}

/// Which part of the last two dims a mask keeps (`false`).
#[derive(Clone, Copy)]
enum TriPart {
    Lower,
    Upper,
    Diagonal,
}

/// Builds the `[rows, cols]` mask on the host, then broadcasts it to `shape`.
#[track_caller]
fn tri_mask_impl(
    op: &str,
    shape: Shape,
    rank: usize,
    offset: i64,
    part: TriPart,
    device: &Device,
) -> BridgeTensor {
    super::base::check_rank_impl(op, rank, &shape);
    if rank < 2 {
        panic!("{op}: needs at least 2 dims, got shape {shape}");
    }
    let (rows, cols) = (shape.dims[rank - 2], shape.dims[rank - 1]);
    let values: Vec<bool> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r as i64, c as i64)))
        .map(|(r, c)| {
            let diff = c - r;
            match part {
                TriPart::Lower => diff > offset,
                TriPart::Upper => diff < offset,
                TriPart::Diagonal => diff != offset,
            }
        })
        .collect();
    let mut small = std::vec![1; rank - 2];
    small.extend([rows, cols]);
    let mask = ops::from_data(TensorData::new(values, small), Kind::Bool, device, None);
    if rank == 2 {
        mask
    } else {
        ops::expand(mask, shape)
    }
}
