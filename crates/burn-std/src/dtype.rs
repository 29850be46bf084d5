//! Runtime element types.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::quantization::QuantScheme;

/// How a boolean tensor is laid out in memory.
///
/// Backends disagree on the cheapest representation (byte masks vs. 32-bit
/// words), so the storage is part of the dtype instead of being guessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoolStore {
    /// One byte per value, 0 or 1: the layout of Rust's `bool`.
    Native,
    /// One `u8` per value, 0 or 1.
    U8,
    /// One `u32` per value, 0 or 1.
    U32,
}

/// The element type of a tensor, known at runtime.
///
/// Serialized with serde's default external tagging, so JSON reads `"F32"`
/// or `{"Bool":"Native"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DType {
    /// 64-bit float.
    F64,
    /// 32-bit float.
    F32,
    /// IEEE 754 half precision float.
    F16,
    /// bfloat16 (8-bit exponent, 7-bit mantissa).
    BF16,
    /// Signed 64-bit integer.
    I64,
    /// Signed 32-bit integer.
    I32,
    /// Signed 16-bit integer.
    I16,
    /// Signed 8-bit integer.
    I8,
    /// Unsigned 64-bit integer.
    U64,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 8-bit integer.
    U8,
    /// Boolean with the given storage.
    Bool(BoolStore),
    /// Quantized float values with their scales, as the scheme says (see
    /// [`quantization::codec`](crate::quantization::codec) for the layout).
    QFloat(QuantScheme),
}

impl DType {
    /// Every dtype once, booleans represented by their native storage.
    pub const ALL: [DType; 13] = [
        DType::F64,
        DType::F32,
        DType::F16,
        DType::BF16,
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
        DType::Bool(BoolStore::Native),
    ];

    /// Bytes taken by one element.
    pub const fn size(&self) -> usize {
        match self {
            DType::F64 | DType::I64 | DType::U64 => 8,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F16 | DType::BF16 | DType::I16 | DType::U16 => 2,
            DType::I8 | DType::U8 => 1,
            DType::Bool(BoolStore::Native) | DType::Bool(BoolStore::U8) => 1,
            DType::Bool(BoolStore::U32) => 4,
            // The stored element: one byte, or a u32 word of packed values.
            // The bytes of a quantized tensor are not `size × elements`;
            // see `Shape::try_num_bytes`.
            DType::QFloat(scheme) => scheme.size_bits_stored().div_ceil(8),
        }
    }

    /// Whether this is a quantized float type.
    pub const fn is_quantized(&self) -> bool {
        matches!(self, DType::QFloat(_))
    }

    /// Whether this is a floating point type.
    pub const fn is_float(&self) -> bool {
        matches!(self, DType::F64 | DType::F32 | DType::F16 | DType::BF16)
    }

    /// Whether this is an integer type, signed or unsigned.
    pub const fn is_int(&self) -> bool {
        self.is_signed_int() || self.is_unsigned()
    }

    /// Whether values can be negative (signed integers and floats).
    pub const fn is_signed(&self) -> bool {
        self.is_float() || self.is_signed_int()
    }

    /// Whether this is an unsigned integer type.
    pub const fn is_unsigned(&self) -> bool {
        matches!(self, DType::U64 | DType::U32 | DType::U16 | DType::U8)
    }

    /// Whether this is a boolean type, whatever its storage.
    pub const fn is_bool(&self) -> bool {
        matches!(self, DType::Bool(_))
    }

    const fn is_signed_int(&self) -> bool {
        matches!(self, DType::I64 | DType::I32 | DType::I16 | DType::I8)
    }

    /// Short lowercase name, as used in messages (`"f32"`, `"bool"`).
    pub const fn name(&self) -> &'static str {
        match self {
            DType::F64 => "f64",
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I64 => "i64",
            DType::I32 => "i32",
            DType::I16 => "i16",
            DType::I8 => "i8",
            DType::U64 => "u64",
            DType::U32 => "u32",
            DType::U16 => "u16",
            DType::U8 => "u8",
            DType::Bool(BoolStore::Native) => "bool",
            DType::Bool(BoolStore::U8) => "bool(u8)",
            DType::Bool(BoolStore::U32) => "bool(u32)",
            DType::QFloat(_) => "qfloat",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let DType::QFloat(scheme) = self {
            return write!(f, "qfloat({scheme})");
        }
        f.write_str(self.name())
    }
}
