//! Sweeps tiling blueprints of cubek's double-buffered TMA + `mma` routine
//! on a CUDA device, for f16/bf16 products with the right-hand side
//! row-major (as `a.matmul(b)` stores it) and column-major (a transposed
//! view), to find what `ops::matmul` should force for large products.
//!
//! `cargo run --release -p burn-cubecl --features cuda --example matmul_blueprints [N] [tn]`
//!
//! With `tn`, only f16 with a column-major right-hand side: the blueprint
//! `ops::matmul` forces and variations of it (cube order, buffering, warp
//! layout, warp-specialised loading).
//!
//! Each line: the layout, the blueprint (warp tile in tiles, warps per
//! cube, swizzle; a tile is 16×8×16, the `mma.sync` shape), the median of six timed runs and TFLOP/s, and the
//! largest difference from the inferred blueprint's output relative to its
//! largest magnitude (a wrong blueprint shows there).

use std::time::Instant;

use burn_backend::{Backend, FloatTensorOps};
use burn_cubecl::client::CubeClient;
use burn_cubecl::ops::matmul::matmul_with;
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Distribution, Shape};
use cubecl::ir::AddressType;
use cubek::matmul::components::stage::PartitionBuffering;
use cubek::matmul::components::tile::TileMatmulKind;
use cubek::matmul::definition::{MatmulGlobalElems, MatmulProblem, TilingBlueprint, TilingScheme};
use cubek::matmul::launch::Strategy;
use cubek::matmul::routines::BlueprintStrategy;
use cubek::std::cube_count::{CubeCountStrategy, GlobalOrder, HypercubeBlueprint, SmAllocation};
use cubek::std::stage::SwizzleMode;
use cubek::std::{MatrixLayout, PartitionSize, StageSize, SwizzleModes, TileSize};

/// A blueprint to force: tiles per warp (m, n, k), warps per cube (m, n),
/// whether shared memory is swizzled, whether cubes are laid on the SMs.
#[derive(Clone, Copy, Debug)]
struct Plan {
    partition: (u32, u32, u32),
    stage: (u32, u32),
    swizzle: bool,
    sm: bool,
    order: GlobalOrder,
    buffering: Option<PartitionBuffering>,
}

fn swizzle_for(bytes: usize) -> SwizzleMode {
    match bytes {
        32 => SwizzleMode::B32,
        64 => SwizzleMode::B64,
        128 => SwizzleMode::B128,
        _ => SwizzleMode::None,
    }
}

/// An n³ product with a row-major left-hand side and `rhs`'s layout.
fn problem(n: usize, rhs: MatrixLayout, ty: DType) -> MatmulProblem {
    let st = burn_cubecl::dtype::storage(ty);
    MatmulProblem::from_parameters(
        n,
        n,
        n,
        cubecl::zspace::Shape::new([]),
        cubecl::zspace::Shape::new([]),
        MatrixLayout::RowMajor,
        rhs,
        MatrixLayout::RowMajor,
        None,
        None,
        MatmulGlobalElems {
            lhs: st,
            rhs: st,
            out: st,
        },
        AddressType::U32,
    )
}

fn blueprint(plan: Plan, n: usize, rhs: MatrixLayout, ty: DType, sms: u32) -> TilingBlueprint {
    let problem = problem(n, rhs, ty);
    let (tiles_m, tiles_n, tiles_k) = plan.partition;
    let scheme = TilingScheme::builder()
        .with_tile_size(TileSize::from((16, 8, 16)))
        .with_partition_size(PartitionSize::new(tiles_m, tiles_n, tiles_k))
        .with_stage_size(StageSize::new(plan.stage.0, plan.stage.1, 1))
        .build()
        .expect("complete tiling scheme");
    let elem = ty.size();
    let k_bytes = (tiles_k * 16) as usize * elem;
    let n_bytes = (tiles_n * plan.stage.1 * 8) as usize * elem;
    let swizzle = if plan.swizzle {
        SwizzleModes {
            lhs: swizzle_for(k_bytes),
            rhs: match rhs {
                MatrixLayout::RowMajor => swizzle_for(n_bytes),
                MatrixLayout::ColMajor => swizzle_for(k_bytes),
            },
            ..Default::default()
        }
    } else {
        SwizzleModes::default()
    };
    let count = if plan.sm {
        CubeCountStrategy::Sm {
            num_sms: sms,
            sm_usage: SmAllocation::Exact,
            cubes_first: true,
        }
    } else {
        CubeCountStrategy::FromProblem
    };
    let hypercube = HypercubeBlueprint::builder()
        .global_order(plan.order)
        .cube_count_strategy(count)
        .build();
    TilingBlueprint::builder(TileMatmulKind::Mma, scheme, 32, &problem)
        .partition_buffering(plan.buffering.unwrap_or(if tiles_n > 1 {
            PartitionBuffering::Double
        } else {
            PartitionBuffering::Single
        }))
        .hypercube_blueprint(hypercube)
        .shared_swizzle(swizzle)
        .build()
}

fn random(n: usize, dtype: DType, device: &CubeDevice) -> CubeTensor {
    let t = CubeBackend::float_random(
        Shape::new([n, n]),
        Distribution::Default,
        device,
        DType::F32,
    );
    CubeBackend::float_cast(t, dtype)
}

/// max |a − b| / max |b|, computed on the device.
fn rel_diff(a: &CubeTensor, b: &CubeTensor) -> f32 {
    let a = CubeBackend::float_cast(a.clone(), DType::F32);
    let b = CubeBackend::float_cast(b.clone(), DType::F32);
    let scale = CubeBackend::float_max(CubeBackend::float_abs(b.clone()));
    let diff = CubeBackend::float_max(CubeBackend::float_abs(CubeBackend::float_sub(a, b)));
    let scale = CubeBackend::float_into_data(scale)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()[0];
    let diff = CubeBackend::float_into_data(diff)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()[0];
    diff / scale.max(1e-30)
}

/// Median seconds of six runs after two warm-ups, or why it failed.
fn time(
    strategy: &Strategy,
    lhs: &CubeTensor,
    rhs: &CubeTensor,
    out: &CubeTensor,
    device: &CubeDevice,
) -> Result<f64, String> {
    let mut times = Vec::new();
    for i in 0..8 {
        let start = Instant::now();
        matmul_with(strategy, lhs, rhs, out)?;
        CubeBackend::sync(device).map_err(|e| format!("{e:?}"))?;
        if i >= 2 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// One line: the time and rate of a run with its difference from the
/// reference output, or the first line of why it could not run.
fn report(
    label: &str,
    result: Result<f64, String>,
    flops: f64,
    out: &CubeTensor,
    reference: &CubeTensor,
) {
    match result {
        Ok(t) => println!(
            "{label:<80} {:>9.3} ms {:>6.1} TFLOP/s  diff {:.1e}",
            t * 1e3,
            flops / t / 1e12,
            rel_diff(out, reference)
        ),
        Err(e) => {
            let first: String = e.lines().next().unwrap_or("").chars().take(100).collect();
            println!("{label:<80} unavailable: {first}");
        }
    }
}

fn plans() -> Vec<Plan> {
    let mut plans = Vec::new();
    for (partition, stage) in [
        ((2, 8, 2), (4, 1)),
        ((2, 16, 2), (4, 1)),
        ((4, 8, 2), (2, 2)),
        ((4, 8, 4), (2, 2)),
        ((4, 8, 2), (4, 2)),
        ((4, 8, 4), (4, 2)),
        ((4, 8, 4), (2, 4)),
        ((2, 16, 4), (4, 2)),
        ((4, 16, 2), (2, 2)),
        ((8, 8, 2), (2, 2)),
        ((4, 16, 4), (2, 1)),
    ] {
        for swizzle in [true, false] {
            plans.push(Plan {
                partition,
                stage,
                swizzle,
                sm: true,
                order: GlobalOrder::SwizzleRow(4),
                buffering: None,
            });
        }
    }
    plans.push(SHIPPED);
    plans
}

/// The plan whose blueprint `ops::matmul::tn_blueprint` builds (the `tn`
/// sweep checks that they agree before varying it).
const SHIPPED: Plan = Plan {
    partition: (4, 8, 4),
    stage: (2, 2),
    swizzle: true,
    sm: false,
    order: GlobalOrder::SwizzleRow(4),
    buffering: None,
};

/// Variations around the shipped column-major blueprint (`tn` mode).
fn tn_plans() -> Vec<Plan> {
    let base = SHIPPED;
    let mut plans = vec![base];
    for order in [
        GlobalOrder::RowMajor,
        GlobalOrder::SwizzleRow(8),
        GlobalOrder::SwizzleRow(16),
        GlobalOrder::SwizzleCol(4),
    ] {
        plans.push(Plan { order, ..base });
    }
    plans.push(Plan {
        buffering: Some(PartitionBuffering::Single),
        ..base
    });
    for (partition, stage) in [
        ((2, 8, 4), (4, 2)),
        ((4, 4, 4), (2, 4)),
        ((4, 8, 4), (4, 4)),
        ((4, 8, 4), (2, 1)),
        ((2, 16, 4), (4, 1)),
    ] {
        plans.push(Plan {
            partition,
            stage,
            ..base
        });
    }
    for order in [GlobalOrder::SwizzleRow(8), GlobalOrder::SwizzleRow(16)] {
        plans.push(Plan {
            stage: (2, 1),
            order,
            ..base
        });
    }
    plans
}

fn main() {
    let device = CubeDevice::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(8192);
    let tn = args.iter().any(|a| a == "tn");
    let sms = match CubeClient::of(&device) {
        CubeClient::Cuda(c) => c
            .properties()
            .hardware
            .num_streaming_multiprocessors
            .unwrap_or(1),
        #[allow(unreachable_patterns)]
        _ => {
            println!("matmul_blueprints: TMA blueprints need a CUDA device");
            return;
        }
    };
    println!("device {device:?}, {sms} SMs, {n}³");
    let flops = 2.0 * (n as f64).powi(3);
    if tn {
        tn_sweep(n, sms, &device);
        return;
    }
    for dtype in [DType::F16, DType::BF16] {
        let lhs = random(n, dtype, &device);
        let square = random(n, dtype, &device);
        let mut layouts = vec![(MatrixLayout::RowMajor, square.clone())];
        if dtype == DType::F16 {
            layouts.push((
                MatrixLayout::ColMajor,
                CubeBackend::float_swap_dims(square, 0, 1),
            ));
        }
        for (layout, rhs) in layouts {
            let name = if layout == MatrixLayout::RowMajor {
                "rhs row"
            } else {
                "rhs col"
            };
            let reference = lhs.empty_like(Shape::new([n, n]), dtype);
            let inferred = Strategy::DoubleTmaMma(Default::default());
            match time(&inferred, &lhs, &rhs, &reference, &device) {
                Ok(t) => println!(
                    "{dtype} {name} inferred {:>9.3} ms {:>6.1} TFLOP/s",
                    t * 1e3,
                    flops / t / 1e12
                ),
                Err(e) => {
                    println!("{dtype} {name} inferred failed: {e}");
                    continue;
                }
            }
            for plan in plans() {
                let forced = Strategy::DoubleTmaMma(BlueprintStrategy::Forced(blueprint(
                    plan, n, layout, dtype, sms,
                )));
                let out = lhs.empty_like(Shape::new([n, n]), dtype);
                let label = format!(
                    "warp {:?} warps {:?} swizzle {} sm {}",
                    plan.partition, plan.stage, plan.swizzle, plan.sm
                );
                let result = time(&forced, &lhs, &rhs, &out, &device);
                report(
                    &format!("{dtype} {name} {label}"),
                    result,
                    flops,
                    &out,
                    &reference,
                );
            }
        }
    }
}

/// `tn` mode: f16 with a column-major right-hand side, the shipped
/// blueprint and variations of it, on the double-buffered routine and on
/// the warp-specialised one (load-only warps).
fn tn_sweep(n: usize, sms: u32, device: &CubeDevice) {
    use cubek::matmul::components::global::{InputLoadFlow, LoadFlows};
    let flops = 2.0 * (n as f64).powi(3);
    let dtype = DType::F16;
    assert_eq!(
        blueprint(SHIPPED, n, MatrixLayout::ColMajor, dtype, sms),
        burn_cubecl::ops::matmul::tn_blueprint(&problem(n, MatrixLayout::ColMajor, dtype)),
        "SHIPPED no longer matches ops::matmul::tn_blueprint"
    );
    let lhs = random(n, dtype, device);
    let rhs = CubeBackend::float_swap_dims(random(n, dtype, device), 0, 1);
    let reference = lhs.empty_like(Shape::new([n, n]), dtype);
    let inferred = Strategy::DoubleTmaMma(Default::default());
    if let Err(e) = time(&inferred, &lhs, &rhs, &reference, device) {
        println!("inferred failed: {e}");
        return;
    }
    for plan in tn_plans() {
        let bp = blueprint(plan, n, MatrixLayout::ColMajor, dtype, sms);
        let mut specialized = bp.clone();
        specialized.load_flows = LoadFlows {
            lhs: InputLoadFlow::LoadOnly,
            rhs: InputLoadFlow::LoadOnly,
        };
        for (name, strategy) in [
            (
                "double",
                Strategy::DoubleTmaMma(BlueprintStrategy::Forced(bp)),
            ),
            (
                "specialized",
                Strategy::SpecializedTmaMma(BlueprintStrategy::Forced(specialized)),
            ),
        ] {
            let out = lhs.empty_like(Shape::new([n, n]), dtype);
            let label = format!(
                "{name} warp {:?} warps {:?} order {:?} buffering {:?}",
                plan.partition, plan.stage, plan.order, plan.buffering
            );
            let result = time(&strategy, &lhs, &rhs, &out, device);
            report(&label, result, flops, &out, &reference);
        }
    }
}
