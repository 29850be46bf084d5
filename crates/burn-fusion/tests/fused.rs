//! Element-wise blocks fused on Flex: the same bits as Flex alone, for
//! chains, broadcasts, strided views, intermediates read later, every float
//! dtype, changed scalars, and seeded random programs.

use burn_backend::{Backend, FloatTensor, FloatTensorOps, Scalar, TensorData, TensorMetadata};
use burn_flex::{Flex, FlexDevice};
use burn_std::{DType, Tolerance};

mod common;

use common::{F, Rng, read, serial, stats, tensor, values};

/// `((x * 2 + 1).exp().tanh() * 0.5)`.
fn chain<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    let y = B::float_add_scalar(
        B::float_mul_scalar(x, Scalar::Float(2.0)),
        Scalar::Float(1.0),
    );
    B::float_mul_scalar(B::float_tanh(B::float_exp(y)), Scalar::Float(0.5))
}

#[test]
fn a_chain_runs_as_one_block_with_the_values_of_flex() {
    let _serial = serial();
    for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        let x = values(3 * 1007, 1);
        let before = stats();
        let fused = read::<F>(chain::<F>(tensor::<F>(&x, &[3, 1007], dtype)));
        let after = stats();
        assert!(
            after.fused_blocks > before.fused_blocks,
            "{dtype}: not fused"
        );
        assert_eq!(
            after.fused_operations - before.fused_operations,
            5,
            "{dtype}"
        );
        let direct = read::<Flex>(chain::<Flex>(tensor::<Flex>(&x, &[3, 1007], dtype)));
        assert_eq!(fused.dtype, dtype);
        // Each fused instruction computes and rounds as its unfused kernel.
        assert_eq!(fused, direct, "{dtype}: fused and unfused bits differ");
    }
}

#[test]
fn broadcast_and_strided_operands() {
    let _serial = serial();
    let program = |x: FloatTensor<Flex>,
                   b: FloatTensor<Flex>|
     -> (FloatTensor<Flex>, FloatTensor<Flex>) { (x, b) };
    let _ = program;
    fn run<B: Backend<Device = FlexDevice>>() -> TensorData {
        let x = tensor::<B>(&values(6 * 5, 3), &[6, 5], DType::F32);
        // A transposed view: strided, read in place by the block.
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
    assert_eq!(fused, run::<Flex>());
}

#[test]
fn an_intermediate_read_later_is_written() {
    let _serial = serial();
    let x = tensor::<F>(&values(64, 5), &[8, 8], DType::F32);
    let y = F::float_mul_scalar(x, Scalar::Float(3.0));
    let z = F::float_exp(F::float_neg(y.clone()));
    let w = F::float_add(z, y.clone());
    let (y, w) = (read::<F>(y), read::<F>(w));
    let xd = tensor::<Flex>(&values(64, 5), &[8, 8], DType::F32);
    let yd = Flex::float_mul_scalar(xd, Scalar::Float(3.0));
    let wd = Flex::float_add(Flex::float_exp(Flex::float_neg(yd.clone())), yd.clone());
    y.assert_approx_eq::<f32>(&read::<Flex>(yd), Tolerance::default());
    w.assert_approx_eq::<f32>(&read::<Flex>(wd), Tolerance::default());
}

#[test]
fn scalars_are_arguments_not_part_of_the_plan() {
    let _serial = serial();
    // Two steps of the same shape with other scalar values (a learning rate
    // that changes): the second reuses the first plan, with its own scalars.
    let step = |lr: f64| {
        let w = tensor::<F>(&values(256, 11), &[16, 16], DType::F32);
        let g = tensor::<F>(&values(256, 12), &[16, 16], DType::F32);
        let update = F::float_mul_scalar(F::float_tanh(g), Scalar::Float(lr));
        read::<F>(F::float_sub(w, update))
    };
    let _warm = step(0.1);
    let before = stats();
    let a = step(0.5);
    let middle = stats();
    let b = step(0.25);
    let after = stats();
    assert_eq!(middle.searches, before.searches, "the second step searched");
    assert_eq!(after.searches, middle.searches);
    assert!(after.cache_hits > middle.cache_hits);
    let w = values(256, 11);
    let g = values(256, 12);
    for (lr, got) in [(0.5f32, a), (0.25, b)] {
        let expected: Vec<f32> = w.iter().zip(&g).map(|(w, g)| w - g.tanh() * lr).collect();
        got.assert_approx_eq::<f32>(&TensorData::new(expected, [16, 16]), Tolerance::default());
    }
}

#[test]
fn a_consumed_input_is_freed() {
    let _serial = serial();
    let client = burn_fusion::FusionClient::<Flex>::of(&FlexDevice);
    let before = client.tensor_count();
    for _ in 0..10 {
        let x = tensor::<F>(&values(1000, 2), &[1000], DType::F32);
        let _ = read::<F>(chain::<F>(x));
    }
    assert_eq!(client.tensor_count(), before);
}

// ------------------------------------------------------- random programs

/// A seeded program of element-wise ops over a pool of tensors of shapes
/// that broadcast together, some results read later by several ops; it
/// returns every tensor of the pool.
fn random_program<B: Backend<Device = FlexDevice>>(seed: u64, ops: usize) -> Vec<TensorData> {
    let mut rng = Rng(seed * 2 + 1);
    let shapes: [&[usize]; 4] = [&[4, 33], &[1, 33], &[4, 1], &[33]];
    let mut pool: Vec<FloatTensor<B>> = (0..3)
        .map(|i| {
            let shape = shapes[i % shapes.len()];
            let n: usize = shape.iter().product();
            tensor::<B>(&values(n, seed as u32 + i as u32), shape, DType::F32)
        })
        .collect();
    for _ in 0..ops {
        let a = pool[rng.below(pool.len())].clone();
        let b = pool[rng.below(pool.len())].clone();
        let broadcastable = a.shape().broadcast(&b.shape()).is_ok();
        let out = match rng.below(12) {
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
            _ => B::float_sin(a),
        };
        // Keep values bounded so exp-free chains stay comparable in f32.
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
fn random_programs_match_flex() {
    let _serial = serial();
    let cases: u64 = std::env::var("BURN_FUSION_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let before = stats();
    for seed in 0..cases {
        let ops = 5 + (seed as usize * 7) % 36;
        let fused = random_program::<F>(seed, ops);
        let direct = random_program::<Flex>(seed, ops);
        for (i, (f, d)) in fused.iter().zip(&direct).enumerate() {
            assert_eq!(
                f, d,
                "seed {seed}, {ops} ops: tensor {i} differs between fused and unfused"
            );
        }
    }
    assert!(
        stats().fused_blocks > before.fused_blocks,
        "no program was fused"
    );
}
