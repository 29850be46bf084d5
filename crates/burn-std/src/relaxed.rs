//! [`flex32`]: a float whose precision the backend may relax.

use core::cmp::Ordering;
use core::fmt;
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

/// A float of relaxed precision: at least [`f16`](half::f16)'s, at most
/// `f32`'s, as the backend finds fastest (Burn's `flex32`).
///
/// This workspace has no relaxed-precision dtype: a `flex32` is stored as
/// an `f32` ([`Element::DTYPE`](crate::Element::DTYPE) is `DType::F32`),
/// and tensors of `flex32` data are `F32` tensors that compute at full
/// `f32` precision, the upper end of what the type allows. Its bytes are
/// those of the `f32` (`#[repr(transparent)]`).
///
/// ```
/// use burn_std::{DType, TensorData, flex32};
///
/// let data = TensorData::from([flex32::from_f32(1.5), flex32::from_f64(-2.0)]);
/// assert_eq!(data.dtype, DType::F32);
/// assert_eq!(data.to_vec::<f32>().unwrap(), [1.5, -2.0]);
/// assert_eq!((flex32::from_f32(3.0) * flex32::from_f32(0.5)).to_f32(), 1.5);
/// ```
#[allow(non_camel_case_types)]
#[repr(transparent)]
#[derive(
    Clone,
    Copy,
    Default,
    PartialEq,
    PartialOrd,
    bytemuck::Pod,
    bytemuck::Zeroable,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct flex32(f32);

impl flex32 {
    /// The smallest positive normal value of the narrowest precision the
    /// type allows (`f16`'s).
    pub const MIN_POSITIVE: Self = Self(6.103_515_6e-5);

    /// From an `f32`.
    pub const fn from_f32(value: f32) -> Self {
        Self(value)
    }

    /// From an `f64`, rounded to `f32`.
    pub const fn from_f64(value: f64) -> Self {
        Self(value as f32)
    }

    /// As an `f32`.
    pub const fn to_f32(self) -> f32 {
        self.0
    }

    /// As an `f64`.
    pub const fn to_f64(self) -> f64 {
        self.0 as f64
    }

    /// The total order of IEEE 754 (`f32::total_cmp`).
    pub fn total_cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }

    /// Whether the value is NaN.
    pub fn is_nan(&self) -> bool {
        self.0.is_nan()
    }
}

impl fmt::Debug for flex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for flex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<f32> for flex32 {
    fn from(value: f32) -> Self {
        Self(value)
    }
}

impl From<flex32> for f32 {
    fn from(value: flex32) -> Self {
        value.0
    }
}

impl Neg for flex32 {
    type Output = Self;
    fn neg(self) -> Self {
        Self(-self.0)
    }
}

macro_rules! binary {
    ($($trait:ident $method:ident $assign:ident $assign_method:ident $op:tt),+) => {$(
        impl $trait for flex32 {
            type Output = Self;
            fn $method(self, other: Self) -> Self {
                Self(self.0 $op other.0)
            }
        }
        impl $assign for flex32 {
            fn $assign_method(&mut self, other: Self) {
                *self = *self $op other;
            }
        }
    )+};
}

binary!(
    Add add AddAssign add_assign +,
    Sub sub SubAssign sub_assign -,
    Mul mul MulAssign mul_assign *,
    Div div DivAssign div_assign /,
    Rem rem RemAssign rem_assign %
);
