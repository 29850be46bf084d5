//! Balanced checkpointing gives the same gradients as keeping every value:
//! the outputs of memory-bound ops are recomputed during backward from
//! their recorded inputs, by the same kernels, so the gradients are
//! bit-identical. Under fusion on a GPU they are equal up to rounding
//! instead: the recomputation may fuse into other kernels than the forward
//! pass did (the queue is shared by the test threads, so block boundaries
//! vary), and the GPU compiler contracts a multiply and an add that the
//! unfused kernels round between. (That it lowers peak memory is checked
//! by the separate executable `tests/checkpointing.rs`, which counts heap
//! bytes.)

use burn::tensor::{Checkpointing, Device};

use super::expect::*;
use crate::common::*;

/// Deterministic inputs (no RNG, so both devices see the same values).
fn input(rows: usize, cols: usize, phase: f64, device: &Device) -> Tensor<2> {
    let values: Vec<FloatElem> = (0..rows * cols)
        .map(|k| FloatElem::from_f64(0.1 * (k as f64 * 0.37 + phase).sin()))
        .collect();
    Tensor::from_data(TensorData::new(values, [rows, cols]), device)
}

/// A compute-bound matmul followed by `steps` rounds of memory-bound ops
/// (exp, mul_scalar, tanh, mul_scalar, add); bounded, so no step saturates.
fn chain(x: Tensor<2>, w: Tensor<2>, steps: usize) -> Tensor<2> {
    let mut h = x.matmul(w);
    for _ in 0..steps {
        h = (h.clone().exp() * 0.5).tanh() + h * 0.5;
    }
    h
}

/// The gradients of `x` and `w` (either may be untracked) under `checkpointing`.
fn gradients(
    checkpointing: Checkpointing,
    track_x: bool,
    track_w: bool,
) -> (Option<TensorData>, Option<TensorData>) {
    let device = device().autodiff_with_checkpointing(checkpointing);
    let x = input(8, 16, 0.0, &device).set_require_grad(track_x);
    let w = input(16, 12, 1.0, &device).set_require_grad(track_w);
    let grads = weighted_sum(chain(x.clone(), w.clone(), 20)).backward();
    (
        x.grad(&grads).map(Tensor::into_data),
        w.grad(&grads).map(Tensor::into_data),
    )
}

/// Whether the backend under test fuses into generated GPU kernels, whose
/// rounding depends on the block boundaries.
const GPU_FUSION: bool = cfg!(all(
    feature = "fusion",
    any(feature = "wgpu", feature = "cuda")
));

/// `balanced` equals `none`: bit for bit, or within a few ulps of the
/// dtype under [`GPU_FUSION`].
#[track_caller]
fn assert_same(balanced: &TensorData, none: &TensorData) {
    if GPU_FUSION {
        // A few ulps: of f32 (and f64), or of the half precision at hand.
        let tolerance = dtype_tolerance(Tolerance::rel_abs(1e-5, 1e-9), 1.0);
        balanced.assert_approx_eq::<FloatElem>(none, tolerance);
    } else {
        balanced.assert_eq(none, true);
    }
}

fn assert_identical(none: Option<TensorData>, balanced: Option<TensorData>) {
    match (none, balanced) {
        (Some(none), Some(balanced)) => assert_same(&balanced, &none),
        (None, None) => {}
        (none, balanced) => panic!(
            "one strategy produced a gradient, the other not: {:?} vs {:?}",
            none.is_some(),
            balanced.is_some()
        ),
    }
}

#[test]
fn balanced_gradients_equal_no_checkpointing_gradients() {
    let (x_none, w_none) = gradients(Checkpointing::None, true, true);
    let (x_balanced, w_balanced) = gradients(Checkpointing::Balanced, true, true);
    assert!(x_none.is_some() && w_none.is_some());
    // The gradients are not trivially zero (the chain does not saturate).
    let magnitude: f32 = x_none.as_ref().unwrap().iter::<f32>().map(f32::abs).sum();
    assert!(magnitude > 1e-3, "degenerate gradient: {magnitude}");
    assert_identical(x_none, x_balanced);
    assert_identical(w_none, w_balanced);
}

#[test]
fn balanced_gradients_equal_with_an_untracked_operand() {
    for (track_x, track_w) in [(true, false), (false, true)] {
        let (x_none, w_none) = gradients(Checkpointing::None, track_x, track_w);
        let (x_balanced, w_balanced) = gradients(Checkpointing::Balanced, track_x, track_w);
        assert_eq!(x_none.is_some(), track_x);
        assert_eq!(w_none.is_some(), track_w);
        assert_identical(x_none, x_balanced);
        assert_identical(w_none, w_balanced);
    }
}

#[test]
fn balanced_recomputes_an_intermediate_used_twice() {
    // y = exp(x) feeds two memory-bound consumers; under balanced
    // checkpointing both recompute it. d/dx Σ(tanh(y) + y·y) =
    // (1 - tanh²(y) + 2y) · y, compared across strategies.
    let run = |checkpointing| {
        let device = device().autodiff_with_checkpointing(checkpointing);
        let x = input(4, 5, 0.5, &device).require_grad();
        let y = x.clone().exp();
        let z = y.clone().tanh() + y.clone() * y;
        let grads = weighted_sum(z).backward();
        x.grad(&grads).unwrap().into_data()
    };
    assert_same(&run(Checkpointing::Balanced), &run(Checkpointing::None));
}

#[test]
fn balanced_device_creates_tensors_of_that_strategy() {
    let balanced = device().autodiff_with_checkpointing(Checkpointing::Balanced);
    let x = Tensor::<1>::from_data([1.0, 2.0], &balanced).require_grad();
    // Mixing it with a constant of the same strategy is fine.
    let c = Tensor::<1>::from_data([3.0, 4.0], &balanced);
    let grads = (x.clone() * c).sum().backward();
    assert_grad(&x, &grads, [3.0, 4.0]);
}
