//! Backward of `matmul`: d/dA (A B) = G Bᵀ, d/dB = Aᵀ G, each summed over the
//! batch dims its operand was broadcast along.
//!
//! Reference values: tests/autodiff/reference/matmul.py (the "matmul.rs" blocks).

use crate::common::gradcheck::{assert_grad, backward_with};
use crate::common::*;

#[test]
fn matmul_2d() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone().matmul(y.clone()), [[1.0, -2.0], [0.5, 3.0]]);
    assert_grad(&x, &grads, [[1.0, 0.0, 2.0], [2.5, -3.0, 5.0]]);
    assert_grad(&y, &grads, [[3.0, 6.0], [-1.875, 4.75], [-0.125, -4.75]]);
}

#[test]
fn matmul_untracked_rhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]], &device);
    let grads = backward_with(x.clone().matmul(y.clone()), [[1.0, -2.0], [0.5, 3.0]]);
    assert_grad(&x, &grads, [[1.0, 0.0, 2.0], [2.5, -3.0, 5.0]]);
    assert!(y.grad(&grads).is_none());
}

#[test]
fn matmul_untracked_lhs() {
    let device = device();
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device);
    let y = Tensor::<2>::from_data([[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]], &device).require_grad();
    let grads = backward_with(x.clone().matmul(y.clone()), [[1.0, -2.0], [0.5, 3.0]]);
    assert!(x.grad(&grads).is_none());
    assert_grad(&y, &grads, [[3.0, 6.0], [-1.875, 4.75], [-0.125, -4.75]]);
}

#[test]
fn matmul_batched() {
    let device = device();
    let x = Tensor::<3>::from_data(
        [
            [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]],
            [[0.5, 1.0, -1.5], [2.0, -0.5, 0.25]],
        ],
        &device,
    )
    .require_grad();
    let y = Tensor::<3>::from_data(
        [
            [[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]],
            [[1.0, -1.0], [0.5, 2.0], [-0.25, 1.5]],
        ],
        &device,
    )
    .require_grad();
    let grads = backward_with(
        x.clone().matmul(y.clone()),
        [[[1.0, -2.0], [0.5, 3.0]], [[-1.0, 0.5], [2.0, 1.5]]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [[1.0, 0.0, 2.0], [2.5, -3.0, 5.0]],
            [[-1.5, 0.5, 1.0], [0.5, 4.0, 1.75]],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [
            [[3.0, 6.0], [-1.875, 4.75], [-0.125, -4.75]],
            [[3.5, 3.25], [-2.0, -0.25], [2.0, -0.375]],
        ],
    );
}

#[test]
fn matmul_broadcast_lhs_batch() {
    // [1, 2, 3] @ [2, 3, 2]: x's gradient sums over the batch.
    let device = device();
    let x =
        Tensor::<3>::from_data([[[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]], &device).require_grad();
    let y = Tensor::<3>::from_data(
        [
            [[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]],
            [[1.0, -1.0], [0.5, 2.0], [-0.25, 1.5]],
        ],
        &device,
    )
    .require_grad();
    let grads = backward_with(
        x.clone().matmul(y.clone()),
        [[[1.0, -2.0], [0.5, 3.0]], [[-1.0, 0.5], [2.0, 1.5]]],
    );
    assert_grad(&x, &grads, [[[-0.5, 0.5, 3.0], [3.0, 1.0, 6.75]]]);
    assert_grad(
        &y,
        &grads,
        [
            [[3.0, 6.0], [-1.875, 4.75], [-0.125, -4.75]],
            [[4.5, 5.25], [2.5, -0.625], [-3.0, -1.625]],
        ],
    );
}

#[test]
fn matmul_broadcast_rhs_batch() {
    // [2, 2, 3] @ [1, 3, 2]: y's gradient sums over the batch.
    let device = device();
    let x = Tensor::<3>::from_data(
        [
            [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]],
            [[0.5, 1.0, -1.5], [2.0, -0.5, 0.25]],
        ],
        &device,
    )
    .require_grad();
    let y =
        Tensor::<3>::from_data([[[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]]], &device).require_grad();
    let grads = backward_with(
        x.clone().matmul(y.clone()),
        [[[1.0, -2.0], [0.5, 3.0]], [[-1.0, 0.5], [2.0, 1.5]]],
    );
    assert_grad(
        &x,
        &grads,
        [
            [[1.0, 0.0, 2.0], [2.5, -3.0, 5.0]],
            [[-1.75, 1.125, -3.5], [4.75, -4.125, 9.5]],
        ],
    );
    assert_grad(&y, &grads, [[[6.5, 9.25], [-3.875, 4.5], [1.875, -5.125]]]);
}

#[test]
fn matmul_broadcast_both_batches() {
    // [2, 1, 2, 3] @ [1, 2, 3, 2]: each side broadcasts a different batch dim.
    let device = device();
    let x = Tensor::<4>::from_data(
        [
            [[[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]],
            [[[0.5, 1.0, -1.5], [2.0, -0.5, 0.25]]],
        ],
        &device,
    )
    .require_grad();
    let y = Tensor::<4>::from_data(
        [[
            [[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]],
            [[1.0, -1.0], [0.5, 2.0], [-0.25, 1.5]],
        ]],
        &device,
    )
    .require_grad();
    let grads = backward_with(
        x.clone().matmul(y.clone()),
        [
            [[[1.0, -2.0], [0.5, 3.0]], [[-1.0, 0.5], [2.0, 1.5]]],
            [[[0.5, 0.5], [-1.0, 2.0]], [[1.5, -0.5], [0.25, 1.0]]],
        ],
    );
    assert_grad(
        &x,
        &grads,
        [
            [[[-0.5, 0.5, 3.0], [3.0, 1.0, 6.75]]],
            [[[3.25, -1.375, 1.375], [-1.75, 2.125, -0.5625]]],
        ],
    );
    assert_grad(
        &y,
        &grads,
        [[
            [[1.25, 10.25], [-0.875, 4.25], [-1.125, -5.0]],
            [[5.75, 7.0], [3.875, -1.625], [-5.1875, -0.625]],
        ]],
    );
}

#[test]
fn matmul_quantized_rhs() {
    use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
    // A quantized weight is a constant: the gradient reaches the float
    // operand through its dequantized values, dx = G Wᵀ (within half a
    // quantization step of W, times the row sums of |G|, here 3).
    let device = device();
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .with_store(QuantStore::Native)
        .per_tensor(ScaleDtype::F32);
    let x = Tensor::<2>::from_data([[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]], &device).require_grad();
    let y = Tensor::<2>::from_data([[2.0, 0.5], [-1.5, -0.75], [4.0, 1.0]], &device)
        .quantize_dynamic(&scheme);
    let grads = backward_with(x.clone().matmul(y.clone()), [[1.0, -2.0], [0.5, 3.0]]);
    let grad = x.grad(&grads).expect("the tensor has no gradient");
    assert_eq!(grad.dtype(), x.dtype());
    let step = 4.0 / 127.0;
    grad.into_data().assert_approx_eq::<FloatElem>(
        &TensorData::from([[1.0, 0.0, 2.0], [2.5, -3.0, 5.0]]),
        Tolerance::rel_abs(1e-2, 3.0 * step / 2.0),
    );
    assert!(y.dtype().is_quantized());
}
