//! Matrix products: cubek's tiled kernels for floats (tensor cores where the
//! device has them), a strided kernel of our own for ints and as the
//! fallback when no cubek routine accepts the problem.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, Ordering};

use burn_backend::check;
use burn_backend::kernels::{CreationKernels, MatmulKernels, ShapeKernels};
use burn_std::Shape;
use cubecl::features::Tma;
use cubecl::ir::AddressType;
use cubecl::prelude::*;
use cubek::matmul::components::stage::PartitionBuffering;
use cubek::matmul::components::tile::TileMatmulKind;
use cubek::matmul::definition::{
    MatmulElems, MatmulGlobalElems, MatmulProblem, TilingBlueprint, TilingScheme,
};
use cubek::matmul::launch::Strategy;
use cubek::matmul::routines::BlueprintStrategy;
use cubek::std::cube_count::{CubeCountStrategy, GlobalOrder, HypercubeBlueprint};
use cubek::std::stage::SwizzleMode;
use cubek::std::{InputBinding, PartitionSize, StageSize, SwizzleModes, TileSize};

use super::elemwise_dims;
use crate::client::with_runtime;
use crate::dtype;
use crate::{CubeBackend, CubeTensor};

/// One thread per output element; operands of any strides (batch dims of
/// size 1 broadcast through stride 0). Accumulates in the element type.
#[cube(launch_unchecked)]
fn matmul_kernel<T: Numeric>(
    lhs: &Tensor<T>,
    rhs: &Tensor<T>,
    out: &mut Tensor<T>,
    len: usize,
    lhs_offset: usize,
    rhs_offset: usize,
    #[comptime] rank: usize,
    #[define(T)] _dtype: StorageType,
) {
    let pos = ABSOLUTE_POS;
    if pos >= len {
        terminate!();
    }
    let m_dim = comptime![rank - 2];
    let n_dim = comptime![rank - 1];
    let mut l = lhs_offset;
    let mut r = rhs_offset;
    #[unroll]
    for d in 0..m_dim {
        let coord = (pos / out.stride(d)) % out.shape(d);
        l += coord * lhs.stride(d);
        r += coord * rhs.stride(d);
    }
    let i = (pos / out.stride(m_dim)) % out.shape(m_dim);
    let j = pos % out.shape(n_dim);
    l += i * lhs.stride(m_dim);
    r += j * rhs.stride(n_dim);
    let k = lhs.shape(n_dim);
    let mut acc = T::from_int(0);
    for p in 0..k {
        acc += lhs[l + p * lhs.stride(n_dim)] * rhs[r + p * rhs.stride(m_dim)];
    }
    out[pos] = acc;
}

/// `t` with batch dims of size 1 widened (stride 0) to `out`'s batch dims.
fn batch_view(t: &CubeTensor, out: &Shape) -> CubeTensor {
    let rank = out.num_dims();
    let mut dims: Vec<usize> = out.dims[..rank - 2].to_vec();
    let mut strides: Vec<usize> = (0..rank - 2)
        .map(|d| {
            if t.shape.dims[d] == out.dims[d] {
                t.strides[d]
            } else {
                0
            }
        })
        .collect();
    dims.extend_from_slice(&t.shape.dims[rank - 2..]);
    strides.extend_from_slice(&t.strides[rank - 2..]);
    let mut view = t.clone();
    view.shape = Shape::from(dims);
    view.strides = strides;
    view
}

fn naive(lhs: &CubeTensor, rhs: &CubeTensor, out: &CubeTensor) {
    let lhs = batch_view(lhs, &out.shape);
    let rhs = batch_view(rhs, &out.shape);
    let n = out.num_elements();
    let ty = dtype::storage(out.dtype);
    let rank = out.shape.num_dims();
    with_runtime!(&out.client, R, c => {
        let (count, dim) = elemwise_dims(c, n);
        unsafe {
            matmul_kernel::launch_unchecked::<R>(
                c, count, dim,
                lhs.arg::<R>(), rhs.arg::<R>(), out.arg::<R>(),
                n, lhs.offset, rhs.offset, rank, ty,
            );
        }
    });
}

/// Whether the last two dims are row- or column-major and the data starts
/// at the buffer's beginning (what cubek's bindings describe).
fn cubek_layout(t: &CubeTensor) -> bool {
    if t.offset != 0 {
        return false;
    }
    let rank = t.shape.num_dims();
    let (rows, cols) = (t.shape.dims[rank - 2], t.shape.dims[rank - 1]);
    let (rs, cs) = (t.strides[rank - 2], t.strides[rank - 1]);
    (cs == 1 && (rs == cols || rows == 1)) || (rs == 1 && (cs == rows || cols == 1))
}

/// cubek's routines in the order they are tried: tensor-core kernels first
/// (they report `Unavailable` on devices without them), then unit kernels.
///
/// The order comes from `examples/matmul_strategies.rs` on an H200
/// (2026-11-30, 8192³): double-buffered TMA + `mma` leads in every dtype
/// (f16 246, bf16 245, f32-as-tf32 98 TFLOP/s, not used: see `cubek_matmul`), the warp-specialised TMA
/// routine follows (187 / 188 / 95); the cyclic `cmma` routine serves GPUs
/// without TMA (Vulkan cooperative matrices); the unit routine (26 TFLOP/s
/// f32 there, twice the double-buffered unit one) serves the rest.
pub fn strategies() -> Vec<Strategy> {
    alloc::vec![
        Strategy::DoubleTmaMma(Default::default()),
        Strategy::SpecializedTmaMma(Default::default()),
        Strategy::SimpleCyclicCmma(Default::default()),
        Strategy::SimpleUnit(Default::default()),
        Strategy::DoubleUnit(Default::default()),
    ]
}

/// f16/bf16 products of at least this many multiply-adds (2048³) take
/// [`tensor_core_tn`].
const TN_MIN_WORK: usize = 1 << 33;

/// Large f16/bf16 products on devices with TMA: the right-hand side is
/// made column-major first (one copy of it), then cubek's double-buffered
/// TMA + `mma` routine runs with a blueprint of ours ([`tn_blueprint`]).
/// False when the problem or the device does not fit; the caller then
/// takes cubek's own choice.
///
/// Why: cubek swizzles a stage in shared memory only when its rows are at
/// most 128 bytes, so with a row-major right-hand side it infers 32×64 warp
/// tiles in 128×64 cubes (a stage row is n-wide), which load shared memory
/// more often than they multiply. A column-major right-hand side has
/// k-wide stage rows: 64 of k is 128 bytes, and 64×64 warp tiles fit.
/// `examples/matmul_blueprints.rs` on an H200 (2026-11-30, f16 8192³):
/// 247 TFLOP/s inferred on a row-major right-hand side, 322 with this
/// blueprint on a column-major one; the copy costs about 4 % of the product
/// (0.15 ms of 3.56).
fn tensor_core_tn(lhs: &CubeTensor, rhs: &CubeTensor, out: &CubeTensor) -> bool {
    let dtype = out.dtype;
    if !matches!(dtype, burn_std::DType::F16 | burn_std::DType::BF16) {
        return false;
    }
    let rank = out.shape.num_dims();
    let (m, n) = (out.shape.dims[rank - 2], out.shape.dims[rank - 1]);
    let k = lhs.shape.dims[rank - 1];
    let batches = out.num_elements() / (m * n);
    // Row-major lhs (unit column stride) at the buffer's start.
    let lhs_rows = lhs.offset == 0 && lhs.strides[rank - 1] == 1 && lhs.strides[rank - 2] == k;
    if batches * m * n * k < TN_MIN_WORK || !lhs_rows {
        return false;
    }
    let tma = with_runtime!(&out.client, R, c => {
        let props = c.properties();
        props.features.tma.contains(Tma::Base) && props.hardware.plane_size_max == 32
    });
    if !tma {
        return false;
    }
    let col_major = rhs.offset == 0 && rhs.strides[rank - 2] == 1 && rhs.strides[rank - 1] == k;
    let rhs = if col_major {
        rhs.clone()
    } else {
        // The transpose made contiguous, seen transposed again.
        let mut axes: Vec<usize> = (0..rank).collect();
        axes.swap(rank - 2, rank - 1);
        let packed = super::shape::copy_contiguous(&CubeBackend::permute(rhs.clone(), &axes));
        CubeBackend::permute(packed, &axes)
    };
    let ty = dtype::storage(dtype);
    let Ok(problem) = MatmulProblem::from_shapes_and_strides(
        lhs.shape.dims.as_slice().to_vec().into(),
        rhs.shape.dims.as_slice().to_vec().into(),
        out.shape.dims.as_slice().to_vec().into(),
        lhs.strides.clone().into(),
        rhs.strides.clone().into(),
        out.strides.clone().into(),
        MatmulGlobalElems {
            lhs: ty,
            rhs: ty,
            out: ty,
        },
        AddressType::U32,
        None,
        None,
    ) else {
        return false;
    };
    let strategy = Strategy::DoubleTmaMma(BlueprintStrategy::Forced(tn_blueprint(&problem)));
    matmul_with(&strategy, lhs, &rhs, out).is_ok()
}

/// The blueprint [`tensor_core_tn`] forces: 16×8×16 `mma` tiles, 4×8
/// tiles a warp (64×64), 2×2 warps a cube (128×128), 4 tiles (64) of k a
/// stage, both stages swizzled at 128 bytes, partitions double-buffered,
/// cubes in row bands of four (for L2 reuse).
pub fn tn_blueprint(problem: &MatmulProblem) -> TilingBlueprint {
    let scheme = TilingScheme::builder()
        .with_tile_size(TileSize::from((16, 8, 16)))
        .with_partition_size(PartitionSize::new(4, 8, 4))
        .with_stage_size(StageSize::new(2, 2, 1))
        .build()
        .expect("every level of the tiling scheme is set");
    let hypercube = HypercubeBlueprint::builder()
        .global_order(GlobalOrder::SwizzleRow(4))
        .cube_count_strategy(CubeCountStrategy::FromProblem)
        .build();
    TilingBlueprint::builder(TileMatmulKind::Mma, scheme, 32, problem)
        .partition_buffering(PartitionBuffering::Double)
        .hypercube_blueprint(hypercube)
        .shared_swizzle(SwizzleModes {
            lhs: SwizzleMode::B128,
            rhs: SwizzleMode::B128,
            ..Default::default()
        })
        .build()
}

/// Whether f32 products may use TF32 tensor cores ([`set_allow_tf32`]).
static ALLOW_TF32: AtomicBool = AtomicBool::new(false);

/// Lets f32 matrix products on this backend (and the convolutions built on
/// them) use the tensor-core routines, which round f32 operands to TF32
/// (10-bit mantissa, about 1e-3 relative error) and accumulate in f32: the
/// trade PyTorch makes with `torch.backends.cuda.matmul.allow_tf32 = True`.
/// Off by default (strict f32, PyTorch's default). Process-wide; devices
/// without tensor cores run the strict routines either way.
pub fn set_allow_tf32(allow: bool) {
    ALLOW_TF32.store(allow, Ordering::Relaxed);
}

/// Whether f32 products may use TF32 tensor cores (see [`set_allow_tf32`]).
pub fn allow_tf32() -> bool {
    ALLOW_TF32.load(Ordering::Relaxed)
}

/// Tries cubek's routines, best first; false when none accepts the problem.
///
/// f32 products stay in f32 unless [`allow_tf32`], PyTorch's default:
/// cubek's tensor-core routines would round f32 operands to TF32, so f32
/// uses the unit routines. f16/bf16 take the tensor-core routines (f32
/// accumulation); f64 always the unit ones.
fn cubek_matmul(lhs: &CubeTensor, rhs: &CubeTensor, out: &CubeTensor) -> bool {
    let strict =
        out.dtype == burn_std::DType::F64 || (out.dtype == burn_std::DType::F32 && !allow_tf32());
    strategies()
        .iter()
        .filter(|s| !strict || matches!(s, Strategy::SimpleUnit(_) | Strategy::DoubleUnit(_)))
        .any(|strategy| matmul_with(strategy, lhs, rhs, out).is_ok())
}

/// Runs one cubek routine into `out` (for the dispatch above and for
/// benchmarks comparing routines). Float operands only.
pub fn matmul_with(
    strategy: &Strategy,
    lhs: &CubeTensor,
    rhs: &CubeTensor,
    out: &CubeTensor,
) -> Result<(), alloc::string::String> {
    let lhs = if cubek_layout(lhs) {
        lhs.clone()
    } else {
        super::shape::copy_contiguous(lhs)
    };
    let rhs = if cubek_layout(rhs) {
        rhs.clone()
    } else {
        super::shape::copy_contiguous(rhs)
    };
    let ty = dtype::storage(out.dtype);
    with_runtime!(&out.client, R, c => {
        let mut elems = MatmulElems::from_globals(&MatmulGlobalElems {
            lhs: ty,
            rhs: ty,
            out: ty,
        });
        cubek::matmul::launch::launch_ref(
            strategy,
            c,
            InputBinding::new(lhs.binding::<R>(), ty),
            InputBinding::new(rhs.binding::<R>(), ty),
            out.binding::<R>(),
            &mut elems,
        )
        .map_err(|err| alloc::format!("{err:?}"))
    })
}

// ----------------------------------------------------------- MatmulKernels

impl MatmulKernels for CubeBackend {
    /// `lhs @ rhs` over the last two dims, broadcasting batch dims.
    fn matmul(lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
        let op = "matmul";
        check::same_dtype(op, lhs.dtype, rhs.dtype);
        let shape = check::matmul(op, &lhs.shape, &rhs.shape);
        let dtype = lhs.dtype;
        let out = lhs.empty_like(shape.clone(), dtype);
        if out.num_elements() == 0 {
            return out;
        }
        if lhs.shape.dims[lhs.shape.num_dims() - 1] == 0 {
            return CubeBackend::full(shape, burn_std::Scalar::Int(0), &lhs.device, dtype);
        }
        if dtype.is_float() && (tensor_core_tn(&lhs, &rhs, &out) || cubek_matmul(&lhs, &rhs, &out))
        {
            return out;
        }
        naive(&lhs, &rhs, &out);
        out
    }
}
