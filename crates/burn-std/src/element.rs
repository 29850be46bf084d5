//! The [`Element`] trait: the Rust types a tensor may hold.
//!
//! Conversions between elements follow Rust's `as` casts for float to
//! integer (saturating, NaN becomes 0) and saturate for integer to integer,
//! so that no conversion in the framework can wrap around silently.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt::{Debug, Display};

use half::{bf16, f16};

use crate::{BoolStore, Bytes, DType};

/// A scalar type that can be stored in a tensor.
pub trait Element: Copy + Send + Sync + Debug + Display + PartialOrd + Default + 'static {
    /// The runtime dtype matching this type.
    const DTYPE: DType;

    /// Convert to `f64` (exact for every type except large 64-bit integers).
    fn to_f64(self) -> f64;
    /// Convert from `f64` with `as` semantics: saturating, NaN becomes 0.
    fn from_f64(v: f64) -> Self;
    /// Convert to `i64`, saturating.
    fn to_i64(self) -> i64;
    /// Convert from `i64`, saturating.
    fn from_i64(v: i64) -> Self;
    /// Convert to `u64`, saturating (negatives become 0).
    fn to_u64(self) -> u64;
    /// Convert from `u64`, saturating.
    fn from_u64(v: u64) -> Self;
    /// Any non-zero value is `true` (NaN included, as it is not zero).
    fn to_bool(self) -> bool;
    /// `true` becomes one, `false` zero.
    fn from_bool(v: bool) -> Self;
    /// The additive identity.
    fn zero() -> Self;
    /// The multiplicative identity.
    fn one() -> Self;
    /// Smallest value; negative infinity for floats.
    fn min_value() -> Self;
    /// Largest value; positive infinity for floats.
    fn max_value() -> Self;
    /// Whether the value is NaN; always `false` for non-floats.
    fn is_nan(self) -> bool;

    /// Move elements into an aligned byte buffer in their in-memory layout.
    fn vec_into_bytes(values: Vec<Self>) -> Bytes;
    /// Read elements back from bytes written by [`Element::vec_into_bytes`].
    ///
    /// Borrows when the slice is suitably aligned (always the case for a
    /// [`Bytes`] buffer) and copies otherwise.
    ///
    /// # Panics
    /// If the length is not a multiple of the element size.
    fn read_slice(bytes: &[u8]) -> Cow<'_, [Self]>;
}

/// Convert one element type into another: `3.7f32.elem::<i32>() == 3`.
pub trait ElementConversion {
    /// Convert `self` into `E`.
    ///
    /// Floats go through `f64`; integers go through `i64` or `u64`, so 64-bit
    /// integers round-trip exactly between same-signedness types.
    fn elem<E: Element>(self) -> E;
}

impl<T: Element> ElementConversion for T {
    #[inline]
    fn elem<E: Element>(self) -> E {
        convert_elem(self)
    }
}

#[inline]
pub(crate) fn convert_elem<S: Element, D: Element>(value: S) -> D {
    if S::DTYPE.is_float() || D::DTYPE.is_float() {
        D::from_f64(value.to_f64())
    } else if S::DTYPE.is_unsigned() {
        D::from_u64(value.to_u64())
    } else {
        D::from_i64(value.to_i64())
    }
}

fn read_pod<E: bytemuck::Pod>(bytes: &[u8]) -> Cow<'_, [E]> {
    let size = core::mem::size_of::<E>();
    assert!(
        bytes.len().is_multiple_of(size),
        "byte length {} is not a multiple of the element size {size}",
        bytes.len()
    );
    match bytemuck::try_cast_slice(bytes) {
        Ok(slice) => Cow::Borrowed(slice),
        // Only unaligned input reaches here; copying fixes the alignment.
        Err(_) => Cow::Owned(bytemuck::pod_collect_to_vec(bytes)),
    }
}

macro_rules! impl_float {
    ($ty:ty, $dtype:ident, $to:expr, $from:expr) => {
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;

            #[inline]
            fn to_f64(self) -> f64 {
                $to(self)
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                $from(v)
            }
            #[inline]
            fn to_i64(self) -> i64 {
                self.to_f64() as i64
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                Self::from_f64(v as f64)
            }
            #[inline]
            fn to_u64(self) -> u64 {
                self.to_f64() as u64
            }
            #[inline]
            fn from_u64(v: u64) -> Self {
                Self::from_f64(v as f64)
            }
            #[inline]
            fn to_bool(self) -> bool {
                self.to_f64() != 0.0
            }
            #[inline]
            fn from_bool(v: bool) -> Self {
                if v { Self::one() } else { Self::zero() }
            }
            #[inline]
            fn zero() -> Self {
                Self::from_f64(0.0)
            }
            #[inline]
            fn one() -> Self {
                Self::from_f64(1.0)
            }
            #[inline]
            fn min_value() -> Self {
                Self::from_f64(f64::NEG_INFINITY)
            }
            #[inline]
            fn max_value() -> Self {
                Self::from_f64(f64::INFINITY)
            }
            #[inline]
            fn is_nan(self) -> bool {
                self.to_f64().is_nan()
            }
            fn vec_into_bytes(values: Vec<Self>) -> Bytes {
                Bytes::from_elems(values)
            }
            fn read_slice(bytes: &[u8]) -> Cow<'_, [Self]> {
                read_pod(bytes)
            }
        }
    };
}

impl_float!(f64, F64, |v: f64| v, |v: f64| v);
impl_float!(f32, F32, |v: f32| v as f64, |v: f64| v as f32);
impl_float!(f16, F16, f16::to_f64, f16::from_f64);
impl_float!(bf16, BF16, bf16::to_f64, bf16::from_f64);
// No relaxed dtype exists here: `flex32` is stored and computed as `f32`.
impl_float!(
    crate::flex32,
    F32,
    crate::flex32::to_f64,
    crate::flex32::from_f64
);

macro_rules! impl_int {
    ($ty:ty, $dtype:ident) => {
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;

            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                v as $ty
            }
            #[inline]
            fn to_i64(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                <$ty>::try_from(v).unwrap_or(if v < 0 { <$ty>::MIN } else { <$ty>::MAX })
            }
            #[inline]
            fn to_u64(self) -> u64 {
                // Only negatives can fail: every integer type fits u64 otherwise.
                u64::try_from(self).unwrap_or(0)
            }
            #[inline]
            fn from_u64(v: u64) -> Self {
                <$ty>::try_from(v).unwrap_or(<$ty>::MAX)
            }
            #[inline]
            fn to_bool(self) -> bool {
                self != 0
            }
            #[inline]
            fn from_bool(v: bool) -> Self {
                v as $ty
            }
            #[inline]
            fn zero() -> Self {
                0
            }
            #[inline]
            fn one() -> Self {
                1
            }
            #[inline]
            fn min_value() -> Self {
                <$ty>::MIN
            }
            #[inline]
            fn max_value() -> Self {
                <$ty>::MAX
            }
            #[inline]
            fn is_nan(self) -> bool {
                false
            }
            fn vec_into_bytes(values: Vec<Self>) -> Bytes {
                Bytes::from_elems(values)
            }
            fn read_slice(bytes: &[u8]) -> Cow<'_, [Self]> {
                read_pod(bytes)
            }
        }
    };
}

impl_int!(i64, I64);
impl_int!(i32, I32);
impl_int!(i16, I16);
impl_int!(i8, I8);
impl_int!(u64, U64);
impl_int!(u32, U32);
impl_int!(u16, U16);
impl_int!(u8, U8);

// `bool` is not `Pod` (only 0 and 1 are valid bit patterns), so it is stored
// as one byte per value and decoded by comparison rather than by casting.
impl Element for bool {
    const DTYPE: DType = DType::Bool(BoolStore::Native);

    #[inline]
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    #[inline]
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    #[inline]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline]
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self as u64
    }
    #[inline]
    fn from_u64(v: u64) -> Self {
        v != 0
    }
    #[inline]
    fn to_bool(self) -> bool {
        self
    }
    #[inline]
    fn from_bool(v: bool) -> Self {
        v
    }
    #[inline]
    fn zero() -> Self {
        false
    }
    #[inline]
    fn one() -> Self {
        true
    }
    #[inline]
    fn min_value() -> Self {
        false
    }
    #[inline]
    fn max_value() -> Self {
        true
    }
    #[inline]
    fn is_nan(self) -> bool {
        false
    }
    fn vec_into_bytes(values: Vec<Self>) -> Bytes {
        Bytes::from_vec(values.into_iter().map(u8::from).collect())
    }
    fn read_slice(bytes: &[u8]) -> Cow<'_, [Self]> {
        Cow::Owned(bytes.iter().map(|&b| b != 0).collect())
    }
}
