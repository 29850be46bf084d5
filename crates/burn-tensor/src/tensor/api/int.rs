//! Methods of int tensors.

use core::ops::Range;

use burn_std::{Element, Scalar, TensorData};

use super::numeric::broadcast_impl;
use crate::Tensor;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::{self, Kind, int as bridge};
use crate::tensor::{Float, Int, TensorCreationOptions};

impl Tensor<1, Int> {
    /// `range.start, …, range.end - 1`.
    pub fn arange(range: Range<i64>, options: impl Into<TensorCreationOptions>) -> Self {
        let options = options.into();
        let dtype = ops::creation_dtype(Kind::Int, &options.device, options.dtype);
        Self::from_bridge(bridge::arange(range, &options.device, dtype))
    }

    /// `range.start, range.start + step, …` while below `range.end`.
    ///
    /// # Panics
    /// If `step` is 0.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<1, Int>::arange_step(1..8, 3, &device);
    /// assert_eq!(x.into_data().to_vec::<i64>().unwrap(), vec![1, 4, 7]);
    /// # }
    /// ```
    #[track_caller]
    pub fn arange_step(
        range: Range<i64>,
        step: usize,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        let options = options.into();
        Self::from_bridge(arange_step_impl(range, step, options))
    }
}

impl<const D: usize> Tensor<D, Int> {
    /// An int tensor from `data` (any element type; converted to the dtype of
    /// `options`, or the device's default int dtype).
    ///
    /// # Panics
    /// If the data's rank is not `D`.
    pub fn from_ints(
        data: impl Into<TensorData>,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        Self::from_data(data, options)
    }

    /// Converts to a float tensor of the device's default float dtype.
    pub fn float(self) -> Tensor<D, Float> {
        Tensor::from_bridge(bridge::into_float(self.primitive))
    }

    /// Integer matrix product over the last two dims; batch dims broadcast.
    ///
    /// # Panics
    /// If the inner dims differ, the batch dims cannot broadcast, or the
    /// result is too large (see [`try_matmul`](Self::try_matmul)).
    #[track_caller]
    pub fn matmul(self, rhs: Self) -> Self {
        self.try_matmul(rhs).unwrap_or_else(|err| err.raise())
    }

    /// [`matmul`](Self::matmul), with every failure an `Err` (see
    /// [`TensorError`](crate::TensorError)).
    pub fn try_matmul(self, rhs: Self) -> Result<Self, crate::TensorError> {
        super::base::matmul_impl(self.primitive, rhs.primitive, bridge::matmul)
            .map(Self::from_bridge)
    }

    /// Bitwise and, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<1, Int>::from_data([0b1100, 0b1010], &device);
    /// let y = Tensor::<1, Int>::from_data([0b1010, 0b0110], &device);
    /// assert_eq!(x.bitwise_and(y).into_data().to_vec::<i64>().unwrap(), vec![0b1000, 0b0010]);
    /// # }
    /// ```
    #[track_caller]
    pub fn bitwise_and(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "bitwise_and",
            self.primitive,
            other.primitive,
            bridge::bitwise_and,
        ))
    }

    /// Bitwise or, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn bitwise_or(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "bitwise_or",
            self.primitive,
            other.primitive,
            bridge::bitwise_or,
        ))
    }

    /// Bitwise xor, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn bitwise_xor(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "bitwise_xor",
            self.primitive,
            other.primitive,
            bridge::bitwise_xor,
        ))
    }

    /// Bitwise and with a scalar.
    pub fn bitwise_and_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::bitwise_and_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// Bitwise or with a scalar.
    pub fn bitwise_or_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::bitwise_or_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// Bitwise xor with a scalar.
    pub fn bitwise_xor_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::bitwise_xor_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// Bitwise not (`!x`, so `-x - 1` for signed dtypes).
    pub fn bitwise_not(self) -> Self {
        Self::from_bridge(bridge::bitwise_not(self.primitive))
    }

    /// `self << other` element-wise, broadcasting (shifts past the width give 0).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn bitwise_left_shift(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "bitwise_left_shift",
            self.primitive,
            other.primitive,
            bridge::bitwise_left_shift,
        ))
    }

    /// `self >> other` element-wise, broadcasting (arithmetic for signed dtypes).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn bitwise_right_shift(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "bitwise_right_shift",
            self.primitive,
            other.primitive,
            bridge::bitwise_right_shift,
        ))
    }
}

// ------------------------------------------------------- non-generic helpers

#[track_caller]
fn arange_step_impl(
    range: Range<i64>,
    step: usize,
    options: TensorCreationOptions,
) -> BridgeTensor {
    if step == 0 {
        panic!("arange_step: step must be positive, got 0 (range {range:?})");
    }
    let dtype = ops::creation_dtype(Kind::Int, &options.device, options.dtype);
    bridge::arange_step(range, step, &options.device, dtype)
}
