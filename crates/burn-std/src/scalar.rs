//! A dynamically typed scalar, for APIs that take "a number" without
//! committing to an element type (e.g. `tensor + 2`).

use core::fmt;

use half::{bf16, f16};
use serde::{Deserialize, Serialize};

use crate::Element;

/// One value of any element kind, widened to 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Scalar {
    /// Any float type, widened to `f64`.
    Float(f64),
    /// Any signed integer, widened to `i64`.
    Int(i64),
    /// Any unsigned integer, widened to `u64`.
    UInt(u64),
    /// A boolean.
    Bool(bool),
}

impl Scalar {
    /// Build from any element, picking the variant from its dtype.
    pub fn from_elem<E: Element>(value: E) -> Self {
        let dtype = E::DTYPE;
        if dtype.is_float() {
            Scalar::Float(value.to_f64())
        } else if dtype.is_unsigned() {
            Scalar::UInt(value.to_u64())
        } else if dtype.is_bool() {
            Scalar::Bool(value.to_bool())
        } else {
            Scalar::Int(value.to_i64())
        }
    }

    /// Value as `f64`.
    pub fn to_f64(self) -> f64 {
        self.elem()
    }

    /// Value as `i64` (saturating; NaN becomes 0).
    pub fn to_i64(self) -> i64 {
        self.elem()
    }

    /// Value as `u64` (saturating; negatives and NaN become 0).
    pub fn to_u64(self) -> u64 {
        self.elem()
    }

    /// `true` for any non-zero value.
    pub fn to_bool(self) -> bool {
        self.elem()
    }

    /// Convert to any element type with the rules of [`Element`].
    pub fn elem<E: Element>(self) -> E {
        match self {
            Scalar::Float(v) => E::from_f64(v),
            Scalar::Int(v) => E::from_i64(v),
            Scalar::UInt(v) => E::from_u64(v),
            Scalar::Bool(v) => E::from_bool(v),
        }
    }

    // i128 holds every i64 and u64 exactly, so mixed-signedness integer
    // comparisons need no special cases.
    pub(crate) fn to_i128_exact(self) -> Option<i128> {
        match self {
            Scalar::Float(_) => None,
            Scalar::Int(v) => Some(v as i128),
            Scalar::UInt(v) => Some(v as i128),
            Scalar::Bool(v) => Some(v as i128),
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Float(v) => write!(f, "{v:?}"),
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::UInt(v) => write!(f, "{v}"),
            Scalar::Bool(v) => write!(f, "{v}"),
        }
    }
}

macro_rules! impl_from {
    ($($ty:ty),*) => {
        $(
            impl From<$ty> for Scalar {
                fn from(value: $ty) -> Self {
                    Scalar::from_elem(value)
                }
            }
        )*
    };
}

impl_from!(
    f64, f32, f16, bf16, i64, i32, i16, i8, u64, u32, u16, u8, bool
);
