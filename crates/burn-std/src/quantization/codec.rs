//! The host codec: the byte layout of a quantized tensor, its scales, and
//! quantizing and dequantizing `f32` values to and from it.
//!
//! Every backend can fall back on this (read the values, run the codec,
//! upload the bytes); Flex runs it in place as its native kernel.
//!
//! ## Layout
//!
//! A quantized tensor's bytes are, in order:
//!
//! 1. the values in row-major order, stored as the scheme's
//!    [`QuantStore`] says, padded with zeros to a multiple of 4 bytes;
//! 2. the innermost scales, one per block (one for a per-tensor scheme), in
//!    their [`ScaleDtype`], little-endian, in row-major order of the block
//!    grid ([`params_shape`]), padded to a multiple of 4 bytes;
//! 3. for a two-level scheme, the per-tensor scale in its dtype.
//!
//! ## Math
//!
//! With `s` a block's effective scale (its stored scale, times the
//! per-tensor one for two levels), a value `x` is stored as
//! `q = clamp(round_half_even(x / s), lo, hi)` for the integer kinds and
//! as the nearest minifloat of `x / s` (saturating) for the float kinds,
//! and read back as `q * s`. Dynamic quantization with
//! [`Calibration::MinMax`] picks `s = max|x| / hi` per block, so nothing
//! is clipped and the error is at most `s / 2` for the integer kinds.

use alloc::vec;
use alloc::vec::Vec;

use half::{bf16, f16};

use super::minifloat::{self, E2M1, E4M3, E5M2, MiniFloat};
use super::{Calibration, QParams, QuantScheme, QuantStore, QuantValue, ScaleDtype};
use crate::{DType, Shape, SizeError};

/// Why values could not be quantized or dequantized with a scheme.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuantError {
    /// The block does not tile the shape.
    #[error("the block {block:?} of scheme {scheme} does not divide shape {shape}")]
    BlockMismatch {
        /// The scheme.
        scheme: QuantScheme,
        /// The block extents.
        block: Vec<u8>,
        /// The tensor's shape.
        shape: Shape,
    },
    /// The scheme asks for something this implementation does not do.
    #[error("scheme {scheme} is not supported: {reason}")]
    Unsupported {
        /// The scheme.
        scheme: QuantScheme,
        /// What is missing.
        reason: &'static str,
    },
    /// The scales do not match the block grid.
    #[error("scheme {scheme} on shape {shape} needs {expected} scales, got {found}")]
    ScalesLength {
        /// The scheme.
        scheme: QuantScheme,
        /// The tensor's shape.
        shape: Shape,
        /// Scales the block grid has.
        expected: usize,
        /// Scales given.
        found: usize,
    },
    /// A two-level scheme without its per-tensor scale, or the reverse.
    #[error("scheme {scheme} {expected} a per-tensor scale")]
    GlobalScale {
        /// The scheme.
        scheme: QuantScheme,
        /// `"needs"` or `"takes no"`.
        expected: &'static str,
    },
    /// The bytes are not as long as the layout of the scheme and shape.
    #[error(
        "quantized data of scheme {scheme} and shape {shape} takes {expected} bytes, got {found}"
    )]
    DataLength {
        /// The scheme.
        scheme: QuantScheme,
        /// The tensor's shape.
        shape: Shape,
        /// Bytes the layout takes.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// The values given were not what the operation takes.
    #[error("expected {expected} values, got dtype {found}")]
    NotQuantizable {
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: DType,
    },
    /// The layout does not fit in memory.
    #[error(transparent)]
    Size(#[from] SizeError),
}

fn round_up4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|n| n & !3)
}

/// The shape of the scale grid: `[1]` for a per-tensor scheme, else the
/// tensor's shape with each of the innermost dims divided (rounding up) by
/// the block extent aligned to it.
pub fn params_shape(shape: &Shape, scheme: &QuantScheme) -> Shape {
    let Some(block) = scheme.block_size() else {
        return Shape::new([1]);
    };
    let dims = shape.dims.as_slice();
    let block = block.as_slice();
    let mut grid = dims.to_vec();
    for (g, b) in grid.iter_mut().rev().zip(block.iter().rev()) {
        *g = g.div_ceil(*b as usize);
    }
    Shape::from(grid)
}

/// Where each part of a quantized tensor's bytes lies (see the
/// [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantLayout {
    /// Values in the tensor.
    pub num_values: usize,
    /// Bytes of the values, padding included.
    pub values_len: usize,
    /// Innermost scales (blocks, or 1 for a per-tensor scheme).
    pub num_scales: usize,
    /// Offset of the innermost scales.
    pub scales_offset: usize,
    /// Offset of the per-tensor scale of a two-level scheme.
    pub global_offset: Option<usize>,
    /// Bytes in all.
    pub total: usize,
}

impl QuantLayout {
    /// The layout of `shape` quantized with `scheme`, or why its size
    /// overflows.
    pub fn new(scheme: &QuantScheme, shape: &Shape) -> Result<Self, SizeError> {
        let overflow = || SizeError::BytesOverflow {
            shape: shape.clone(),
            dtype: DType::QFloat(*scheme),
        };
        let num_values = shape.try_num_elements()?;
        let raw = match scheme.store {
            QuantStore::Native => Some(num_values),
            QuantStore::PackedNative(_) => Some(num_values.div_ceil(scheme.value.native_packing())),
            QuantStore::PackedU32(_) => {
                let per_word = 32 / scheme.value.size_bits();
                num_values.div_ceil(per_word).checked_mul(4)
            }
        };
        let values_len = raw.and_then(round_up4).ok_or_else(overflow)?;
        let num_scales = params_shape(shape, scheme).num_elements();
        let scales_offset = values_len;
        let scales_len = num_scales
            .checked_mul(scheme.scale_dtype().size_bytes())
            .and_then(round_up4)
            .ok_or_else(overflow)?;
        let mut total = scales_offset.checked_add(scales_len).ok_or_else(overflow)?;
        let global_offset = if scheme.num_levels() == 2 {
            let at = total;
            let size = scheme.tensor_scale().map_or(4, |d| d.size_bytes());
            total = total
                .checked_add(size)
                .and_then(round_up4)
                .ok_or_else(overflow)?;
            Some(at)
        } else {
            None
        };
        if total > isize::MAX as usize {
            return Err(overflow());
        }
        Ok(Self {
            num_values,
            values_len,
            num_scales,
            scales_offset,
            global_offset,
            total,
        })
    }
}

/// Bytes `shape` takes quantized with `scheme`.
pub fn quantized_data_len(scheme: &QuantScheme, shape: &Shape) -> Result<usize, SizeError> {
    QuantLayout::new(scheme, shape).map(|l| l.total)
}

/// Checks that this implementation handles `scheme` and that its block
/// tiles `shape`.
pub fn check_scheme(scheme: &QuantScheme, shape: &Shape) -> Result<(), QuantError> {
    match scheme.store.packing_dim() {
        None | Some(0) => {}
        Some(_) => {
            return Err(QuantError::Unsupported {
                scheme: *scheme,
                reason: "values are packed along the innermost dimension (0) only",
            });
        }
    }
    if let QuantStore::PackedNative(_) = scheme.store
        && scheme.value.native_packing() == 1
        && scheme.value.size_bits() < 8
    {
        return Err(QuantError::Unsupported {
            scheme: *scheme,
            reason: "sub-byte integers have no native packed element; use PackedU32 or Native",
        });
    }
    if let Some(block) = scheme.block_size() {
        let dims = shape.dims.as_slice();
        let extents = block.as_slice();
        let tiles = extents.len() <= dims.len()
            && dims
                .iter()
                .rev()
                .zip(extents.iter().rev())
                .all(|(&d, &b)| d.is_multiple_of(b as usize));
        if !tiles {
            return Err(QuantError::BlockMismatch {
                scheme: *scheme,
                block: block.to_vec(),
                shape: shape.clone(),
            });
        }
    }
    Ok(())
}

/// Visits the tensor row by row (rows of the last dimension), with each
/// row's first block index and the block extent along the row.
fn for_each_row(shape: &Shape, scheme: &QuantScheme, mut f: impl FnMut(usize, usize, usize)) {
    let dims = shape.dims.as_slice();
    let n = shape.num_elements();
    if n == 0 {
        return;
    }
    let Some(block) = scheme.block_size() else {
        let row = dims.last().copied().unwrap_or(1);
        for r in 0..n / row {
            f(r * row, 0, usize::MAX);
        }
        return;
    };
    let rank = dims.len();
    let row = dims[rank - 1];
    let extents = block.as_slice();
    // Block extent of each dim (1 outside the block), and grid strides.
    let mut ext = vec![1usize; rank];
    for (e, b) in ext.iter_mut().rev().zip(extents.iter().rev()) {
        *e = *b as usize;
    }
    let grid = params_shape(shape, scheme);
    let grid_strides = grid.contiguous_strides();
    let last_extent = ext[rank - 1];
    let mut index = vec![0usize; rank.saturating_sub(1)];
    for r in 0..n / row {
        let base: usize = index
            .iter()
            .enumerate()
            .map(|(d, &i)| (i / ext[d]) * grid_strides[d])
            .sum();
        f(r * row, base, last_extent);
        for d in (0..index.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

/// Runs `f(value_index, block_index)` over every value.
fn for_each_value(shape: &Shape, scheme: &QuantScheme, mut f: impl FnMut(usize, usize)) {
    let row = shape.dims.as_slice().last().copied().unwrap_or(1);
    for_each_row(shape, scheme, |start, base, extent| {
        if extent == usize::MAX {
            for i in start..start + row {
                f(i, 0);
            }
        } else {
            for c in 0..row {
                f(start + c, base + c / extent);
            }
        }
    });
}

/// The scales a calibration picks for `values` (dynamic quantization).
///
/// For a two-level scheme, `scales` are relative to `global`.
pub fn compute_scales(
    values: &[f32],
    shape: &Shape,
    scheme: &QuantScheme,
    calibration: Calibration,
) -> Result<QParams<Vec<f32>>, QuantError> {
    check_scheme(scheme, shape)?;
    let num_scales = params_shape(shape, scheme).num_elements();
    let mut stat = vec![0f32; num_scales];
    let mut count = vec![0u32; num_scales];
    for_each_value(shape, scheme, |i, b| {
        let a = values[i].abs();
        match calibration {
            Calibration::MinMax => stat[b] = stat[b].max(a),
            Calibration::AbsMean => {
                stat[b] += a;
                count[b] += 1;
            }
        }
    });
    if let Calibration::AbsMean = calibration {
        for (s, &c) in stat.iter_mut().zip(&count) {
            *s /= c.max(1) as f32;
        }
    }
    let hi = scheme.value.max_magnitude();
    let scales: Vec<f32> = stat.iter().map(|&s| s / hi).collect();
    if scheme.num_levels() == 1 {
        return Ok(QParams {
            scales,
            global: None,
        });
    }
    let block_dtype = scheme.scale_dtype();
    let largest = scales.iter().copied().fold(0f32, f32::max);
    // Narrow block types take the spread below their maximum; wide ones
    // take it below 1.
    let headroom = match block_dtype {
        ScaleDtype::UE4M3 | ScaleDtype::F16 => block_dtype.max_representable(),
        ScaleDtype::F32 | ScaleDtype::BF16 | ScaleDtype::UE8M0 => 1.0,
    };
    let mut global = largest / headroom;
    if !(global.is_finite() && global > 0.0) {
        global = 1.0;
    }
    Ok(QParams {
        scales: scales.iter().map(|&s| s / global).collect(),
        global: Some(vec![global]),
    })
}

/// A scale stored in `dtype`, and the value it reads back as. The narrow
/// types round up, so `max|x| / scale` never exceeds the value range.
fn store_scale(dtype: ScaleDtype, s: f32, out: &mut Vec<u8>) -> f32 {
    match dtype {
        ScaleDtype::F32 => {
            out.extend_from_slice(&s.to_le_bytes());
            s
        }
        ScaleDtype::F16 => {
            let h = f16::from_f32(s);
            out.extend_from_slice(&h.to_le_bytes());
            h.to_f32()
        }
        ScaleDtype::BF16 => {
            let h = bf16::from_f32(s);
            out.extend_from_slice(&h.to_le_bytes());
            h.to_f32()
        }
        ScaleDtype::UE8M0 => {
            let code = minifloat::ue8m0_encode_up(s);
            out.push(code);
            minifloat::ue8m0_decode(code)
        }
        ScaleDtype::UE4M3 => {
            let code = E4M3.encode_up(s.max(0.0));
            out.push(code);
            E4M3.decode(code)
        }
    }
}

/// The value of the scale stored at `bytes[..]` in `dtype`.
fn load_scale(dtype: ScaleDtype, bytes: &[u8]) -> f32 {
    match dtype {
        ScaleDtype::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        ScaleDtype::F16 => f16::from_le_bytes([bytes[0], bytes[1]]).to_f32(),
        ScaleDtype::BF16 => bf16::from_le_bytes([bytes[0], bytes[1]]).to_f32(),
        ScaleDtype::UE8M0 => minifloat::ue8m0_decode(bytes[0]),
        ScaleDtype::UE4M3 => E4M3.decode(bytes[0]),
    }
}

fn minifloat(value: QuantValue) -> Option<MiniFloat> {
    match value {
        QuantValue::E4M3 => Some(E4M3),
        QuantValue::E5M2 => Some(E5M2),
        QuantValue::E2M1 => Some(E2M1),
        QuantValue::Q8F
        | QuantValue::Q8S
        | QuantValue::Q4F
        | QuantValue::Q4S
        | QuantValue::Q2F
        | QuantValue::Q2S => None,
    }
}

/// One value's code: an integer in the low `bits` (two's complement) or a
/// minifloat code.
fn encode_value(value: QuantValue, x: f32, inv_scale: f32) -> u8 {
    let v = x * inv_scale;
    match minifloat(value) {
        Some(format) => format.encode(v),
        None => {
            let (lo, hi) = value.range();
            // NaN clamps to `lo` under `max`/`min`; map it to zero instead.
            let q = if v.is_nan() {
                0.0
            } else {
                libm::rintf(v).clamp(lo, hi)
            };
            q as i8 as u8
        }
    }
}

/// The value of a code, in units of the scale.
fn decode_value(value: QuantValue, code: u8) -> f32 {
    match minifloat(value) {
        Some(format) => format.decode(code),
        None => {
            let bits = value.size_bits() as u32;
            // Sign-extend the low `bits`.
            ((((code as u32) << (32 - bits)) as i32) >> (32 - bits)) as f32
        }
    }
}

/// Writes code `c` of value `i` into the values region.
fn pack(scheme: &QuantScheme, region: &mut [u8], i: usize, c: u8) {
    let bits = scheme.value.size_bits();
    match scheme.store {
        QuantStore::Native => region[i] = c,
        QuantStore::PackedNative(_) | QuantStore::PackedU32(_) => {
            // Packing in little-endian u32 words, lowest bits first, is the
            // same as packing a byte stream lowest bits first.
            let per_byte = 8 / bits;
            let byte = i / per_byte;
            let shift = (i % per_byte) * bits;
            let mask = ((1u16 << bits) - 1) as u8;
            region[byte] |= (c & mask) << shift;
        }
    }
}

/// Reads code `i` from the values region.
fn unpack(scheme: &QuantScheme, region: &[u8], i: usize) -> u8 {
    let bits = scheme.value.size_bits();
    match scheme.store {
        QuantStore::Native => region[i],
        QuantStore::PackedNative(_) | QuantStore::PackedU32(_) => {
            let per_byte = 8 / bits;
            let mask = ((1u16 << bits) - 1) as u8;
            (region[i / per_byte] >> ((i % per_byte) * bits)) & mask
        }
    }
}

/// Quantizes `values` (row-major, of `shape`) with the given scales into
/// the bytes of the [layout](self).
pub fn quantize_values(
    values: &[f32],
    shape: &Shape,
    scheme: &QuantScheme,
    params: &QParams<Vec<f32>>,
) -> Result<Vec<u8>, QuantError> {
    check_scheme(scheme, shape)?;
    let layout = QuantLayout::new(scheme, shape)?;
    if params.scales.len() != layout.num_scales {
        return Err(QuantError::ScalesLength {
            scheme: *scheme,
            shape: shape.clone(),
            expected: layout.num_scales,
            found: params.scales.len(),
        });
    }
    let global = match (layout.global_offset, &params.global) {
        (Some(_), Some(g)) if g.len() == 1 => Some(g[0]),
        (None, None) => None,
        (Some(_), _) => {
            return Err(QuantError::GlobalScale {
                scheme: *scheme,
                expected: "needs",
            });
        }
        (None, Some(_)) => {
            return Err(QuantError::GlobalScale {
                scheme: *scheme,
                expected: "takes no",
            });
        }
    };
    let mut scale_bytes = Vec::with_capacity(layout.total - layout.values_len);
    let tensor_dtype = scheme.tensor_scale().unwrap_or(ScaleDtype::F32);
    let mut global_bytes = Vec::new();
    let global_value = global.map(|g| store_scale(tensor_dtype, g, &mut global_bytes));
    let effective: Vec<f32> = params
        .scales
        .iter()
        .map(|&s| {
            store_scale(scheme.scale_dtype(), s, &mut scale_bytes) * global_value.unwrap_or(1.0)
        })
        .collect();
    let inverse: Vec<f32> = effective
        .iter()
        .map(|&s| if s > 0.0 { 1.0 / s } else { 0.0 })
        .collect();

    let mut out = vec![0u8; layout.total];
    let (region, rest) = out.split_at_mut(layout.values_len);
    for_each_value(shape, scheme, |i, b| {
        pack(
            scheme,
            region,
            i,
            encode_value(scheme.value, values[i], inverse[b]),
        );
    });
    rest[..scale_bytes.len()].copy_from_slice(&scale_bytes);
    if let Some(at) = layout.global_offset {
        out[at..at + global_bytes.len()].copy_from_slice(&global_bytes);
    }
    Ok(out)
}

/// The layout of `shape` under `scheme`, checked against the length of
/// `bytes`.
fn checked_layout(
    bytes: &[u8],
    shape: &Shape,
    scheme: &QuantScheme,
) -> Result<QuantLayout, QuantError> {
    let layout = QuantLayout::new(scheme, shape)?;
    if bytes.len() != layout.total {
        return Err(QuantError::DataLength {
            scheme: *scheme,
            shape: shape.clone(),
            expected: layout.total,
            found: bytes.len(),
        });
    }
    Ok(layout)
}

/// The effective scale of every block of quantized `bytes` (the stored
/// scale times the per-tensor one).
pub fn effective_scales(
    bytes: &[u8],
    shape: &Shape,
    scheme: &QuantScheme,
) -> Result<Vec<f32>, QuantError> {
    let layout = checked_layout(bytes, shape, scheme)?;
    let global = layout.global_offset.map_or(1.0, |at| {
        load_scale(
            scheme.tensor_scale().unwrap_or(ScaleDtype::F32),
            &bytes[at..],
        )
    });
    let dtype = scheme.scale_dtype();
    let size = dtype.size_bytes();
    Ok((0..layout.num_scales)
        .map(|b| load_scale(dtype, &bytes[layout.scales_offset + b * size..]) * global)
        .collect())
}

/// Dequantizes bytes of the [layout](self) back to row-major `f32` values.
pub fn dequantize_values(
    bytes: &[u8],
    shape: &Shape,
    scheme: &QuantScheme,
) -> Result<Vec<f32>, QuantError> {
    let scales = effective_scales(bytes, shape, scheme)?;
    let layout = checked_layout(bytes, shape, scheme)?;
    let region = &bytes[..layout.values_len];
    let mut out = vec![0f32; layout.num_values];
    // A 256-entry table: one code's value in units of the scale.
    let table: Vec<f32> = (0..=255u8).map(|c| decode_value(scheme.value, c)).collect();
    for_each_value(shape, scheme, |i, b| {
        out[i] = table[unpack(scheme, region, i) as usize] * scales[b];
    });
    Ok(out)
}
