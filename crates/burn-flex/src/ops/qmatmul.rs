//! Weight-only quantized matmul: `x @ W` for a float `x` (`[.., m, k]`)
//! and a quantized weight `W` (`[k, n]`, Burn's `Linear` layout), computed
//! on the packed values: each weight is read once, as one byte (8-bit
//! values) or half a byte (4-bit), instead of four.
//!
//! This is the decoding case (a few rows of activations against a large
//! weight), bound by the bytes of the weight: the output columns are cut
//! into tiles of [`TILE`], one task each; a tile's accumulators stay in L1
//! while every row of the weight streams past as one contiguous run.
//! Each group of 8 columns shares its block's scale, folded into the
//! broadcast `x` value (`x[k] · s[k, block]`), so a weight costs one
//! widening load and one FMA per row of `x`. AVX2+FMA is used where the
//! CPU has it (chosen at run time); a portable loop otherwise.
//!
//! Taken: 8-bit values (`Q8S`, `Q8F`; native or in u32 words, the same
//! bytes) and 4-bit ones (`Q4S`, `Q4F`, in u32 words), one scale per
//! tensor or per block of a multiple of 8 columns (any scale dtype, one
//! or two levels: the effective scales are decoded once per call). Other
//! schemes, batched weights and an `x` of lower rank than the weight go
//! through the dequantized float matmul.

use alloc::borrow::Cow;
use alloc::vec;
use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_backend::kernels::CreationKernels;
use burn_std::quantization::{
    QuantLayout, QuantScheme, QuantStore, QuantValue, ScaleDtype, effective_scales,
};
use burn_std::{DType, Shape};

use crate::FlexTensor;

/// Columns of one task: each row of the weight is read as one contiguous
/// run of this many values (1 KiB at 8 bits), which the hardware
/// prefetcher follows; the task's accumulators (4 KiB a row of `x`) stay in
/// L1. (Tiles of 64 columns, accumulators in registers, read one cache line
/// a 4 KiB-strided row: every load missed, 12 ms for 4096², measured.)
const TILE: usize = 1024;

/// How the weight's values are packed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Codes {
    /// One `i8` a value.
    I8,
    /// Eight 4-bit values a little-endian `u32`, the first in the lowest bits.
    I4,
}

fn codes_of(scheme: &QuantScheme) -> Option<Codes> {
    match (scheme.value, scheme.store) {
        (QuantValue::Q8S | QuantValue::Q8F, QuantStore::Native | QuantStore::PackedU32(0)) => {
            Some(Codes::I8)
        }
        (QuantValue::Q4S | QuantValue::Q4F, QuantStore::PackedU32(0)) => Some(Codes::I4),
        _ => None,
    }
}

/// The weight as the kernel reads it (`k` rows of `n` values).
struct Weight<'a> {
    codes: Codes,
    values: &'a [u8],
    k: usize,
    n: usize,
    /// Effective scales, `blocks_per_row` a row.
    scales: Cow<'a, [f32]>,
    blocks_per_row: usize,
    block: usize,
}

impl Weight<'_> {
    /// The scales of one row.
    #[inline]
    fn row_scales(&self, row: usize) -> &[f32] {
        &self.scales[row * self.blocks_per_row..][..self.blocks_per_row]
    }

    /// The block of each group of 8 columns of the tile at `c0` (computed
    /// once a tile: a division per weight group would cost more than the
    /// group's arithmetic).
    fn group_blocks(&self, c0: usize, width: usize) -> Vec<usize> {
        (0..width)
            .step_by(8)
            .map(|g| (c0 + g) / self.block)
            .collect()
    }
}

/// The effective scale of every block: the stored f32 scales as they lie
/// in the bytes for a one-level f32 scheme (no copy), else decoded; one a
/// row for a per-tensor scheme.
fn scales_of<'a>(
    bytes: &'a [u8],
    shape: &Shape,
    scheme: &QuantScheme,
    rows: usize,
) -> Option<Cow<'a, [f32]>> {
    if scheme.block_size().is_none() {
        let s = effective_scales(bytes, shape, scheme).ok()?[0];
        return Some(Cow::Owned(vec![s; rows]));
    }
    if scheme.num_levels() == 1 && scheme.scale_dtype() == ScaleDtype::F32 {
        let layout = QuantLayout::new(scheme, shape).ok()?;
        let region =
            bytes.get(layout.scales_offset..layout.scales_offset + 4 * layout.num_scales)?;
        if let Ok(scales) = bytemuck::try_cast_slice::<u8, f32>(region) {
            return Some(Cow::Borrowed(scales));
        }
    }
    effective_scales(bytes, shape, scheme).ok().map(Cow::Owned)
}

/// `lhs @ rhs` for a quantized `rhs` this kernel takes, else `None`.
pub(crate) fn quantized_matmul(lhs: &FlexTensor, rhs: &FlexTensor) -> Option<FlexTensor> {
    let DType::QFloat(scheme) = rhs.dtype() else {
        return None;
    };
    let codes = codes_of(&scheme)?;
    // A weight `[k, n]`, or `[1, .., 1, k, n]` (unsqueezed to the rank of
    // `x`), against any batch of rows of `x`.
    let w_shape = rhs.shape_ref();
    let w_rank = w_shape.num_dims();
    if w_rank < 2 || w_shape.dims[..w_rank - 2].iter().any(|&d| d != 1) {
        return None;
    }
    let (k, n) = (w_shape.dims[w_rank - 2], w_shape.dims[w_rank - 1]);
    let x_shape = lhs.shape_ref();
    let rank = x_shape.num_dims();
    if rank < w_rank
        || x_shape.dims[rank - 1] != k
        || !n.is_multiple_of(8)
        || !lhs.dtype().is_float()
    {
        return None;
    }
    let (block, blocks_per_row) = match scheme.block_size() {
        None => (n, 1),
        Some(b) => match b.as_slice() {
            &[b] if (b as usize).is_multiple_of(8) && n.is_multiple_of(b as usize) => {
                (b as usize, n / b as usize)
            }
            _ => return None,
        },
    };
    let bytes = rhs.quantized_bytes();
    let scales = scales_of(bytes, w_shape, &scheme, k)?;
    let weight = Weight {
        codes,
        values: bytes,
        k,
        n,
        scales,
        blocks_per_row,
        block,
    };
    let x: Vec<f32> = <crate::Flex as CreationKernels>::cast(lhs.clone(), DType::F32).to_vec();
    let m = x.len() / k.max(1);
    let mut out_dims = x_shape.dims.clone();
    out_dims[rank - 1] = n;
    let out_shape = Shape::from(out_dims);
    let out = FlexTensor::build::<f32>(out_shape, DType::F32, |out| {
        if k == 0 || m == 0 {
            return;
        }
        run(&weight, &x, m, out);
    });
    Some(if lhs.dtype() == DType::F32 {
        out
    } else {
        <crate::Flex as CreationKernels>::cast(out, lhs.dtype())
    })
}

/// Fills `out` (`[m, n]`, zeroed) with `x @ W`, one task per column tile.
fn run(w: &Weight<'_>, x: &[f32], m: usize, out: &mut [f32]) {
    let tiles = w.n.div_ceil(TILE);
    if m == 1 {
        // The output row is the tiles, side by side.
        crate::threads::chunks_mut(out, TILE, |t, acc| tile(w, x, 1, t * TILE, acc));
        return;
    }
    // Each task fills its own `[m, width]` block of a scratch buffer,
    // scattered into the rows of `out` afterwards.
    let mut scratch = vec![0f32; tiles * m * TILE];
    crate::threads::chunks_mut(&mut scratch, m * TILE, |t, acc| {
        let width = TILE.min(w.n - t * TILE);
        tile(w, x, m, t * TILE, &mut acc[..m * width]);
    });
    for t in 0..tiles {
        let c0 = t * TILE;
        let width = TILE.min(w.n - c0);
        for row in 0..m {
            let src = &scratch[t * m * TILE + row * width..][..width];
            out[row * w.n + c0..][..width].copy_from_slice(src);
        }
    }
}

/// Accumulates columns `c0..c0 + width` of `x @ W` into `acc`
/// (`[m, width]`), `width = acc.len() / m`.
fn tile(w: &Weight<'_>, x: &[f32], m: usize, c0: usize, acc: &mut [f32]) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the features the function enables were just detected.
        unsafe { x86::tile(w, x, m, c0, acc) };
        return;
    }
    portable(w, x, m, c0, acc);
}

/// The code of value `i` of the weight, sign-extended.
#[inline]
fn code(w: &Weight<'_>, i: usize) -> f32 {
    match w.codes {
        Codes::I8 => w.values[i] as i8 as f32,
        Codes::I4 => {
            let byte = w.values[i / 2] >> ((i % 2) * 4);
            (((byte << 4) as i8) >> 4) as f32
        }
    }
}

/// The same sums, one value at a time, in the same order per output.
fn portable(w: &Weight<'_>, x: &[f32], m: usize, c0: usize, acc: &mut [f32]) {
    let width = acc.len() / m;
    let blocks = w.group_blocks(c0, width);
    for row in 0..w.k {
        let scales = w.row_scales(row);
        for (gi, g) in (0..width).step_by(8).enumerate() {
            let s = scales[blocks[gi]];
            for r in 0..m {
                let coef = x[r * w.k + row] * s;
                for c in g..g + 8 {
                    let q = code(w, row * w.n + c0 + c);
                    acc[r * width + c] = libm::fmaf(coef, q, acc[r * width + c]);
                }
            }
        }
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod x86 {
    use core::arch::x86_64::*;

    use super::{Codes, Weight};

    /// Rows of the weight ahead of the one read that are prefetched.
    const AHEAD: usize = 4;

    /// One row of `x` (`m = 1`): the coefficient is recomputed only when
    /// the block changes, and the weight's rows `AHEAD` further down are
    /// prefetched a cache line per group boundary, since each row of the
    /// tile is a short run the hardware prefetcher picks up late.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn row_vector(w: &Weight<'_>, x: &[f32], c0: usize, acc: &mut [f32], blocks: &[usize]) {
        let width = acc.len();
        let line_values = match w.codes {
            Codes::I8 => 64,
            Codes::I4 => 128,
        };
        let ptr = acc.as_mut_ptr();
        for (row, &xr) in x[..w.k].iter().enumerate() {
            let base = row * w.n + c0;
            let scales = w.row_scales(row);
            let ahead = (row + AHEAD < w.k).then(|| (row + AHEAD) * w.n + c0);
            let mut last = usize::MAX;
            let mut coef = _mm256_setzero_ps();
            for (gi, g) in (0..width).step_by(8).enumerate() {
                if blocks[gi] != last {
                    last = blocks[gi];
                    coef = _mm256_set1_ps(xr * scales[last]);
                }
                if let Some(next) = ahead
                    && g.is_multiple_of(line_values)
                {
                    let at = match w.codes {
                        Codes::I8 => next + g,
                        Codes::I4 => (next + g) / 2,
                    };
                    // SAFETY: a prefetch never faults; `at` is inside the
                    // values region anyway.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(w.values.as_ptr().add(at).cast()) };
                }
                // SAFETY: the avx2/fma features are enabled on this fn;
                // `g + 8 <= width = acc.len()`.
                unsafe {
                    let q = load8(w, base + g);
                    let p = ptr.add(g);
                    _mm256_storeu_ps(p, _mm256_fmadd_ps(coef, q, _mm256_loadu_ps(p)));
                }
            }
        }
    }

    /// Eight codes of the weight from value `i` (a multiple of 8), as floats.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn load8(w: &Weight<'_>, i: usize) -> __m256 {
        match w.codes {
            Codes::I8 => {
                debug_assert!(i + 8 <= w.values.len());
                // SAFETY: values `i..i + 8` lie in the values region.
                let b = unsafe { _mm_loadl_epi64(w.values.as_ptr().add(i).cast()) };
                _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b))
            }
            Codes::I4 => {
                debug_assert!(i / 2 + 4 <= w.values.len());
                // SAFETY: the 4 bytes of values `i..i + 8` lie in the region.
                let word = unsafe { (w.values.as_ptr().add(i / 2) as *const u32).read_unaligned() };
                let v = _mm256_set1_epi32(word as i32);
                let shifted = _mm256_srlv_epi32(v, _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
                let signed = _mm256_srai_epi32::<28>(_mm256_slli_epi32::<28>(shifted));
                _mm256_cvtepi32_ps(signed)
            }
        }
    }

    /// As `super::portable`, 8 columns a vector.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn tile(w: &Weight<'_>, x: &[f32], m: usize, c0: usize, acc: &mut [f32]) {
        let width = acc.len() / m;
        let blocks = w.group_blocks(c0, width);
        if m == 1 {
            // SAFETY: the avx2/fma features are enabled on this fn.
            unsafe { row_vector(w, x, c0, acc, &blocks) };
            return;
        }
        for row in 0..w.k {
            let base = row * w.n + c0;
            let scales = w.row_scales(row);
            for (gi, g) in (0..width).step_by(8).enumerate() {
                let s = scales[blocks[gi]];
                // SAFETY: the avx2/fma features are enabled on this fn.
                let q = unsafe { load8(w, base + g) };
                for r in 0..m {
                    let coef = _mm256_set1_ps(x[r * w.k + row] * s);
                    let at = r * width + g;
                    debug_assert!(at + 8 <= acc.len());
                    // SAFETY: `at + 8 <= m * width = acc.len()`.
                    unsafe {
                        let p = acc.as_mut_ptr().add(at);
                        _mm256_storeu_ps(p, _mm256_fmadd_ps(coef, q, _mm256_loadu_ps(p)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SIMD tile gives the portable loop's sums bit for bit (same
    /// products, same order), for both packings and both row counts.
    #[test]
    fn the_simd_tile_matches_the_portable_loop() {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
                return;
            }
            let (k, n) = (40, TILE + 64);
            let values: Vec<u8> = (0..k * n).map(|i| (i * 37 % 251) as u8).collect();
            let scales: Vec<f32> = (0..k * n / 16).map(|i| 0.01 + i as f32 * 1e-4).collect();
            for codes in [Codes::I8, Codes::I4] {
                let w = Weight {
                    codes,
                    values: &values,
                    k,
                    n,
                    scales: Cow::Borrowed(&scales),
                    blocks_per_row: n / 16,
                    block: 16,
                };
                for m in [1usize, 3] {
                    let x: Vec<f32> = (0..m * k).map(|i| (i as f32 - 20.0) / 9.0).collect();
                    for (c0, width) in [(0, TILE), (TILE, 64), (64, 16)] {
                        let mut a = vec![0f32; m * width];
                        let mut b = vec![0f32; m * width];
                        portable(&w, &x, m, c0, &mut a);
                        // SAFETY: the features were just detected.
                        unsafe { x86::tile(&w, &x, m, c0, &mut b) };
                        assert_eq!(a, b, "m {m}, c0 {c0}");
                    }
                }
            }
        }
    }
}
