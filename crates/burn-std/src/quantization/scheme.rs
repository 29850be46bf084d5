//! The quantization scheme: what a quantized value is, how it is stored, and
//! at which levels its scales live.

use core::fmt;

use serde::{Deserialize, Serialize};

/// The type a quantized value stands for.
///
/// The integer kinds come in a full-range flavour (`F`: the whole two's
/// complement range, e.g. -128..=127) and a symmetric one (`S`: -127..=127),
/// whose zero sits exactly in the middle. The float kinds are the OCP
/// 8-bit (E4M3, E5M2) and 4-bit (E2M1) minifloats.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum QuantValue {
    /// 8-bit integer, -128..=127.
    Q8F,
    /// 8-bit float: 5 exponent bits, 2 mantissa bits (max 57344).
    E5M2,
    /// 8-bit float: 4 exponent bits, 3 mantissa bits, no infinities (max 448).
    E4M3,
    /// 4-bit integer, -8..=7.
    Q4F,
    /// 4-bit float: 2 exponent bits, 1 mantissa bit (max 6).
    E2M1,
    /// 2-bit integer, -2..=1.
    Q2F,
    /// 8-bit integer, -127..=127.
    Q8S,
    /// 4-bit integer, -7..=7.
    Q4S,
    /// 2-bit integer, -1..=1.
    Q2S,
}

impl QuantValue {
    /// Bits one value takes.
    pub const fn size_bits(&self) -> usize {
        match self {
            QuantValue::Q8F | QuantValue::Q8S | QuantValue::E4M3 | QuantValue::E5M2 => 8,
            QuantValue::Q4F | QuantValue::Q4S | QuantValue::E2M1 => 4,
            QuantValue::Q2F | QuantValue::Q2S => 2,
        }
    }

    /// How many values a native packed element holds (two E2M1 values a
    /// byte; one for every other kind).
    pub const fn native_packing(&self) -> usize {
        match self {
            QuantValue::E2M1 => 2,
            QuantValue::Q8F
            | QuantValue::Q8S
            | QuantValue::E4M3
            | QuantValue::E5M2
            | QuantValue::Q4F
            | QuantValue::Q4S
            | QuantValue::Q2F
            | QuantValue::Q2S => 1,
        }
    }

    /// The smallest and largest value, in units of the scale.
    pub fn range(&self) -> (f32, f32) {
        match self {
            QuantValue::Q8F => (-128.0, 127.0),
            QuantValue::Q4F => (-8.0, 7.0),
            QuantValue::Q2F => (-2.0, 1.0),
            QuantValue::Q8S => (-127.0, 127.0),
            QuantValue::Q4S => (-7.0, 7.0),
            QuantValue::Q2S => (-1.0, 1.0),
            QuantValue::E4M3 => (-448.0, 448.0),
            QuantValue::E5M2 => (-57344.0, 57344.0),
            QuantValue::E2M1 => (-6.0, 6.0),
        }
    }

    /// The largest magnitude a scale is fitted to: `x / scale` maps the
    /// block's largest `|x|` here.
    pub fn max_magnitude(&self) -> f32 {
        self.range().1
    }

    /// Whether the values are minifloats.
    pub const fn is_float(&self) -> bool {
        match self {
            QuantValue::E4M3 | QuantValue::E5M2 | QuantValue::E2M1 => true,
            QuantValue::Q8F
            | QuantValue::Q8S
            | QuantValue::Q4F
            | QuantValue::Q4S
            | QuantValue::Q2F
            | QuantValue::Q2S => false,
        }
    }

    /// Whether the integer range is symmetric around zero.
    pub const fn is_symmetric(&self) -> bool {
        match self {
            QuantValue::Q8S | QuantValue::Q4S | QuantValue::Q2S => true,
            QuantValue::Q8F
            | QuantValue::Q4F
            | QuantValue::Q2F
            | QuantValue::E4M3
            | QuantValue::E5M2
            | QuantValue::E2M1 => false,
        }
    }

    /// Lowercase name, as in messages (`"q8s"`, `"e4m3"`).
    pub const fn name(&self) -> &'static str {
        match self {
            QuantValue::Q8F => "q8f",
            QuantValue::E5M2 => "e5m2",
            QuantValue::E4M3 => "e4m3",
            QuantValue::Q4F => "q4f",
            QuantValue::E2M1 => "e2m1",
            QuantValue::Q2F => "q2f",
            QuantValue::Q8S => "q8s",
            QuantValue::Q4S => "q4s",
            QuantValue::Q2S => "q2s",
        }
    }
}

/// How quantized values are laid out in memory.
///
/// The packed forms name the dimension values are packed along, counted
/// from the innermost (0). This implementation packs along the innermost
/// dimension only, in row-major order; other packing dimensions are
/// refused with [`QuantError::Unsupported`](super::QuantError).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum QuantStore {
    /// One byte per value (an `i8`, or the minifloat's code).
    Native,
    /// The value type's own packed element (two E2M1 values a byte; one
    /// byte a value otherwise).
    PackedNative(usize),
    /// `32 / bits` values a little-endian `u32`, the first in the lowest bits.
    PackedU32(usize),
}

impl QuantStore {
    /// Bits of one stored element holding values of `value`.
    pub const fn size_bits(&self, value: &QuantValue) -> usize {
        match self {
            QuantStore::Native => 8,
            QuantStore::PackedNative(_) => value.size_bits() * value.native_packing(),
            QuantStore::PackedU32(_) => 32,
        }
    }

    /// The packing dimension, for the packed forms.
    pub const fn packing_dim(&self) -> Option<usize> {
        match self {
            QuantStore::Native => None,
            QuantStore::PackedNative(dim) | QuantStore::PackedU32(dim) => Some(*dim),
        }
    }
}

/// How values map to their quantized form.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum QuantMode {
    /// `q = round(x / scale)`, `x ≈ q * scale`: zero maps to zero.
    Symmetric,
}

/// The type a level of scales is stored in.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ScaleDtype {
    /// 32-bit float.
    F32,
    /// IEEE half precision.
    F16,
    /// bfloat16.
    BF16,
    /// A power of two: an 8-bit biased exponent (bias 127), no mantissa.
    UE8M0,
    /// An unsigned E4M3 minifloat (max 448).
    UE4M3,
}

impl ScaleDtype {
    /// Bytes one scale takes.
    pub const fn size_bytes(&self) -> usize {
        match self {
            ScaleDtype::F32 => 4,
            ScaleDtype::F16 | ScaleDtype::BF16 => 2,
            ScaleDtype::UE8M0 | ScaleDtype::UE4M3 => 1,
        }
    }

    /// The largest scale the type holds.
    pub fn max_representable(&self) -> f32 {
        match self {
            ScaleDtype::F32 => f32::MAX,
            ScaleDtype::F16 => half::f16::MAX.to_f32(),
            ScaleDtype::BF16 => half::bf16::MAX.to_f32(),
            ScaleDtype::UE8M0 => f32::from_bits(254 << 23),
            ScaleDtype::UE4M3 => 448.0,
        }
    }

    /// Lowercase name, as in messages.
    pub const fn name(&self) -> &'static str {
        match self {
            ScaleDtype::F32 => "f32",
            ScaleDtype::F16 => "f16",
            ScaleDtype::BF16 => "bf16",
            ScaleDtype::UE8M0 => "ue8m0",
            ScaleDtype::UE4M3 => "ue4m3",
        }
    }
}

/// Most dimensions a block may span.
pub const MAX_BLOCK_DIMS: usize = 4;

/// The extent of a block over the innermost dimensions (`[32]`: 32
/// consecutive values of the last dimension; `[4, 8]`: 4 rows by 8
/// columns of the last two). Copyable, so a scheme stays `Copy`.
#[derive(Clone, Copy, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "alloc::vec::Vec<u8>", try_from = "alloc::vec::Vec<u8>")]
pub struct BlockSize {
    dims: [u8; MAX_BLOCK_DIMS],
    len: u8,
}

// Serialized as its extents; read back only when they make a block (a file
// may claim anything).
impl From<BlockSize> for alloc::vec::Vec<u8> {
    fn from(block: BlockSize) -> Self {
        block.to_vec()
    }
}

impl TryFrom<alloc::vec::Vec<u8>> for BlockSize {
    type Error = alloc::string::String;

    fn try_from(dims: alloc::vec::Vec<u8>) -> Result<Self, Self::Error> {
        if dims.is_empty() || dims.len() > MAX_BLOCK_DIMS || dims.contains(&0) {
            return Err(alloc::format!(
                "a block spans 1 to {MAX_BLOCK_DIMS} positive extents, got {dims:?}"
            ));
        }
        Ok(BlockSize::new(dims))
    }
}

impl BlockSize {
    /// A block of the given extents, outermost first.
    ///
    /// # Panics
    /// With no extent, more than [`MAX_BLOCK_DIMS`] of them, or a zero extent.
    #[track_caller]
    pub fn new(dims: impl AsRef<[u8]>) -> Self {
        let dims = dims.as_ref();
        assert!(
            !dims.is_empty() && dims.len() <= MAX_BLOCK_DIMS,
            "BlockSize::new: a block spans 1 to {MAX_BLOCK_DIMS} dimensions, got {dims:?}"
        );
        assert!(
            dims.iter().all(|&d| d > 0),
            "BlockSize::new: block extents must be positive, got {dims:?}"
        );
        let mut stored = [0; MAX_BLOCK_DIMS];
        stored[..dims.len()].copy_from_slice(dims);
        Self {
            dims: stored,
            len: dims.len() as u8,
        }
    }

    /// The extents, outermost first.
    pub fn as_slice(&self) -> &[u8] {
        &self.dims[..self.len as usize]
    }

    /// The extents as a vector.
    pub fn to_vec(&self) -> alloc::vec::Vec<u8> {
        self.as_slice().to_vec()
    }

    /// Values in one block.
    pub fn num_elements(&self) -> usize {
        self.as_slice().iter().map(|&d| d as usize).product()
    }
}

impl fmt::Debug for BlockSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

/// The per-block level of a scheme: the block extent and its scales' type.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BlockScale {
    /// The block extent.
    pub size: BlockSize,
    /// The type block scales are stored in.
    pub dtype: ScaleDtype,
}

/// How a float tensor is quantized: the value type, its storage, the mode,
/// and up to two levels of scales.
///
/// ```
/// use burn_std::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
///
/// // One f32 scale for the whole tensor, one byte per value.
/// let q8 = QuantScheme::default()
///     .with_value(QuantValue::Q8S)
///     .with_store(QuantStore::Native)
///     .per_tensor(ScaleDtype::F32);
///
/// // 4-bit values packed in u32 words, one f16 scale per 32 values.
/// let q4 = QuantScheme::default()
///     .with_value(QuantValue::Q4S)
///     .with_store(QuantStore::PackedU32(0))
///     .per_block([32], ScaleDtype::F16);
/// assert_eq!(q4.num_quants(), 8);
///
/// // Two levels: ue4m3 block scales relative to one f32 scale.
/// let fp4 = QuantScheme::default()
///     .with_value(QuantValue::E2M1)
///     .with_store(QuantStore::PackedNative(0))
///     .per_block([16], ScaleDtype::UE4M3)
///     .per_tensor(ScaleDtype::F32);
/// assert_eq!(fp4.num_levels(), 2);
/// # let _ = q8;
/// ```
///
/// A scheme with no level set has one f32 scale for the whole tensor.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct QuantScheme {
    /// The type of the quantized values.
    pub value: QuantValue,
    /// How the values are stored.
    pub store: QuantStore,
    /// How values map to quantized ones.
    pub mode: QuantMode,
    tensor: Option<ScaleDtype>,
    block: Option<BlockScale>,
}

impl Default for QuantScheme {
    /// 8-bit full-range values packed four to a `u32`, one f32 scale.
    fn default() -> Self {
        Self {
            value: QuantValue::Q8F,
            store: QuantStore::PackedU32(0),
            mode: QuantMode::Symmetric,
            tensor: None,
            block: None,
        }
    }
}

impl QuantScheme {
    /// The same scheme with another mode.
    pub fn with_mode(mut self, mode: QuantMode) -> Self {
        self.mode = mode;
        self
    }

    /// The same scheme with another value type.
    pub fn with_value(mut self, value: QuantValue) -> Self {
        self.value = value;
        self
    }

    /// The same scheme with another storage.
    pub fn with_store(mut self, store: QuantStore) -> Self {
        self.store = store;
        self
    }

    /// Adds (or replaces) the per-tensor level: one scale of `dtype`. With a
    /// block level too, block scales are relative to it.
    pub fn per_tensor(mut self, dtype: ScaleDtype) -> Self {
        self.tensor = Some(dtype);
        self
    }

    /// Adds (or replaces) the per-block level: one scale of `dtype` per
    /// block of `block` values over the innermost dimensions.
    #[track_caller]
    pub fn per_block(mut self, block: impl AsRef<[u8]>, dtype: ScaleDtype) -> Self {
        self.block = Some(BlockScale {
            size: BlockSize::new(block),
            dtype,
        });
        self
    }

    /// The per-tensor level; a scheme with no level at all reads as a
    /// per-tensor f32 scale.
    pub fn tensor_scale(&self) -> Option<ScaleDtype> {
        match (self.tensor, self.block) {
            (None, None) => Some(ScaleDtype::F32),
            (tensor, _) => tensor,
        }
    }

    /// The per-block level.
    pub fn block_scale(&self) -> Option<BlockScale> {
        self.block
    }

    /// How many levels of scales (1 or 2).
    pub fn num_levels(&self) -> usize {
        match (self.tensor_scale(), self.block) {
            (Some(_), Some(_)) => 2,
            _ => 1,
        }
    }

    /// The type of the innermost scales (the block's, else the tensor's).
    pub fn scale_dtype(&self) -> ScaleDtype {
        match (self.block, self.tensor_scale()) {
            (Some(block), _) => block.dtype,
            (None, Some(tensor)) => tensor,
            (None, None) => ScaleDtype::F32,
        }
    }

    /// The block extent, for a per-block scheme.
    pub fn block_size(&self) -> Option<BlockSize> {
        self.block.map(|b| b.size)
    }

    /// Bits of one stored element.
    pub const fn size_bits_stored(&self) -> usize {
        self.store.size_bits(&self.value)
    }

    /// Bits of one value.
    pub const fn size_bits_value(&self) -> usize {
        self.value.size_bits()
    }

    /// Values one stored element holds.
    pub fn num_quants(&self) -> usize {
        match self.store {
            QuantStore::Native => 1,
            QuantStore::PackedNative(_) | QuantStore::PackedU32(_) => {
                self.size_bits_stored() / self.size_bits_value()
            }
        }
    }
}

impl fmt::Display for QuantScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value.name())?;
        match self.store {
            QuantStore::Native => write!(f, " native")?,
            QuantStore::PackedNative(d) => write!(f, " packed(native, dim {d})")?,
            QuantStore::PackedU32(d) => write!(f, " packed(u32, dim {d})")?,
        }
        if let Some(block) = self.block {
            write!(f, ", per block {:?} {}", block.size, block.dtype.name())?;
        }
        if let Some(tensor) = self.tensor_scale() {
            write!(f, ", per tensor {}", tensor.name())?;
        }
        Ok(())
    }
}

/// How the range a scale covers is chosen.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, Serialize, Deserialize)]
pub enum Calibration {
    /// The largest magnitude of the block (or tensor) maps to the largest
    /// quantized value: nothing is clipped.
    MinMax,
    /// The mean magnitude maps to the largest quantized value (BitNet
    /// b1.58's ternary weights, with `Q2S`); larger values are clipped.
    AbsMean,
}

/// Whether ops on quantized tensors return quantized or float results.
#[derive(Clone, Copy, Debug, Default, Hash, PartialEq, Eq, Serialize, Deserialize)]
pub enum QuantPropagation {
    /// Results are quantized again with the input's scheme.
    Propagate,
    /// Results are float (what every op here does).
    #[default]
    Inhibit,
}

/// The scales of a quantization: one per block (or one for the tensor),
/// and for a two-level scheme the per-tensor scale they are relative to.
#[derive(Clone, Debug, PartialEq)]
pub struct QParams<S> {
    /// The innermost scales.
    pub scales: S,
    /// The per-tensor scale of a two-level scheme.
    pub global: Option<S>,
}
