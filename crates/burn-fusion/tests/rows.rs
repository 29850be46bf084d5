//! Row blocks fused on Flex: reductions and softmax along the last dim with
//! the element-wise work around them give the bits of Flex alone, at every
//! float dtype, for broadcast and strided operands, intermediates read
//! later, rows split across threads, and seeded random programs.

use burn_backend::{
    ActivationOps, Backend, FloatTensor, FloatTensorOps, Scalar, TensorData, TensorMetadata,
};
use burn_flex::{Flex, FlexDevice};
use burn_std::DType;

mod common;

use common::{F, Rng, read, serial, stats, tensor, values};

/// Runs `f` fused and on Flex alone; asserts the same bits, and that the
/// fused run executed `ops` operations in fused blocks.
fn same_bits(name: &str, ops: u64, f: impl Fn(bool) -> Vec<TensorData>) {
    let before = stats();
    let fused = f(true);
    let after = stats();
    let direct = f(false);
    assert_eq!(
        after.fused_operations - before.fused_operations,
        ops,
        "{name}: fused operations ({} blocks)",
        after.fused_blocks - before.fused_blocks
    );
    for (i, (a, b)) in fused.iter().zip(&direct).enumerate() {
        assert_eq!(a, b, "{name}: output {i} differs between fused and unfused");
    }
}

/// `softmax(x * scale + mask)` along the last dim.
fn masked_softmax<B: Backend<Device = FlexDevice>>(m: usize, n: usize, dtype: DType) -> TensorData {
    let x = tensor::<B>(&values(m * n, 1), &[m, n], dtype);
    let mask = tensor::<B>(&values(n, 2), &[1, n], dtype);
    let scores = B::float_add(B::float_mul_scalar(x, Scalar::Float(0.125)), mask);
    read::<B>(B::softmax(scores, 1))
}

#[test]
fn masked_softmax_is_one_block_with_the_bits_of_flex() {
    let _serial = serial();
    for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        same_bits(&format!("softmax {dtype}"), 3, |fused| {
            vec![if fused {
                masked_softmax::<F>(7, 301, dtype)
            } else {
                masked_softmax::<Flex>(7, 301, dtype)
            }]
        });
    }
}

/// Layer norm composed as `burn-nn` composes it: biased variance and mean
/// (`mean_dim`, `x - mean`, squares, `sum_dim / n`), then
/// `(x - mean) / sqrt(var + eps) * gamma + beta`. Returns the output and
/// the mean, which is read later.
fn layer_norm<B: Backend<Device = FlexDevice>>(
    m: usize,
    n: usize,
    dtype: DType,
) -> Vec<TensorData> {
    let x = tensor::<B>(&values(m * n, 3), &[m, n], dtype);
    let gamma = tensor::<B>(&values(n, 4), &[1, n], dtype);
    let beta = tensor::<B>(&values(n, 5), &[1, n], dtype);
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
fn a_composed_layer_norm_is_one_block_and_its_mean_is_written() {
    let _serial = serial();
    for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        same_bits(&format!("layer norm {dtype}"), 11, |fused| {
            if fused {
                layer_norm::<F>(5, 257, dtype)
            } else {
                layer_norm::<Flex>(5, 257, dtype)
            }
        });
    }
}

#[test]
fn rows_split_across_threads_and_a_strided_input() {
    let _serial = serial();
    // 96 rows of 3000: several tasks of rows, each on a worker thread.
    fn run<B: Backend<Device = FlexDevice>>() -> Vec<TensorData> {
        let x = tensor::<B>(&values(3000 * 96, 6), &[3000, 96], DType::F32);
        let x = B::float_swap_dims(x, 0, 1); // [96, 3000], strided rows
        let y = B::float_exp(B::float_mul_scalar(x, Scalar::Float(0.5)));
        let max = B::float_max_dim(y.clone(), 1);
        let min = B::float_min_dim(y.clone(), 1);
        let range = B::float_sub(max, min.clone());
        let scaled = B::float_div(B::float_sub(y, min), range);
        vec![read::<B>(B::log_softmax(scaled, 1))]
    }
    same_bits("strided rows", 8, |fused| {
        if fused { run::<F>() } else { run::<Flex>() }
    });
}

#[test]
fn an_input_read_later_is_not_overwritten() {
    let _serial = serial();
    let x = tensor::<F>(&values(4 * 50, 7), &[4, 50], DType::F32);
    let y = F::softmax(F::float_mul_scalar(x.clone(), Scalar::Float(2.0)), 1);
    let y = read::<F>(y);
    // The block took `x` read-only: it is still the values it was given.
    assert_eq!(
        read::<F>(x),
        TensorData::new(values(4 * 50, 7), [4, 50]),
        "the block overwrote a tensor still in use"
    );
    let xd = tensor::<Flex>(&values(4 * 50, 7), &[4, 50], DType::F32);
    let yd = Flex::softmax(Flex::float_mul_scalar(xd, Scalar::Float(2.0)), 1);
    assert_eq!(y, read::<Flex>(yd));
}

#[test]
fn a_second_step_replays_its_plan() {
    let _serial = serial();
    let step = || masked_softmax::<F>(8, 64, DType::F32);
    let _warm = (step(), step());
    let before = stats();
    let _ = step();
    let after = stats();
    assert_eq!(after.searches, before.searches, "the step searched again");
    assert!(after.cache_hits > before.cache_hits);
}

// ------------------------------------------------------- random programs

/// A seeded program over a pool of full `[4, 33]` and row `[4, 1]`
/// tensors (and broadcast `[1, 33]` ones): element-wise ops between
/// tensors that broadcast together, reductions along the row, softmax and
/// log-softmax, some results read by several later ops; it returns every
/// tensor of the pool.
fn random_program<B: Backend<Device = FlexDevice>>(
    seed: u64,
    ops: usize,
    dtype: DType,
) -> Vec<TensorData> {
    let mut rng = Rng(seed * 2 + 1);
    let shapes: [&[usize]; 3] = [&[4, 33], &[1, 33], &[4, 1]];
    let mut pool: Vec<FloatTensor<B>> = (0..3)
        .map(|i| {
            let shape = shapes[i];
            let n: usize = shape.iter().product();
            tensor::<B>(&values(n, seed as u32 + i as u32), shape, dtype)
        })
        .collect();
    for _ in 0..ops {
        let a = pool[rng.below(pool.len())].clone();
        let b = pool[rng.below(pool.len())].clone();
        let full = a.shape().dims[1] == 33;
        let broadcastable = a.shape().broadcast(&b.shape()).is_ok();
        let out = match rng.below(14) {
            0 if broadcastable => B::float_add(a, b),
            1 if broadcastable => B::float_mul(a, b),
            2 if broadcastable => B::float_sub(a, b),
            3 if broadcastable => {
                B::float_div(a, B::float_add_scalar(B::float_abs(b), Scalar::Float(1.0)))
            }
            4 => B::float_tanh(a),
            5 => B::float_mul_scalar(a, Scalar::Float(0.5 + rng.below(4) as f64)),
            6 => B::float_exp(B::float_clamp(a, Scalar::Float(-5.0), Scalar::Float(5.0))),
            7 if full => B::float_sum_dim(a, 1),
            8 if full => B::float_mean_dim(a, 1),
            9 if full => B::float_max_dim(a, 1),
            10 if full => B::float_min_dim(a, 1),
            11 if full => B::softmax(a, 1),
            12 if full => B::log_softmax(a, 1),
            _ => B::sigmoid(a),
        };
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

#[test]
fn random_row_programs_match_flex() {
    let _serial = serial();
    let cases: u64 = std::env::var("BURN_FUSION_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let before = stats();
    for seed in 0..cases {
        let ops = 5 + (seed as usize * 7) % 36;
        let dtype = [DType::F32, DType::F16, DType::F64, DType::BF16][seed as usize % 4];
        let fused = random_program::<F>(seed, ops, dtype);
        let direct = random_program::<Flex>(seed, ops, dtype);
        for (i, (f, d)) in fused.iter().zip(&direct).enumerate() {
            assert_eq!(
                f, d,
                "seed {seed}, {ops} ops, {dtype}: tensor {i} differs between fused and unfused"
            );
        }
    }
    assert!(
        stats().fused_blocks > before.fused_blocks,
        "no program was fused"
    );
}
