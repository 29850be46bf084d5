//! Sorting along a dim.
//!
//! Each element is mapped to an unsigned key whose integer order is the
//! sort order (floats: IEEE bits with the sign folded in, every NaN mapped
//! to the largest key, `-0.0` to `+0.0`; signed ints: sign bit flipped), and
//! the key is packed with the element's position in its line into one
//! integer. Sorting those integers is a stable sort of the keys (equal keys
//! keep their positions' order), and the values are then gathered from the
//! source by position, so every bit of them (NaN payloads, `-0.0`) is kept.

use alloc::vec;
use alloc::vec::Vec;

use burn_backend::kernels::SortKernels;
use burn_backend::{TensorMetadata, check};
use burn_std::{DType, Shape};
use bytemuck::Pod;
use half::{bf16, f16};

use crate::engine::PARALLEL_THRESHOLD;
use crate::ops::reduce::Lines;
use crate::{Flex, FlexTensor};

/// An element that can be sorted through an order-preserving integer key.
trait SortKey: Pod + Send + Sync {
    /// The key packed with a 32-bit position (key in the high bits).
    type Packed: Ord + Copy + Send + Sync;
    /// Packs the ascending key (or the descending one) with `pos`.
    fn pack(self, pos: u32, descending: bool) -> Self::Packed;
    /// The position of a packed key.
    fn pos(packed: Self::Packed) -> usize;
}

macro_rules! key_impl {
    ($t:ty, $packed:ty, $bits:expr, |$x:ident| $key:expr) => {
        impl SortKey for $t {
            type Packed = $packed;
            #[inline(always)]
            fn pack(self, pos: u32, descending: bool) -> $packed {
                let $x = self;
                let key: $packed = $key;
                let key = if descending {
                    !key & ((1 << $bits) - 1)
                } else {
                    key
                };
                (key << 32) | pos as $packed
            }
            #[inline(always)]
            fn pos(packed: $packed) -> usize {
                (packed & 0xFFFF_FFFF) as usize
            }
        }
    };
}

/// Order-preserving key of the `width`-bit pattern of an IEEE float:
/// positive values get the sign bit set, negative ones are inverted; NaN is
/// the largest key and `-0.0` equals `+0.0`.
#[inline(always)]
fn float_key(bits: u64, width: u32, nan: bool) -> u64 {
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let sign = 1u64 << (width - 1);
    if nan {
        return mask;
    }
    let bits = if bits == sign { 0 } else { bits };
    if bits & sign != 0 {
        !bits & mask
    } else {
        bits | sign
    }
}

key_impl!(u8, u64, 8, |x| x as u64);
key_impl!(u16, u64, 16, |x| x as u64);
key_impl!(u32, u64, 32, |x| x as u64);
key_impl!(u64, u128, 64, |x| x as u128);
key_impl!(i8, u64, 8, |x| (x as u8 ^ 0x80) as u64);
key_impl!(i16, u64, 16, |x| (x as u16 ^ 0x8000) as u64);
key_impl!(i32, u64, 32, |x| (x as u32 ^ 0x8000_0000) as u64);
key_impl!(i64, u128, 64, |x| (x as u64 ^ 0x8000_0000_0000_0000)
    as u128);
key_impl!(f16, u64, 16, |x| float_key(
    x.to_bits() as u64,
    16,
    x.is_nan()
));
key_impl!(bf16, u64, 16, |x| float_key(
    x.to_bits() as u64,
    16,
    x.is_nan()
));
key_impl!(f32, u64, 32, |x| float_key(
    x.to_bits() as u64,
    32,
    x.is_nan()
));
key_impl!(f64, u128, 64, |x| float_key(x.to_bits(), 64, x.is_nan())
    as u128);

/// Elements handled per parallel task (whole lines).
const GRAIN: usize = 1 << 14;
/// Lines gathered together when neighbouring lines are neighbours in
/// memory: each row of the group is one short contiguous read.
const GROUP: usize = 16;
/// Tile edge of the blocked transpose.
const TILE: usize = 32;

fn sort_typed<E: SortKey>(
    tensor: &FlexTensor,
    dim: usize,
    descending: bool,
) -> (FlexTensor, FlexTensor) {
    let shape: Shape = tensor.shape_ref().clone();
    let dtype = tensor.dtype();
    let n = shape.num_elements();
    let len = shape.dims[dim];
    let inner: usize = shape.dims[dim + 1..].iter().product();
    let parallel = n >= PARALLEL_THRESHOLD;
    if n == 0 {
        return (
            FlexTensor::from_vec(Vec::<E>::new(), shape.clone(), dtype),
            FlexTensor::from_vec(Vec::<i64>::new(), shape, DType::I64),
        );
    }
    let lines = Lines::new(tensor.layout(), dim);
    let storage = tensor.storage::<E>();
    if inner == 1 {
        // Lines are rows of the output: sort straight into it.
        let mut values = None;
        let indices = FlexTensor::build::<i64>(shape.clone(), DType::I64, |idx| {
            values = Some(FlexTensor::build::<E>(shape, dtype, |vals| {
                sort_lines(storage, &lines, descending, vals, idx, parallel)
            }));
        });
        return (values.expect("filled by the build above"), indices);
    }
    // Sort into line-major `[outer, inner, len]` buffers, then transpose
    // each block back to row-major `[outer, len, inner]`.
    let mut values = vec![E::zeroed(); n];
    let mut indices = vec![0i64; n];
    sort_lines(
        storage,
        &lines,
        descending,
        &mut values,
        &mut indices,
        parallel,
    );
    let values_out = FlexTensor::build::<E>(shape.clone(), dtype, |out| {
        transpose_blocks(&values, out, inner, len, parallel)
    });
    drop(values);
    let indices_out = FlexTensor::build::<i64>(shape, DType::I64, |out| {
        transpose_blocks(&indices, out, inner, len, parallel)
    });
    (values_out, indices_out)
}

/// Sorts every line of `lines` into `values`/`indices`, line after line.
fn sort_lines<E: SortKey>(
    storage: &[E],
    lines: &Lines,
    descending: bool,
    values: &mut [E],
    indices: &mut [i64],
    parallel: bool,
) {
    let len = lines.len;
    let lines_per_task = (GRAIN / len).max(1).next_multiple_of(GROUP);
    let task = lines_per_task * len;
    let run = |packed: &mut Vec<Vec<E::Packed>>, t: usize, vals: &mut [E], idx: &mut [i64]| {
        let first = t * lines_per_task;
        let count = vals.len() / len;
        let mut k = 0;
        while k < count {
            let line = first + k;
            // Lines of one merged row are `col_stride` apart; group those
            // that are adjacent in memory.
            let room = lines.row_len() - line % lines.row_len();
            let group = if lines.col_stride() == 1 && lines.stride != 1 {
                GROUP.min(room).min(count - k)
            } else {
                1
            };
            gather_keys(storage, lines, line, group, descending, packed);
            for (g, keys) in packed.iter_mut().take(group).enumerate() {
                keys.sort_unstable();
                let start = lines.line_offset(line + g);
                let range = (k + g) * len..(k + g + 1) * len;
                for ((p, v), ix) in keys
                    .iter()
                    .zip(&mut vals[range.clone()])
                    .zip(&mut idx[range])
                {
                    let pos = E::pos(*p);
                    *v = storage[(start + pos as isize * lines.stride) as usize];
                    *ix = pos as i64;
                }
            }
            k += group;
        }
    };
    let init = || {
        (0..GROUP)
            .map(|_| Vec::with_capacity(len))
            .collect::<Vec<_>>()
    };
    if parallel && values.len() > task {
        crate::threads::chunks_mut2_init(values, task, indices, task, init, |packed, t, v, ix| {
            run(packed, t, v, ix)
        });
        return;
    }
    let _ = parallel;
    let mut packed = init();
    for (t, (v, ix)) in values
        .chunks_mut(task)
        .zip(indices.chunks_mut(task))
        .enumerate()
    {
        run(&mut packed, t, v, ix);
    }
}

/// Packs the keys of `group` consecutive lines starting at `line` into
/// `packed[0..group]`. A group of more than one line must be adjacent in
/// memory (`col_stride == 1`), so each step reads `group` neighbours.
fn gather_keys<E: SortKey>(
    storage: &[E],
    lines: &Lines,
    line: usize,
    group: usize,
    descending: bool,
    packed: &mut [Vec<E::Packed>],
) {
    let (len, stride) = (lines.len, lines.stride);
    let start = lines.line_offset(line);
    for keys in packed.iter_mut().take(group) {
        keys.clear();
    }
    if group == 1 {
        let keys = &mut packed[0];
        if stride == 1 {
            let s = start as usize;
            keys.extend(
                storage[s..s + len]
                    .iter()
                    .enumerate()
                    .map(|(i, x)| x.pack(i as u32, descending)),
            );
        } else {
            keys.extend((0..len).map(|i| {
                storage[(start + i as isize * stride) as usize].pack(i as u32, descending)
            }));
        }
        return;
    }
    for i in 0..len {
        let s = (start + i as isize * stride) as usize;
        for (keys, x) in packed.iter_mut().zip(&storage[s..s + group]) {
            keys.push(x.pack(i as u32, descending));
        }
    }
}

/// `out[o, c, r] = src[o, r, c]` for blocks of `rows x cols`, by tiles so
/// both sides are read and written in cache-line runs.
fn transpose_blocks<T: Pod + Send + Sync>(
    src: &[T],
    out: &mut [T],
    rows: usize,
    cols: usize,
    parallel: bool,
) {
    let block = rows * cols;
    // One task: a band of TILE output rows (source columns) of one block.
    let band = |b: usize, dst: &mut [T]| {
        let per_block = cols.div_ceil(TILE);
        let (o, c0) = (b / per_block, (b % per_block) * TILE);
        let src = &src[o * block..(o + 1) * block];
        let width = dst.len() / rows;
        for r0 in (0..rows).step_by(TILE) {
            let r1 = (r0 + TILE).min(rows);
            for c in 0..width {
                let d = &mut dst[c * rows + r0..c * rows + r1];
                for (r, x) in (r0..r1).zip(d.iter_mut()) {
                    *x = src[r * cols + c0 + c];
                }
            }
        }
    };
    // Bands never straddle blocks: each block's output is split into bands.
    let per_block = cols.div_ceil(TILE);
    if parallel {
        // Enough blocks: one task each; else the bands of each block.
        if out.len() / block.max(1) >= 2 * crate::threads::threads() {
            crate::threads::chunks_mut(out, block, |o, blk| {
                for (k, dst) in blk.chunks_mut(TILE * rows).enumerate() {
                    band(o * per_block + k, dst);
                }
            });
        } else {
            for (o, blk) in out.chunks_mut(block).enumerate() {
                crate::threads::chunks_mut(blk, TILE * rows, |k, dst| band(o * per_block + k, dst));
            }
        }
        return;
    }
    let _ = parallel;
    for (o, blk) in out.chunks_mut(block).enumerate() {
        for (k, dst) in blk.chunks_mut(TILE * rows).enumerate() {
            band(o * per_block + k, dst);
        }
    }
}

// ------------------------------------------------------------- SortKernels

impl SortKernels for Flex {
    /// Stable sort along `dim`; returns values and I64 source indices.
    ///
    /// Floats sort NaN above everything (last ascending, first descending) and
    /// equal elements keep their order in both directions, as with PyTorch's
    /// `sort(stable=True)`. Any numeric dtype and bool.
    fn sort_with_indices(
        tensor: FlexTensor,
        dim: usize,
        descending: bool,
    ) -> (FlexTensor, FlexTensor) {
        let op = "sort";
        check::dim(op, dim, &tensor.shape());
        let len = tensor.shape_ref().dims[dim];
        assert!(
            len <= u32::MAX as usize,
            "{op}: dim {dim} of shape {} is longer than 2^32 - 1 elements",
            tensor.shape_ref()
        );
        match tensor.dtype() {
            DType::Bool(_) => sort_typed::<u8>(&tensor, dim, descending),
            dtype => crate::with_numeric!(op, dtype, |E| sort_typed::<E>(&tensor, dim, descending)),
        }
    }
}
