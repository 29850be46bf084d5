//! Matrix multiplication: `[..batch, m, k] x [..batch, k, n] -> [..batch, m, n]`
//! with NumPy broadcasting of the batch dims.
//!
//! - **f32 / f64**: a BLIS-style blocked GEMM ([`gemm`]): B packed into
//!   `KC × NR` panels, A into `MC × KC` blocks of `MR`-row panels, and an FMA
//!   micro-kernel chosen at run time with its block sizes ([`kernel`]:
//!   AVX-512 12×32 tiles, else AVX2+FMA 6×16, else a portable kernel LLVM
//!   vectorizes). Packing reads any strides,
//!   so transposed, sliced, flipped and broadcast operands are never copied
//!   first; 12-row A panels of f32 are transposed with AVX-512 shuffles.
//!   A row-major f32 or f64 A is not packed at all where the CPU has
//!   AVX-512: a 6×64 (f64: 6×32) kernel reads six of its rows in place
//!   (L1) against panels of packed B streaming from L2, with `kc = 512`.
//! - **f16 / bf16**: operands are widened to f32 once, the f32 GEMM
//!   accumulates, and each output is rounded once at the end.
//! - **Small or thin products** skip packing ([`small`]); **integers** use a
//!   blocked wrapping loop ([`int`]).
//! - **Threads**: many matrices run one per task; a product with at least
//!   512 columns a thread gives each thread its own column range, packed
//!   by itself; narrower ones split their rows or columns and share packed
//!   B blocks. K is never split, so results are bit-identical for any
//!   thread count.

mod gemm;
mod int;
mod kernel;
mod small;

use alloc::vec::Vec;

use burn_backend::kernels::MatmulKernels;
use burn_backend::{TensorMetadata, check};
use burn_std::{DType, Shape};
use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use crate::engine::{CHUNK, for_each_chunk_mut};
use crate::layout::Layout;
use crate::{Flex, FlexTensor};
pub(crate) use gemm::{Out, PackedA};
pub(crate) use kernel::GemmFloat;

/// Per-matrix `m·n·k` at or below which the direct path beats packing.
const DIRECT_WORK: usize = 1 << 15;
/// Total `m·n·k` below which everything runs on the calling thread.
const PARALLEL_WORK: usize = 1 << 18;
/// Per-matrix `m·n·k` below which a batch runs one matrix per task.
const BATCH_TASK_WORK: usize = 1 << 24;

/// A strided matrix: element `(i, j)` is `data[off + i * rs + j * cs]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatRef<'a, T> {
    data: &'a [T],
    off: isize,
    rs: isize,
    cs: isize,
}

impl<T> MatRef<'_, T> {
    /// Buffer index of `(i, j)`. In bounds for every logical `(i, j)`
    /// because `FlexTensor::new` validated the layout against the buffer.
    #[inline(always)]
    fn idx(&self, i: usize, j: usize) -> usize {
        (self.off + i as isize * self.rs + j as isize * self.cs) as usize
    }
}

/// A storage element read as the compute type `T` (f16/bf16 widen to f32;
/// f32 and f64 are read as they are).
pub(crate) trait Load<T>: Copy + Send + Sync {
    /// Whether reading converts (else `as_compute` always succeeds).
    const CONVERTS: bool;
    /// One element.
    fn load(self) -> T;
    /// A contiguous run, converted in bulk (F16C for f16 where available).
    fn load_run(src: &[Self], dst: &mut [T]);
    /// The run itself, when no conversion is needed.
    fn as_compute(src: &[Self]) -> Option<&[T]>;
}

macro_rules! load_same {
    ($($t:ty),*) => {$(
        impl Load<$t> for $t {
            const CONVERTS: bool = false;
            #[inline(always)]
            fn load(self) -> $t {
                self
            }
            #[inline(always)]
            fn load_run(src: &[$t], dst: &mut [$t]) {
                dst.copy_from_slice(src);
            }
            #[inline(always)]
            fn as_compute(src: &[$t]) -> Option<&[$t]> {
                Some(src)
            }
        }
    )*};
}
load_same!(f32, f64);

macro_rules! load_half {
    ($($t:ty),*) => {$(
        impl Load<f32> for $t {
            const CONVERTS: bool = true;
            #[inline(always)]
            fn load(self) -> f32 {
                self.to_f32()
            }
            #[inline(always)]
            fn load_run(src: &[$t], dst: &mut [f32]) {
                src.convert_to_f32_slice(dst);
            }
            #[inline(always)]
            fn as_compute(_: &[$t]) -> Option<&[f32]> {
                None
            }
        }
    )*};
}
load_half!(f16, bf16);

/// `run` as compute values: borrowed when no conversion is needed,
/// otherwise converted into the front of `buf`.
#[inline]
pub(crate) fn converted<'a, S: Load<T>, T>(run: &'a [S], buf: &'a mut [T]) -> &'a [T] {
    match S::as_compute(run) {
        Some(same) => same,
        None => {
            let buf = &mut buf[..run.len()];
            S::load_run(run, buf);
            buf
        }
    }
}

/// Shapes, strides and per-batch offsets of one matmul.
struct Plan {
    m: usize,
    n: usize,
    k: usize,
    /// `(row stride, col stride)` of lhs and rhs.
    a_strides: (isize, isize),
    b_strides: (isize, isize),
    /// `(lhs offset, rhs offset)` of each output matrix, in output order
    /// (broadcast batch dims repeat an offset).
    offsets: Vec<(isize, isize)>,
}

impl Plan {
    fn new(lhs: &Layout, rhs: &Layout, out: &Shape) -> Self {
        let r = out.num_dims();
        let batch = &out.dims[..r - 2];
        let (m, n) = (out.dims[r - 2], out.dims[r - 1]);
        let k = lhs.shape().dims[lhs.shape().num_dims() - 1];
        let with = |rows: usize, cols: usize| {
            let mut dims = batch.to_vec();
            dims.extend([rows, cols]);
            Shape::from(dims)
        };
        let (la, lb) = (lhs.expand(&with(m, k)), rhs.expand(&with(k, n)));
        let (sa, sb) = (la.strides(), lb.strides());
        let nbatch: usize = batch.iter().product();
        let mut offsets = Vec::with_capacity(nbatch);
        let mut index = alloc::vec![0usize; batch.len()];
        let mut pos = (la.offset() as isize, lb.offset() as isize);
        for _ in 0..nbatch {
            offsets.push(pos);
            // Odometer over the batch dims.
            for d in (0..batch.len()).rev() {
                index[d] += 1;
                pos.0 += sa[d];
                pos.1 += sb[d];
                if index[d] < batch[d] {
                    break;
                }
                pos.0 -= sa[d] * batch[d] as isize;
                pos.1 -= sb[d] * batch[d] as isize;
                index[d] = 0;
            }
        }
        Self {
            m,
            n,
            k,
            a_strides: (sa[r - 2], sa[r - 1]),
            b_strides: (sb[r - 2], sb[r - 1]),
            offsets,
        }
    }

    /// Runs `f(lhs, rhs, out_matrix, threads)` for every output matrix,
    /// one matrix per task for batches of small matrices, otherwise one
    /// matrix at a time with `threads` workers.
    fn run<S: Copy + Send + Sync, T: Send>(
        &self,
        a: &[S],
        b: &[S],
        out: &mut [T],
        f: impl Fn(MatRef<'_, S>, MatRef<'_, S>, &mut [T], usize) + Sync + Send,
    ) {
        let mn = self.m * self.n;
        if mn == 0 || self.offsets.is_empty() {
            return;
        }
        let work = mn * self.k;
        let mats = |&(oa, ob): &(isize, isize)| {
            (
                MatRef {
                    data: a,
                    off: oa,
                    rs: self.a_strides.0,
                    cs: self.a_strides.1,
                },
                MatRef {
                    data: b,
                    off: ob,
                    rs: self.b_strides.0,
                    cs: self.b_strides.1,
                },
            )
        };
        let threads = if work.saturating_mul(self.offsets.len()) < PARALLEL_WORK {
            1
        } else {
            crate::threads::threads()
        };
        let nbatch = self.offsets.len();
        if threads > 1 && nbatch >= threads && (nbatch >= 4 * threads || work < BATCH_TASK_WORK) {
            crate::threads::chunks_mut(out, mn, |i, c| {
                let (ma, mb) = mats(&self.offsets[i]);
                f(ma, mb, c, 1);
            });
            return;
        }
        for (c, o) in out.chunks_mut(mn).zip(&self.offsets) {
            let (ma, mb) = mats(o);
            f(ma, mb, c, threads);
        }
    }
}

/// The float product of one matrix pair: direct for small or thin shapes,
/// blocked GEMM otherwise. The choice depends on the shape only.
fn float_mm<S: Load<T>, T: GemmFloat>(
    plan: &Plan,
) -> impl Fn(MatRef<'_, S>, MatRef<'_, S>, &mut [T], usize) + Sync + Send + '_ {
    let (m, n, k) = (plan.m, plan.n, plan.k);
    let direct = is_direct(m, n, k);
    move |a, b, c, threads| {
        if direct {
            small::direct(a, b, m, n, k, c, threads)
        } else {
            gemm::gemm(a, b, m, n, k, c, threads)
        }
    }
}

/// `out = a · b` for kernels that lay out their own operands (the
/// convolutions' im2col): `a` is `m × k` and `b` is `k × n`, each given as
/// `(buffer, row stride, col stride)` so a transposed operand is read in
/// place; `out` is row-major `m × n`, overwritten. Same path choice as
/// [`matmul`], so the same bit-identical results for any thread count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_strided<T: GemmFloat + Load<T>>(
    a: (&[T], usize, usize),
    b: (&[T], usize, usize),
    m: usize,
    n: usize,
    k: usize,
    out: &mut [T],
    threads: usize,
) {
    // The blocked path writes every element (its first k block stores);
    // the direct one accumulates.
    if is_direct(m, n, k) || k == 0 {
        out.fill(T::default());
    }
    let a = MatRef {
        data: a.0,
        off: 0,
        rs: a.1 as isize,
        cs: a.2 as isize,
    };
    let b = MatRef {
        data: b.0,
        off: 0,
        rs: b.1 as isize,
        cs: b.2 as isize,
    };
    if is_direct(m, n, k) {
        small::direct(a, b, m, n, k, out, threads)
    } else {
        gemm::gemm(a, b, m, n, k, out, threads)
    }
}

fn float<T: GemmFloat + Load<T>>(
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    shape: Shape,
    dtype: DType,
) -> FlexTensor {
    let plan = Plan::new(lhs.layout(), rhs.layout(), &shape);
    let fill = |out: &mut [T]| {
        plan.run(
            lhs.storage::<T>(),
            rhs.storage::<T>(),
            out,
            float_mm::<T, T>(&plan),
        )
    };
    // The blocked path writes every element (its first k block stores), so
    // its output needs no zeroing; the direct path accumulates into zeros.
    if plan.k > 0 && !is_direct(plan.m, plan.n, plan.k) {
        FlexTensor::build_overwrite::<T>(shape, dtype, fill)
    } else {
        FlexTensor::build::<T>(shape, dtype, fill)
    }
}

/// Whether an `m × k` by `k × n` product takes the direct path (too small
/// or too thin to pay for packing). Depends on the shape only.
fn is_direct(m: usize, n: usize, k: usize) -> bool {
    m * n * k <= DIRECT_WORK || m <= 2 || n <= 2
}

/// f16/bf16: panels widen to f32 as they are packed, products accumulate in
/// an f32 output, and each element is rounded once at the end.
fn half<H: Load<f32> + bytemuck::Pod>(
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    shape: Shape,
    dtype: DType,
) -> FlexTensor
where
    [H]: HalfFloatSliceExt,
{
    let plan = Plan::new(lhs.layout(), rhs.layout(), &shape);
    let mut acc = alloc::vec![0f32; shape.num_elements()];
    let mm = float_mm::<H, f32>(&plan);
    plan.run(lhs.storage::<H>(), rhs.storage::<H>(), &mut acc, mm);
    FlexTensor::build::<H>(shape, dtype, |out| {
        for_each_chunk_mut(out, |i, c| {
            c.convert_from_f32_slice(&acc[i * CHUNK..i * CHUNK + c.len()])
        })
    })
}

// ----------------------------------------------------------- MatmulKernels

impl MatmulKernels for Flex {
    /// Batched, broadcast matmul over the last two dims, for float and int dtypes.
    fn matmul(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        let (dl, dr) = (lhs.dtype(), rhs.dtype());
        if dl != dr {
            panic!(
                "matmul: lhs dtype {dl} and rhs dtype {dr} differ (shapes {} and {})",
                lhs.shape_ref(),
                rhs.shape_ref()
            );
        }
        let shape = check::matmul("matmul", lhs.shape_ref(), rhs.shape_ref());
        match dl {
            DType::F32 => float::<f32>(&lhs, &rhs, shape, dl),
            DType::F64 => float::<f64>(&lhs, &rhs, shape, dl),
            DType::F16 => half::<f16>(&lhs, &rhs, shape, dl),
            DType::BF16 => half::<bf16>(&lhs, &rhs, shape, dl),
            DType::Bool(_) => panic!("matmul: expected a numeric dtype, got {dl}"),
            _ => crate::with_int!("matmul", dl, |E| {
                let plan = Plan::new(lhs.layout(), rhs.layout(), &shape);
                FlexTensor::build::<E>(shape, dl, |out| {
                    plan.run(lhs.storage::<E>(), rhs.storage::<E>(), out, |a, b, c, t| {
                        int::int_gemm(a, b, plan.m, plan.n, plan.k, c, t)
                    })
                })
            }),
        }
    }

    fn quantized_matmul(lhs: &FlexTensor, rhs: &FlexTensor) -> Option<FlexTensor> {
        crate::ops::qmatmul::quantized_matmul(lhs, rhs)
    }
}
