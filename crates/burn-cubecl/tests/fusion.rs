//! Element-wise blocks fused on the CubeCL backend (`fusion` feature): one
//! generated kernel per block, with the values of the unfused kernels, for
//! chains, every fused op and activation, broadcasts, strided views,
//! intermediates read later, changed scalars, every float dtype the device
//! has, and seeded random programs.
#![cfg(all(feature = "fusion", any(feature = "wgpu", feature = "cuda")))]

mod common;

use burn_backend::{Backend, FloatTensor, FloatTensorOps, Scalar, TensorData, TensorMetadata};
use burn_cubecl::{CubeBackend, CubeDevice};
use burn_fusion::{Fusion, FusionStatistics, statistics};
use burn_std::{DType, Shape, Tolerance};
use common::values;

type F = Fusion<CubeBackend>;

static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The statistics are per device: tests that count blocks run one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn device() -> CubeDevice {
    CubeDevice::default()
}

fn stats() -> FusionStatistics {
    statistics::<CubeBackend>(&device())
}

fn tensor<B: Backend<Device = CubeDevice>>(
    values: &[f32],
    shape: &[usize],
    dtype: DType,
) -> FloatTensor<B> {
    let data = TensorData::new(values.to_vec(), Shape::from(shape.to_vec())).convert_dtype(dtype);
    B::float_from_data(data, &device())
}

fn read<B: Backend>(t: FloatTensor<B>) -> TensorData {
    B::float_into_data(t).unwrap().convert_dtype(DType::F32)
}

/// Values in [-2 · scale, 2 · scale).
fn spread(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    values(n, seed)
        .into_iter()
        .map(|v| v * 2.0 * scale)
        .collect()
}

/// `((x * 2 + 1).exp().tanh() * 0.5)`.
fn chain<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    let y = B::float_add_scalar(
        B::float_mul_scalar(x, Scalar::Float(2.0)),
        Scalar::Float(1.0),
    );
    B::float_mul_scalar(B::float_tanh(B::float_exp(y)), Scalar::Float(0.5))
}

fn close(fused: &TensorData, direct: &TensorData, what: &str) {
    assert_eq!(fused.shape, direct.shape, "{what}");
    let (f, d) = (
        fused.to_vec::<f32>().unwrap(),
        direct.to_vec::<f32>().unwrap(),
    );
    for (i, (a, b)) in f.iter().zip(&d).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-5 + 1e-4 * b.abs();
        assert!(ok, "{what}: element {i}: fused {a}, unfused {b}");
    }
}

#[test]
fn a_chain_runs_as_one_block_with_the_values_of_the_kernels() {
    let _serial = serial();
    let d = device();
    for dtype in [DType::F32, DType::F16, DType::BF16, DType::F64] {
        if !CubeBackend::supports_dtype(&d, dtype) {
            continue;
        }
        let x = values(3 * 1007, 1);
        let before = stats();
        let fused = read::<F>(chain::<F>(tensor::<F>(&x, &[3, 1007], dtype)));
        let after = stats();
        assert!(
            after.fused_blocks > before.fused_blocks,
            "{dtype}: the chain did not fuse"
        );
        assert_eq!(after.fused_operations - before.fused_operations, 5);
        let direct = read::<CubeBackend>(chain::<CubeBackend>(tensor::<CubeBackend>(
            &x,
            &[3, 1007],
            dtype,
        )));
        let tolerance = if dtype == DType::F32 || dtype == DType::F64 {
            Tolerance::default()
        } else {
            Tolerance::absolute(1e-2)
        };
        fused.assert_approx_eq::<f32>(&direct, tolerance);
    }
}

/// Each fused op and composite beside its unfused kernels, on values that
/// reach its edges (negatives, zeros, large magnitudes).
#[test]
fn every_fused_op_computes_what_its_kernel_computes() {
    type Op<B> = fn(FloatTensor<B>, FloatTensor<B>) -> FloatTensor<B>;
    fn ops<B: Backend>() -> Vec<(&'static str, Op<B>)> {
        vec![
            ("relu", |x, _| B::relu(x)),
            ("gelu", |x, _| B::gelu(x)),
            ("sigmoid", |x, _| B::sigmoid(x)),
            ("silu", |x, _| B::silu(x)),
            ("log_sigmoid", |x, _| B::log_sigmoid(x)),
            ("leaky_relu", |x, _| B::leaky_relu(x, Scalar::Float(0.1))),
            ("hard_sigmoid", |x, _| {
                B::hard_sigmoid(x, Scalar::Float(0.2), Scalar::Float(0.5))
            }),
            ("clamp", |x, _| {
                B::float_clamp(x, Scalar::Float(-0.5), Scalar::Float(0.75))
            }),
            ("clamp_min", |x, _| {
                B::float_clamp_min(x, Scalar::Float(0.1))
            }),
            ("powi", |x, _| B::float_powf_scalar(x, Scalar::Float(3.0))),
            ("powi_negative", |x, _| {
                B::float_powf_scalar(x, Scalar::Float(-2.0))
            }),
            ("powf", |x, _| B::float_powf_scalar(x, Scalar::Float(0.5))),
            ("pow", |x, y| B::float_powf(B::float_abs(x), y)),
            ("div", |x, y| B::float_div(x, y)),
            ("rem", |x, y| B::float_remainder(x, y)),
            ("atan2", |x, y| B::float_atan2(x, y)),
            ("max_pair", |x, y| B::float_max_pair(x, y)),
            ("min_pair", |x, y| B::float_min_pair(x, y)),
            ("erf_log1p", |x, _| {
                B::float_log1p(B::float_abs(B::float_erf(x)))
            }),
            ("sub_recip", |x, y| B::float_recip(B::float_sub(x, y))),
        ]
    }
    let _serial = serial();
    let n = 4 * 257;
    let x = spread(n, 7, 3.0);
    let y: Vec<f32> = spread(n, 8, 2.0)
        .into_iter()
        .map(|v| if v.abs() < 0.05 { 0.5 } else { v })
        .collect();
    for ((name, fused_op), (_, direct_op)) in ops::<F>().into_iter().zip(ops::<CubeBackend>()) {
        let before = stats();
        // A trailing op makes every case a block of at least two.
        let fused = F::float_add_scalar(
            fused_op(
                tensor::<F>(&x, &[4, 257], DType::F32),
                tensor::<F>(&y, &[4, 257], DType::F32),
            ),
            Scalar::Float(1.0),
        );
        let fused = read::<F>(fused);
        assert!(
            stats().fused_blocks > before.fused_blocks,
            "{name}: not fused"
        );
        let direct = CubeBackend::float_add_scalar(
            direct_op(
                tensor::<CubeBackend>(&x, &[4, 257], DType::F32),
                tensor::<CubeBackend>(&y, &[4, 257], DType::F32),
            ),
            Scalar::Float(1.0),
        );
        close(&fused, &read::<CubeBackend>(direct), name);
    }
}

#[test]
fn broadcast_and_strided_operands() {
    let _serial = serial();
    fn run<B: Backend<Device = CubeDevice>>() -> TensorData {
        let x = tensor::<B>(&values(6 * 5, 3), &[6, 5], DType::F32);
        // A transposed view: read through its strides.
        let xt = B::float_swap_dims(x, 0, 1); // [5, 6]
        let bias = tensor::<B>(&values(6, 9), &[6], DType::F32);
        let column = tensor::<B>(&values(5, 4), &[5, 1], DType::F32);
        let y = B::float_add(B::float_mul(xt, bias), column);
        let y = B::relu(B::float_sub_scalar(y, Scalar::Float(0.25)));
        read::<B>(B::float_sqrt(B::float_add_scalar(y, Scalar::Float(1.0))))
    }
    let before = stats();
    let fused = run::<F>();
    assert!(stats().fused_blocks > before.fused_blocks);
    close(&fused, &run::<CubeBackend>(), "broadcast and strided");
}

#[test]
fn an_intermediate_read_later_is_written() {
    let _serial = serial();
    let x = tensor::<F>(&values(64, 5), &[8, 8], DType::F32);
    let y = F::float_mul_scalar(x, Scalar::Float(3.0));
    let z = F::float_exp(F::float_neg(y.clone()));
    let w = F::float_add(z, y.clone());
    let (y, w) = (read::<F>(y), read::<F>(w));
    let xd = tensor::<CubeBackend>(&values(64, 5), &[8, 8], DType::F32);
    let yd = CubeBackend::float_mul_scalar(xd, Scalar::Float(3.0));
    let wd = CubeBackend::float_add(
        CubeBackend::float_exp(CubeBackend::float_neg(yd.clone())),
        yd.clone(),
    );
    close(&y, &read::<CubeBackend>(yd), "y");
    close(&w, &read::<CubeBackend>(wd), "w");
}

#[test]
fn changed_scalars_reuse_the_plan_with_their_own_values() {
    let _serial = serial();
    let step = |lr: f64| {
        let w = tensor::<F>(&values(256, 11), &[16, 16], DType::F32);
        let g = tensor::<F>(&values(256, 12), &[16, 16], DType::F32);
        let update = F::float_mul_scalar(F::float_tanh(g), Scalar::Float(lr));
        read::<F>(F::float_sub(w, update))
    };
    // The first step's queue may begin with what an earlier test left
    // queued (the drops of tensors it held), which gives it another
    // relative form; from the second step on the queue is the step's own.
    let _warm = step(0.1);
    let _warm = step(0.2);
    let before = stats();
    let a = step(0.5);
    let b = step(0.25);
    let after = stats();
    assert_eq!(after.searches, before.searches, "a later step searched");
    assert!(after.cache_hits >= before.cache_hits + 2);
    let w = values(256, 11);
    let g = values(256, 12);
    for (lr, got) in [(0.5f32, a), (0.25, b)] {
        let expected: Vec<f32> = w.iter().zip(&g).map(|(w, g)| w - g.tanh() * lr).collect();
        got.assert_approx_eq::<f32>(&TensorData::new(expected, [16, 16]), Tolerance::default());
    }
}

#[test]
fn a_bad_shape_fails_at_its_op_and_spares_other_tensors() {
    let _serial = serial();
    let kept = F::float_exp(tensor::<F>(&[0.0, 1.0], &[2], DType::F32));
    let kept = read::<F>(kept);
    let x = tensor::<F>(&values(12, 2), &[3, 4], DType::F32);
    let y = tensor::<F>(&values(12, 3), &[4, 3], DType::F32);
    // Shapes that do not broadcast: the op fails where it is recorded.
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        read::<F>(F::float_add(F::float_exp(x), y))
    }));
    let message = failed.expect_err("adding [3, 4] and [4, 3] must fail");
    let text = message
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| message.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(text.contains("[3, 4]") && text.contains("[4, 3]"), "{text}");
    kept.assert_approx_eq::<f32>(
        &TensorData::new(vec![1.0f32, core::f32::consts::E], [2]),
        Tolerance::default(),
    );
}

/// Linear regression by hand (forward, gradient, update: matmuls and fused
/// element-wise blocks), a step read back each time as a training loop's
/// loss is: after warm-up the device's memory in use stays flat.
#[test]
fn memory_stays_flat_over_a_thousand_training_steps() {
    let _serial = serial();
    let d = device();
    let x = tensor::<F>(&values(64 * 16, 21), &[64, 16], DType::F32);
    let y = tensor::<F>(&values(64 * 4, 22), &[64, 4], DType::F32);
    let mut w = tensor::<F>(&values(16 * 4, 23), &[16, 4], DType::F32);
    let xt = F::float_swap_dims(x.clone(), 0, 1);
    let step = |w: FloatTensor<F>| -> (FloatTensor<F>, f32) {
        let error = F::float_sub(F::float_matmul(x.clone(), w.clone()), y.clone());
        let loss = F::float_mean(F::float_mul(error.clone(), error.clone()));
        let grad = F::float_mul_scalar(
            F::float_matmul(xt.clone(), error),
            Scalar::Float(2.0 / 64.0),
        );
        // A decayed step: a fused block of several ops on the weights.
        let update = F::float_mul_scalar(F::float_tanh(grad), Scalar::Float(0.05));
        let w = F::float_sub(F::float_mul_scalar(w, Scalar::Float(0.999)), update);
        (w, read::<F>(loss).to_vec::<f32>().unwrap()[0])
    };
    let mut losses = Vec::new();
    for _ in 0..100 {
        let (next, loss) = step(w);
        w = next;
        losses.push(loss);
    }
    let warm = burn_cubecl::memory_report(&d).unwrap();
    for _ in 0..1000 {
        let (next, loss) = step(w);
        w = next;
        losses.push(loss);
    }
    let after = burn_cubecl::memory_report(&d).unwrap();
    // Run the drops of what this test held, so the next test starts with
    // an empty queue.
    drop((x, y, xt, w));
    F::sync(&d).unwrap();
    assert!(
        losses.last().unwrap() < losses.first().unwrap(),
        "the loop does not learn: {} -> {}",
        losses.first().unwrap(),
        losses.last().unwrap()
    );
    assert!(
        after.bytes_in_use <= warm.bytes_in_use && after.allocations <= warm.allocations,
        "memory grew over 1000 steps: {warm:?} -> {after:?}"
    );
    assert!(
        after.bytes_reserved <= warm.bytes_reserved,
        "the pools grew over 1000 steps: {warm:?} -> {after:?}"
    );
}

// ------------------------------------------------------- random programs

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A seeded program of element-wise ops over a pool of tensors of shapes
/// that broadcast together (and a transposed view), some results read
/// later by several ops, with reductions, softmax, masks, reshapes and
/// casts between them; it returns every tensor of the pool.
fn random_program<B: Backend<Device = CubeDevice>>(seed: u64, ops: usize) -> Vec<TensorData> {
    let mut rng = Rng(seed * 2 + 1);
    let half = B::supports_dtype(&device(), DType::F16);
    let shapes: [&[usize]; 4] = [&[4, 33], &[1, 33], &[4, 1], &[33]];
    let mut pool: Vec<FloatTensor<B>> = (0..3)
        .map(|i| {
            let shape = shapes[i % shapes.len()];
            let n: usize = shape.iter().product();
            tensor::<B>(&spread(n, seed * 5 + i as u64, 1.0), shape, DType::F32)
        })
        .collect();
    let transposed = tensor::<B>(&spread(33 * 4, seed * 5 + 4, 1.0), &[33, 4], DType::F32);
    pool.push(B::float_swap_dims(transposed, 0, 1));
    for _ in 0..ops {
        let a = pool[rng.below(pool.len())].clone();
        let b = pool[rng.below(pool.len())].clone();
        let broadcastable = a.shape().broadcast(&b.shape()).is_ok();
        let last = a.shape().num_dims() - 1;
        let out = match rng.below(19) {
            0 if broadcastable => B::float_add(a, b),
            1 if broadcastable => B::float_mul(a, b),
            2 if broadcastable => B::float_max_pair(a, b),
            3 if broadcastable => B::float_sub(a, b),
            4 => B::float_tanh(a),
            5 => B::float_mul_scalar(a, Scalar::Float(0.5 + rng.below(4) as f64)),
            6 => B::float_add_scalar(a, Scalar::Float(rng.below(5) as f64 - 2.0)),
            7 => B::sigmoid(a),
            8 => B::float_clamp(a, Scalar::Float(-1.5), Scalar::Float(1.5)),
            9 => B::gelu(a),
            10 => B::float_abs(B::float_neg(a)),
            11 => B::float_powf_scalar(a, Scalar::Float(2.0)),
            12 => B::leaky_relu(a, Scalar::Float(0.2)),
            // Ops no block takes: they end a block and run on their own
            // between fused ones.
            // Row blocks: reductions and softmax along the last dim.
            13 => match rng.below(6) {
                0 => B::float_sum_dim(a, last),
                1 => B::float_mean_dim(a, last),
                2 => B::float_max_dim(a, last),
                3 => B::float_min_dim(a, last),
                4 => B::log_softmax(a, last),
                _ => B::softmax(B::float_mul_scalar(a, Scalar::Float(0.5)), last),
            },
            14 => B::softmax(a, last),
            15 => {
                let negative = B::float_lower_elem(a.clone(), Scalar::Float(0.0));
                B::float_mask_fill(a, negative, Scalar::Float(0.5))
            }
            16 => {
                let shape = a.shape();
                let flat = B::float_reshape(a, Shape::new([shape.num_elements()]));
                B::float_reshape(flat, shape)
            }
            17 if half => B::float_cast(B::float_cast(a, DType::F16), DType::F32),
            _ => B::float_sin(a),
        };
        // Keep values bounded so long chains stay comparable in f32.
        let out = B::float_clamp(out, Scalar::Float(-50.0), Scalar::Float(50.0));
        if pool.len() < 8 {
            pool.push(out);
        } else {
            let slot = rng.below(pool.len());
            pool[slot] = out;
        }
    }
    pool.into_iter().map(read::<B>).collect()
}

// ------------------------------------------------------------ row blocks

/// Runs `f` fused and unfused; asserts close values, and that the fused
/// run executed `ops` operations in fused blocks.
fn rows_match(name: &str, ops: u64, f: impl Fn(bool) -> Vec<TensorData>) {
    let before = stats();
    let fused = f(true);
    let after = stats();
    let direct = f(false);
    assert_eq!(
        after.fused_operations - before.fused_operations,
        ops,
        "{name}: fused operations"
    );
    for (i, (a, b)) in fused.iter().zip(&direct).enumerate() {
        close(a, b, &format!("{name}: output {i}"));
    }
}

/// `softmax(x * scale + mask)` over rows of `n`.
fn masked_softmax<B: Backend<Device = CubeDevice>>(m: usize, n: usize) -> Vec<TensorData> {
    let x = tensor::<B>(&spread(m * n, 21, 2.0), &[m, n], DType::F32);
    let mask = tensor::<B>(&spread(n, 22, 1.0), &[1, n], DType::F32);
    let scores = B::float_add(B::float_mul_scalar(x, Scalar::Float(0.125)), mask);
    vec![read::<B>(B::softmax(scores, 1))]
}

#[test]
fn a_masked_softmax_is_one_row_block() {
    let _serial = serial();
    // Rows of one vector a unit, of several, and an odd length (scalar reads).
    for (m, n) in [(3, 64), (5, 4096 + 8), (7, 301)] {
        rows_match(&format!("softmax {m}x{n}"), 3, |fused| {
            if fused {
                masked_softmax::<F>(m, n)
            } else {
                masked_softmax::<CubeBackend>(m, n)
            }
        });
    }
}

/// Layer norm as `burn-nn` composes it; returns the output and the mean
/// (read later: a row output).
fn layer_norm<B: Backend<Device = CubeDevice>>(m: usize, n: usize) -> Vec<TensorData> {
    let x = tensor::<B>(&spread(m * n, 23, 1.0), &[m, n], DType::F32);
    let gamma = tensor::<B>(&spread(n, 24, 1.0), &[1, n], DType::F32);
    let beta = tensor::<B>(&spread(n, 25, 1.0), &[1, n], DType::F32);
    let mean = B::float_mean_dim(x.clone(), 1);
    let centered = B::float_sub(x.clone(), mean.clone());
    let squares = B::float_mul(centered.clone(), centered);
    let var = B::float_div_scalar(B::float_sum_dim(squares, 1), Scalar::Float(n as f64));
    let std = B::float_sqrt(B::float_add_scalar(var, Scalar::Float(1e-5)));
    let normalized = B::float_div(B::float_sub(x, mean.clone()), std);
    let out = B::float_add(B::float_mul(normalized, gamma), beta);
    vec![read::<B>(out), read::<B>(mean)]
}

#[test]
fn a_composed_layer_norm_is_one_row_block_and_writes_its_mean() {
    let _serial = serial();
    for (m, n) in [(4, 768), (3, 257)] {
        rows_match(&format!("layer norm {m}x{n}"), 11, |fused| {
            if fused {
                layer_norm::<F>(m, n)
            } else {
                layer_norm::<CubeBackend>(m, n)
            }
        });
    }
}

#[test]
fn strided_rows_and_row_inputs() {
    let _serial = serial();
    fn run<B: Backend<Device = CubeDevice>>() -> Vec<TensorData> {
        let x = tensor::<B>(&spread(300 * 6, 26, 1.0), &[300, 6], DType::F32);
        let x = B::float_swap_dims(x, 0, 1); // [6, 300], strided rows
        let shift = tensor::<B>(&spread(6, 27, 1.0), &[6, 1], DType::F32);
        let y = B::float_exp(B::float_add(x, shift));
        let max = B::float_max_dim(y.clone(), 1);
        let min = B::float_min_dim(y.clone(), 1);
        let range = B::float_sub(max, min.clone());
        let scaled = B::float_div(B::float_sub(y, min), range);
        vec![read::<B>(B::log_softmax(scaled, 1))]
    }
    rows_match("strided rows", 8, |fused| {
        if fused {
            run::<F>()
        } else {
            run::<CubeBackend>()
        }
    });
}

#[test]
fn random_programs_match_the_unfused_kernels() {
    let _serial = serial();
    let cases: u64 = std::env::var("BURN_FUSION_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let before = stats();
    for seed in 0..cases {
        let ops = 5 + (seed as usize * 7) % 36;
        let fused = random_program::<F>(seed, ops);
        let direct = random_program::<CubeBackend>(seed, ops);
        for (i, (f, d)) in fused.iter().zip(&direct).enumerate() {
            close(f, d, &format!("seed {seed}, {ops} ops: tensor {i}"));
        }
    }
    assert!(
        stats().fused_blocks > before.fused_blocks,
        "no program was fused"
    );
}
